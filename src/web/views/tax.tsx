import { useState } from "preact/hooks";
import {
  TaxPlanner,
  TaxYear,
  type TaxPlannerQuery,
  type TaxYearQuery,
} from "../../../generated/graphql/web-operations";
import { ApiError, downloadMyTaxPdf, gql } from "../api";
import { date, fyName, money, percent, quantity, signTone } from "../format";
import { currentFinancialYear } from "../periods";
import { DataTable, HOLDING, type Column } from "../table";
import { ErrorNote, Figure, Loaded, Section, useLoad, Warnings } from "../ui";

/**
 * A tax year at a glance (WEB.md: Tax): capital gains and disposals, the myTax labels and their
 * PDF, and the planner's harvest and wait-for-discount lists for the year in progress.
 */

const YEARS_SHOWN = 5;

const notFound = (error: Error) => error instanceof ApiError && error.code === "NOT_FOUND";

type Harvest = TaxPlannerQuery["taxPlanner"]["harvest"][number];
type WaitForDiscount = TaxPlannerQuery["taxPlanner"]["waitForDiscount"][number];
type Disposal = TaxYearQuery["capitalGainsReport"]["disposals"][number];
type MyTaxLabel = TaxYearQuery["myTaxReport"]["labels"][number];

const ACQUIRED: Column<{ acquisitionDate: string }> = {
  header: "Acquired",
  hideNarrow: true,
  cell: (x) => date(x.acquisitionDate),
};
const yesNo = (yes: boolean) => (yes ? "Yes" : "No");

const HARVEST_COLUMNS: Column<Harvest>[] = [
  HOLDING,
  ACQUIRED,
  { header: "Units", numeric: true, cell: (h) => quantity(h.quantity) },
  { header: "Loss", numeric: true, tone: () => "neg", cell: (h) => money(h.unrealisedLoss) },
  { header: "Net gain reduced by", numeric: true, cell: (h) => money(h.netCapitalGainReduction) },
  { header: "Wash-sale risk", cell: (h) => yesNo(h.washSaleRisk) },
];

const WAIT_COLUMNS: Column<WaitForDiscount>[] = [
  HOLDING,
  ACQUIRED,
  { header: "Discount from", cell: (w) => date(w.discountEligibleFrom) },
  { header: "Days", numeric: true, cell: (w) => w.daysToWait },
  { header: "Gain now", numeric: true, cell: (w) => money(w.gainIfSoldNow) },
  { header: "Gain if held", numeric: true, cell: (w) => money(w.gainIfSoldWhenEligible) },
];

const DISPOSAL_COLUMNS: Column<Disposal>[] = [
  HOLDING,
  ACQUIRED,
  { header: "Disposed", cell: (x) => date(x.disposalDate) },
  { header: "Units", numeric: true, cell: (x) => quantity(x.quantity) },
  { header: "Cost base", numeric: true, cell: (x) => money(x.costBase) },
  { header: "Proceeds", numeric: true, cell: (x) => money(x.proceeds) },
  { header: "Gain", numeric: true, tone: (x) => signTone(x.capitalGain), cell: (x) => money(x.capitalGain) },
  { header: "Discount", cell: (x) => yesNo(x.isDiscountable) },
];

const LABEL_COLUMNS: Column<MyTaxLabel>[] = [
  { header: "Label", rowHeader: true, cell: (l) => l.label },
  { header: "Section", hideNarrow: true, cell: (l) => l.section },
  { header: "What", cell: (l) => l.description },
  { header: "Amount", numeric: true, cell: (l) => money(l.amount) },
];

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
          <DataTable
            id="harvest"
            caption="Parcels at a loss that could be sold before the year ends"
            columns={HARVEST_COLUMNS}
            rows={t.harvest}
            empty="No open parcel is at a loss."
          />
          <h3>Gains to wait for the discount ({t.waitForDiscount.length})</h3>
          <DataTable
            id="wait-for-discount"
            caption="Parcels at a gain that become discountable"
            columns={WAIT_COLUMNS}
            rows={t.waitForDiscount}
            empty="No parcel at a gain is short of its discount date."
          />
          <Warnings messages={t.warnings.map((w) => w.message)} />
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
          id="mytax-pdf"
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
              <DataTable
                id="disposals"
                caption="CGT events parcel by parcel"
                columns={DISPOSAL_COLUMNS}
                rows={cg.disposals}
                empty="No CGT event in this year."
              />
            </Section>
            <Section title={`myTax labels, ${fyName(mt.financialYear)}`} id="mytax">
              <DataTable
                id="mytax-labels"
                caption="ATO myTax labels and amounts"
                columns={LABEL_COLUMNS}
                rows={mt.labels}
                rowKey={(l) => l.label}
              />
            </Section>
          </>
        )}
      </Loaded>
      {/* A portfolio that is not there is said once, by the year's report above. */}
      {!(load.state === "error" && notFound(load.error)) && <Planner portfolioId={portfolioId} />}
    </>
  );
}
