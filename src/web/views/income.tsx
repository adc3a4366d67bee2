import type { ChartConfiguration } from "chart.js";
import { IncomeForecast, type IncomeForecastQuery } from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { ChartCanvas, PALETTE } from "../charts";
import { date, money, month, percent, quantity, unitPrice } from "../format";
import { Figure, Loaded, Section, useLoad } from "../ui";

/** The next twelve months of projected income by month, with franking credits (WEB.md: Income). */

type Forecast = IncomeForecastQuery["incomeForecast"];

function monthsChart(f: Forecast): ChartConfiguration<"bar"> {
  return {
    type: "bar",
    data: {
      labels: f.months.map((m) => month(m.month)),
      datasets: [
        { label: "Cash", data: f.months.map((m) => Number(m.cash)), backgroundColor: PALETTE[0] },
        {
          label: "Franking credits",
          data: f.months.map((m) => Number(m.frankingCredits)),
          backgroundColor: PALETTE[1],
        },
      ],
    },
    options: {
      scales: {
        x: { stacked: true, ticks: { maxRotation: 0, autoSkip: true } },
        y: { stacked: true, ticks: { callback: (v) => money(String(v)).replace(/\.00$/, "") } },
      },
      plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${money(String(c.parsed.y))}` } } },
    },
  };
}

export function IncomeView({ portfolioId }: { portfolioId: string }) {
  const [load] = useLoad(() => gql(IncomeForecast, { id: portfolioId }), [portfolioId]);
  return (
    <Loaded load={load} what="the income forecast">
      {({ portfolio, incomeForecast: f }) => (
        <>
          <h1>Income forecast{portfolio ? `: ${portfolio.name}` : ""}</h1>
          <p class="help">
            {date(f.from)} to {date(f.to)}: the last twelve months' income repeated on the units held now, with
            announced dividends in place of their twins.
          </p>
          <dl class="figures headline">
            <Figure label="Cash income" id="forecast-total" value={money(f.total.cash, f.currency)} />
            <Figure label="Franking credits" value={money(f.total.frankingCredits, f.currency)} />
            <Figure label="Grossed-up" value={money(f.total.grossedUp, f.currency)} />
            <Figure label="Yield" value={percent(f.yieldPercent)} />
          </dl>
          <Section title="By month">
            <ChartCanvas
              id="income-chart"
              config={monthsChart(f)}
              label={`Projected income by month, ${date(f.from)} to ${date(f.to)}: ${money(f.total.cash, f.currency)} cash and ${money(f.total.frankingCredits, f.currency)} franking credits.`}
            />
            <details>
              <summary>The figures by month</summary>
              <div class="table-wrap">
                <table class="compact">
                  <caption class="sr-only">Projected income by month</caption>
                  <thead>
                    <tr>
                      <th scope="col">Month</th>
                      <th scope="col" class="num">
                        Cash
                      </th>
                      <th scope="col" class="num">
                        Franking credits
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {f.months.map((m) => (
                      <tr key={m.month}>
                        <th scope="row">{month(m.month)}</th>
                        <td class="num">{money(m.cash, f.currency)}</td>
                        <td class="num">{money(m.frankingCredits, f.currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </Section>
          <Section title={`Payments (${f.payments.length})`}>
            <div class="table-wrap">
              <table id="payments">
                <caption class="sr-only">Projected payments</caption>
                <thead>
                  <tr>
                    <th scope="col">Paid</th>
                    <th scope="col">Holding</th>
                    <th scope="col" class="num hide-narrow">
                      Per unit
                    </th>
                    <th scope="col" class="num">
                      Units
                    </th>
                    <th scope="col" class="num">
                      Cash
                    </th>
                    <th scope="col" class="num">
                      Franking
                    </th>
                    <th scope="col" class="hide-narrow">
                      Basis
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {f.payments.map((p, i) => (
                    <tr key={i}>
                      <td>{date(p.paidDate)}</td>
                      <th scope="row">
                        {p.symbol}.{p.exchange}
                      </th>
                      <td class="num hide-narrow">{unitPrice(p.perUnit, p.currencyCode)}</td>
                      <td class="num">{quantity(p.units)}</td>
                      <td class="num">{money(p.cash, f.currency)}</td>
                      <td class="num">{money(p.frankingCredits, f.currency)}</td>
                      <td class="hide-narrow">{p.basis}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Section>
        </>
      )}
    </Loaded>
  );
}
