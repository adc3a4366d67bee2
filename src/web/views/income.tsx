import type { ChartConfiguration } from "chart.js";
import { IncomeForecast, type IncomeForecastQuery } from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { ChartCanvas, PALETTE } from "../charts";
import { date, money, month, percent, quantity, unitPrice } from "../format";
import { DataTable, HOLDING, type Column } from "../table";
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
        y: { stacked: true, ticks: { callback: (v) => money(String(v), f.currency).replace(/\.00$/, "") } },
      },
      plugins: {
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${money(String(c.parsed.y), f.currency)}` } },
      },
    },
  };
}

const monthColumns = (currency: string): Column<Forecast["months"][number]>[] => [
  { header: "Month", rowHeader: true, cell: (m) => month(m.month) },
  { header: "Cash", numeric: true, cell: (m) => money(m.cash, currency) },
  { header: "Franking credits", numeric: true, cell: (m) => money(m.frankingCredits, currency) },
];

const paymentColumns = (currency: string): Column<Forecast["payments"][number]>[] => [
  { header: "Paid", cell: (p) => date(p.paidDate) },
  HOLDING,
  { header: "Per unit", numeric: true, hideNarrow: true, cell: (p) => unitPrice(p.perUnit, p.currencyCode) },
  { header: "Units", numeric: true, cell: (p) => quantity(p.units) },
  { header: "Cash", numeric: true, cell: (p) => money(p.cash, currency) },
  { header: "Franking", numeric: true, cell: (p) => money(p.frankingCredits, currency) },
  { header: "Basis", hideNarrow: true, cell: (p) => p.basis },
];

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
              <DataTable
                compact
                caption="Projected income by month"
                columns={monthColumns(f.currency)}
                rows={f.months}
                rowKey={(m) => m.month}
              />
            </details>
          </Section>
          <Section title={`Payments (${f.payments.length})`}>
            <DataTable
              id="payments"
              caption="Projected payments"
              columns={paymentColumns(f.currency)}
              rows={f.payments}
            />
          </Section>
        </>
      )}
    </Loaded>
  );
}
