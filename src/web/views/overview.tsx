import type { ChartConfiguration } from "chart.js";
import { useState } from "preact/hooks";
import { Overview, type OverviewQuery } from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { ChartCanvas, PALETTE } from "../charts";
import { HoldingsTable } from "./holdings-table";
import { date, money, month, negative, percent, signTone } from "../format";
import { intervalFor, monthStarts, RANGES, rangeDates, type RangeId } from "../periods";
import { DataTable, type Column } from "../table";
import { Figure, Loaded, Section, useLoad } from "../ui";

/**
 * A portfolio at a glance (WEB.md: Overview): value and net invested over a financial-year range,
 * the return split, the three return methods side by side, the allocation donut and the holdings.
 */

const GROUPS = [
  { id: "assetClass", label: "Asset class" },
  { id: "sector", label: "Sector" },
  { id: "currency", label: "Currency" },
] as const;

function valueChart(points: OverviewQuery["portfolioTimeseries"], currency: string): ChartConfiguration<"line"> {
  const starts = monthStarts(points.map((p) => p.date));
  return {
    type: "line",
    data: {
      labels: points.map((p) => date(p.date)),
      datasets: [
        {
          label: "Value",
          data: points.map((p) => Number(p.totalValue)),
          borderColor: PALETTE[0],
          backgroundColor: "rgba(0, 114, 178, 0.12)",
          fill: true,
          pointRadius: 0,
          borderWidth: 2,
        },
        {
          label: "Net invested",
          data: points.map((p) => Number(p.netInvested)),
          borderColor: PALETTE[1],
          borderDash: [6, 4],
          pointRadius: 0,
          borderWidth: 2,
          stepped: true,
        },
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: {
        // Month and year on the axis (the tooltip has the day), one tick at each month's first
        // point; Chart.js then skips some evenly where they would crowd (a phone, a long range).
        x: {
          afterBuildTicks: (scale) => {
            scale.ticks = starts.map((i) => ({ value: i }));
          },
          ticks: {
            maxTicksLimit: 6,
            autoSkipPadding: 24,
            maxRotation: 0,
            callback: (value) => month(points[Number(value)].date),
          },
        },
        y: { ticks: { callback: (v) => money(String(v), currency).replace(/\.00$/, "") } },
      },
      plugins: {
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${money(String(c.parsed.y), currency)}` } },
      },
    },
  };
}

type Group = NonNullable<OverviewQuery["allocation"]["groups"]>[number];

function donutChart(groups: Group[]): ChartConfiguration<"doughnut"> {
  return {
    type: "doughnut",
    data: {
      labels: groups.map((g) => g.label),
      datasets: [
        {
          data: groups.map((g) => g.weight),
          backgroundColor: groups.map((_, i) => PALETTE[i % PALETTE.length]),
          borderColor: "#ffffff",
        },
      ],
    },
    options: {
      cutout: "60%",
      plugins: {
        legend: { position: "bottom" },
        tooltip: { callbacks: { label: (c) => `${c.label}: ${percent(c.parsed as number)}` } },
      },
    },
  };
}

/** A part of the total return: its amount and its percentage. */
type ReturnPart = { label: string; value: string; percent: number | null };

const splitColumns = (currency: string): Column<ReturnPart>[] => [
  { header: "Part", rowHeader: true, cell: (x) => x.label },
  {
    header: "Amount",
    numeric: true,
    tone: (x) => (negative(x.value) ? "neg" : undefined),
    cell: (x) => money(x.value, currency),
  },
  { header: "Percent", numeric: true, cell: (x) => percent(x.percent) },
];

type ReturnMethod = { method: string; cumulativePercent: number | null; annualisedPercent: number | null };

const METHOD_COLUMNS: Column<ReturnMethod>[] = [
  { header: "Method", rowHeader: true, cell: (m) => m.method },
  { header: "Cumulative", numeric: true, cell: (m) => percent(m.cumulativePercent) },
  { header: "Annualised", numeric: true, cell: (m) => percent(m.annualisedPercent) },
];

type Point = OverviewQuery["portfolioTimeseries"][number];
const pointColumns = (currency: string): Column<Point>[] => [
  { header: "Date", rowHeader: true, cell: (x) => date(x.date) },
  { header: "Value", numeric: true, cell: (x) => money(x.totalValue, currency) },
  { header: "Net invested", numeric: true, cell: (x) => money(x.netInvested, currency) },
];

const allocationColumns = (currency: string): Column<Group>[] => [
  { header: "Group", rowHeader: true, cell: (g) => g.label },
  { header: "Value", numeric: true, cell: (g) => money(g.marketValue, currency) },
  { header: "Weight", numeric: true, cell: (g) => percent(g.weight) },
];

export function OverviewView({ portfolioId }: { portfolioId: string }) {
  const [range, setRange] = useState<RangeId>("all");
  const [groupBy, setGroupBy] = useState<string>("assetClass");
  const [load] = useLoad(
    // The answer carries the grouping it was asked for: the labels must not run ahead of the data.
    () =>
      gql(Overview, { id: portfolioId, ...rangeDates(range), interval: intervalFor(range), groupBy }).then((d) => ({
        ...d,
        groupBy,
      })),
    [portfolioId, range, groupBy],
    portfolioId, // another range or grouping of the same portfolio: the controls stay, with the focus
  );
  return (
    <Loaded load={load} what="the overview">
      {(d) => {
        if (!d.portfolio) return <p>There is no such portfolio.</p>;
        const cur = d.portfolio.baseCurrencyCode;
        const p = d.performance;
        const r = p.totalReturn;
        return (
          <>
            <h1>{d.portfolio.name}</h1>
            <dl class="figures headline">
              <Figure label="Value" id="total-value" value={money(p.totalValue, cur)} />
              <Figure label="Opening value" value={money(p.openingValue, cur)} />
              <Figure label="Net flows" value={money(p.netFlows, cur)} />
              {/* The amount is the whole period's: beside it, the cumulative Modified Dietz percentage
                  (totalReturnPercent is annualised from a year on). */}
              <Figure
                label="Total return"
                id="total-return"
                value={`${money(r.totalReturnValue, cur)} (${percent(p.modifiedDietz.cumulativePercent)})`}
                tone={signTone(r.totalReturnValue)}
              />
            </dl>
            <Section title="Value and net invested" id="value-chart-section">
              <fieldset class="segmented">
                <legend>Range</legend>
                {RANGES.map((x) => (
                  <label key={x.id}>
                    <input
                      type="radio"
                      name="range"
                      value={x.id}
                      checked={range === x.id}
                      onChange={() => setRange(x.id)}
                    />
                    <span>{x.label}</span>
                  </label>
                ))}
              </fieldset>
              <p class="help">
                {date(p.from)} to {date(p.to)}
              </p>
              <ChartCanvas
                id="value-chart"
                config={valueChart(d.portfolioTimeseries, cur)}
                label={`Value and net invested from ${date(p.from)} to ${date(p.to)}: value ${money(p.totalValue, cur)} at the end.`}
              />
              <details>
                <summary>The figures by date</summary>
                <DataTable
                  compact
                  id="value-points"
                  caption="Value and net invested by date"
                  columns={pointColumns(cur)}
                  rows={d.portfolioTimeseries}
                  rowKey={(x) => x.date}
                />
              </details>
            </Section>
            <div class="grid two">
              <Section title="Where the return came from">
                <DataTable
                  compact
                  headless
                  caption="Total return split into capital, dividends and currency"
                  columns={splitColumns(cur)}
                  rows={[
                    { label: "Capital", value: r.capitalGainValue, percent: r.capitalGainPercent },
                    { label: "Dividends", value: r.dividendReturnValue, percent: r.dividendReturnPercent },
                    { label: "Currency", value: r.currencyGainValue, percent: r.currencyGainPercent },
                  ]}
                  rowKey={(x) => x.label}
                  total={{ label: "Total", value: r.totalReturnValue, percent: r.totalReturnPercent }}
                />
                {r.isAnnualized && (
                  <p class="help">
                    Percentages are a year's (annualised); the total return above is the whole period's.
                  </p>
                )}
              </Section>
              <Section title="Return methods">
                <DataTable
                  compact
                  id="return-methods"
                  caption="Time-weighted, money-weighted and Modified Dietz returns"
                  columns={METHOD_COLUMNS}
                  rows={[
                    { method: "TWR", ...p.timeWeightedReturn },
                    { method: "XIRR", ...p.moneyWeightedReturn, cumulativePercent: null },
                    { method: "Modified Dietz", ...p.modifiedDietz },
                  ]}
                  rowKey={(m) => m.method}
                />
              </Section>
            </div>
            <Section title="Allocation" id="allocation">
              <label for="group-by">Group by</label>{" "}
              <select id="group-by" value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value)}>
                {GROUPS.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.label}
                  </option>
                ))}
              </select>
              <div class="donut-row">
                <ChartCanvas
                  id="allocation-chart"
                  height={260}
                  config={donutChart(d.allocation.groups ?? [])}
                  label={`Allocation by ${GROUPS.find((g) => g.id === d.groupBy)?.label.toLowerCase()}: ${(d.allocation.groups ?? []).map((g) => `${g.label} ${percent(g.weight)}`).join(", ")}`}
                />
                <DataTable
                  compact
                  headless
                  caption="Allocation"
                  columns={allocationColumns(cur)}
                  rows={d.allocation.groups ?? []}
                  rowKey={(g) => g.label}
                />
              </div>
            </Section>
            <Section title={`Holdings (${p.holdings.length})`} id="holdings">
              <p class="help" id="holdings-return-help">
                Return is from {date(p.from)} to {date(p.to)}: the change in value plus dividends and other income,
                after money put in or taken out. It is not the unrealised gain the Tax page shows.
                {r.isAnnualized ? " Return a year is that return annualised (Modified Dietz)." : ""}
              </p>
              <HoldingsTable
                holdings={p.holdings}
                currency={cur}
                period={`${date(p.from)} to ${date(p.to)}`}
                annualised={r.isAnnualized}
              />
            </Section>
          </>
        );
      }}
    </Loaded>
  );
}
