import { useState } from "preact/hooks";
import { TaxPlanner, TaxYear } from "../../../generated/graphql/web-operations";
import { downloadMyTaxPdf, gql } from "../api";
import { date, fyName, money, negative, percent, quantity } from "../format";
import { currentFinancialYear } from "../periods";
import { ErrorNote, Figure, Loaded, Section, useLoad } from "../ui";

/**
 * A tax year at a glance (WEB.md: Tax): capital gains and disposals, the myTax labels and their
 * PDF, and the planner's harvest and wait-for-discount lists for the year in progress.
 */

const YEARS_SHOWN = 5;

function Planner({ portfolioId }: { portfolioId: string }) {
  const [load] = useLoad(() => gql(TaxPlanner, { id: portfolioId }), [portfolioId]);
  return (
    <Loaded load={load} what="the tax planner">
      {({ taxPlanner: t }) => (
        <Section title={`Planner for ${fyName(t.financialYear)}`} id="planner">
          <p class="help">
            As of {date(t.asOf)}; the year ends {date(t.endOfYear)}. CGT discount {percent(t.discountPercent)}.
          </p>
          <dl class="figures">
            <Figure label="Net capital gain to date" value={money(t.realisedToDate.netCapitalGain)} />
            <Figure label="Projected net capital gain" value={money(t.projectedNetCapitalGain)} />
            <Figure label="Unrealised gains" value={money(t.unrealised.gains)} />
            <Figure label="Unrealised losses" value={money(t.unrealised.losses)} />
          </dl>
          <h3>Losses to harvest ({t.harvest.length})</h3>
          {t.harvest.length === 0 ? (
            <p>No open parcel is at a loss.</p>
          ) : (
            <div class="table-wrap">
              <table id="harvest">
                <caption class="sr-only">Parcels at a loss that could be sold before the year ends</caption>
                <thead>
                  <tr>
                    <th scope="col">Holding</th>
                    <th scope="col" class="hide-narrow">
                      Acquired
                    </th>
                    <th scope="col" class="num">
                      Units
                    </th>
                    <th scope="col" class="num">
                      Loss
                    </th>
                    <th scope="col" class="num">
                      Net gain reduced by
                    </th>
                    <th scope="col">Wash-sale risk</th>
                  </tr>
                </thead>
                <tbody>
                  {t.harvest.map((h, i) => (
                    <tr key={i}>
                      <th scope="row">
                        {h.symbol}.{h.exchange}
                      </th>
                      <td class="hide-narrow">{date(h.acquisitionDate)}</td>
                      <td class="num">{quantity(h.quantity)}</td>
                      <td class="num neg">{money(h.unrealisedLoss)}</td>
                      <td class="num">{money(h.netCapitalGainReduction)}</td>
                      <td>{h.washSaleRisk ? "Yes" : "No"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Gains to wait for the discount ({t.waitForDiscount.length})</h3>
          {t.waitForDiscount.length === 0 ? (
            <p>No parcel at a gain is short of its discount date.</p>
          ) : (
            <div class="table-wrap">
              <table id="wait-for-discount">
                <caption class="sr-only">Parcels at a gain that become discountable</caption>
                <thead>
                  <tr>
                    <th scope="col">Holding</th>
                    <th scope="col" class="hide-narrow">
                      Acquired
                    </th>
                    <th scope="col">Discount from</th>
                    <th scope="col" class="num">
                      Days
                    </th>
                    <th scope="col" class="num">
                      Gain now
                    </th>
                    <th scope="col" class="num">
                      Gain if held
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {t.waitForDiscount.map((w, i) => (
                    <tr key={i}>
                      <th scope="row">
                        {w.symbol}.{w.exchange}
                      </th>
                      <td class="hide-narrow">{date(w.acquisitionDate)}</td>
                      <td>{date(w.discountEligibleFrom)}</td>
                      <td class="num">{w.daysToWait}</td>
                      <td class="num">{money(w.gainIfSoldNow)}</td>
                      <td class="num">{money(w.gainIfSoldWhenEligible)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {t.warnings.length > 0 && (
            <ul class="warnings">
              {t.warnings.map((w, i) => (
                <li key={i}>{w.message}</li>
              ))}
            </ul>
          )}
        </Section>
      )}
    </Loaded>
  );
}

export function TaxView({ portfolioId }: { portfolioId: string }) {
  const current = currentFinancialYear();
  const [year, setYear] = useState(current);
  const [pdf, setPdf] = useState<{ state: "idle" | "busy" | "done"; message?: string; error?: Error }>({
    state: "idle",
  });
  const [load] = useLoad(() => gql(TaxYear, { id: portfolioId, financialYear: year }), [portfolioId, year]);
  const years = Array.from({ length: YEARS_SHOWN }, (_, i) => current - i);
  return (
    <>
      <h1>Tax</h1>
      <div class="toolbar">
        <label for="tax-year">Financial year</label>
        <select id="tax-year" value={year} onChange={(e) => setYear(Number(e.currentTarget.value))}>
          {years.map((y) => (
            <option key={y} value={y}>
              {fyName(y)} (1 Jul {y - 1} – 30 Jun {y})
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={pdf.state === "busy"}
          onClick={() => {
            setPdf({ state: "busy" });
            downloadMyTaxPdf(portfolioId, year).then(
              (name) => setPdf({ state: "done", message: `Saved ${name}.` }),
              (error: Error) => setPdf({ state: "idle", error }),
            );
          }}
        >
          Download myTax PDF
        </button>
        <span role="status" class="help" id="pdf-status">
          {pdf.state === "busy" ? "Making the PDF…" : (pdf.message ?? "")}
        </span>
      </div>
      {pdf.error && <ErrorNote error={pdf.error} />}
      <Loaded load={load} what="the tax year">
        {({ capitalGainsReport: cg, myTaxReport: mt }) => (
          <>
            <Section title={`Capital gains, ${fyName(cg.financialYear)}`} id="capital-gains">
              <p class="help">
                {date(cg.from)} to {date(cg.to)}, {cg.entityType}, CGT discount {percent(cg.discountPercent)}.
              </p>
              <dl class="figures">
                <Figure label="Net capital gain" id="net-capital-gain" value={money(cg.summary.netCapitalGain)} />
                <Figure label="Total capital gains" value={money(cg.summary.totalCapitalGains)} />
                <Figure label="Capital losses" value={money(cg.summary.capitalLosses)} />
                <Figure label="Discount" value={money(cg.summary.discount)} />
                <Figure label="Losses carried forward" value={money(cg.summary.netCapitalLossesCarriedForward)} />
              </dl>
              {cg.unconfirmedIncome.count > 0 && (
                <p class="warnings">
                  {cg.unconfirmedIncome.count} income record(s) paid in the year are not confirmed and are left out (
                  {money(cg.unconfirmedIncome.grossAmount)} gross).
                </p>
              )}
              <h3>Disposals ({cg.disposals.length})</h3>
              {cg.disposals.length === 0 ? (
                <p>No CGT event in this year.</p>
              ) : (
                <div class="table-wrap">
                  <table id="disposals">
                    <caption class="sr-only">CGT events parcel by parcel</caption>
                    <thead>
                      <tr>
                        <th scope="col">Holding</th>
                        <th scope="col" class="hide-narrow">
                          Acquired
                        </th>
                        <th scope="col">Disposed</th>
                        <th scope="col" class="num">
                          Units
                        </th>
                        <th scope="col" class="num">
                          Cost base
                        </th>
                        <th scope="col" class="num">
                          Proceeds
                        </th>
                        <th scope="col" class="num">
                          Gain
                        </th>
                        <th scope="col">Discount</th>
                      </tr>
                    </thead>
                    <tbody>
                      {cg.disposals.map((x, i) => (
                        <tr key={i}>
                          <th scope="row">
                            {x.symbol}.{x.exchange}
                          </th>
                          <td class="hide-narrow">{date(x.acquisitionDate)}</td>
                          <td>{date(x.disposalDate)}</td>
                          <td class="num">{quantity(x.quantity)}</td>
                          <td class="num">{money(x.costBase)}</td>
                          <td class="num">{money(x.proceeds)}</td>
                          <td class={`num ${negative(x.capitalGain) ? "neg" : "pos"}`}>{money(x.capitalGain)}</td>
                          <td>{x.isDiscountable ? "Yes" : "No"}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Section>
            <Section title={`myTax labels, ${fyName(mt.financialYear)}`} id="mytax">
              <div class="table-wrap">
                <table id="mytax-labels">
                  <caption class="sr-only">ATO myTax labels and amounts</caption>
                  <thead>
                    <tr>
                      <th scope="col">Label</th>
                      <th scope="col" class="hide-narrow">
                        Section
                      </th>
                      <th scope="col">What</th>
                      <th scope="col" class="num">
                        Amount
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {mt.labels.map((l) => (
                      <tr key={l.label}>
                        <th scope="row">{l.label}</th>
                        <td class="hide-narrow">{l.section}</td>
                        <td>{l.description}</td>
                        <td class="num">{money(l.amount)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Section>
          </>
        )}
      </Loaded>
      <Planner portfolioId={portfolioId} />
    </>
  );
}
