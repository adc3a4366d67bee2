import type { ChartConfiguration } from "chart.js";
import { useState } from "preact/hooks";
import {
  ActiveModel,
  ComputeRebalance,
  type ComputeRebalanceMutation,
  type RebalanceMode,
} from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { ChartCanvas, PALETTE } from "../charts";
import { date, money, percent, quantity, unitPrice } from "../format";
import { DataTable, HOLDING, type Column } from "../table";
import { Figure, Loaded, Section, useLoad, Warnings } from "../ui";

/**
 * The active model's drift against its tolerance band, and the legs that bring the portfolio back
 * for a cash amount and a mode (WEB.md: Rebalance). computeRebalance writes nothing.
 */

type Result = ComputeRebalanceMutation["computeRebalance"];
type Warning = Result["warnings"][number];

/** The dimensions a model's buckets run along (docs/reports.md §4.1), in words. */
const DIMENSIONS: Record<string, string> = {
  holding: "holding",
  assetClass: "asset class",
  sector: "sector",
  industry: "industry",
  currency: "currency",
  exchange: "exchange",
  holdingType: "holding type",
};
const dimensionName = (dimension: string) =>
  DIMENSIONS[dimension] ?? (dimension.startsWith("customGroup:") ? "custom group" : dimension);

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A warning in the page's words: its amounts as money, no API field names. The API's message
 * stands for a code this list does not know, or a message worded otherwise than expected.
 */
function warningText(w: Warning, cur: string): string {
  const m = w.message;
  let x: RegExpExecArray | null;
  switch (w.code) {
    case "WHOLE_UNITS_CASH":
      if ((x = /leave (-?[\d.]+) /.exec(m)))
        return `Buying whole units only leaves ${money(x[1], cur)} of the cash unspent (in the cash left after the trades).`;
      break;
    case "BELOW_MIN_TRADE":
      if ((x = /^(\w+) of (\S+) worth (-?[\d.]+) is below minTradeValue (-?[\d.]+)/.exec(m)))
        return `${x[1]} of ${x[2]} worth ${money(x[3], cur)} is below the smallest trade of ${money(x[4], cur)}: left out.`;
      break;
    case "NO_PRICE":
      if ((x = /^(\S+) has no price .* on (\d{4}-\d{2}-\d{2})/.exec(m)))
        return `${x[1]} has no price (or no exchange rate) on ${date(x[2])}: it is valued at nothing and not traded.`;
      break;
  }
  return m;
}

function driftChart(r: Result): ChartConfiguration<"bar"> {
  const entries = r.driftReport.entries;
  return {
    type: "bar",
    data: {
      labels: entries.map((e) => e.label),
      datasets: [
        {
          label: "Tolerance band",
          // Floating bars from −tolerance to +tolerance: the band the drift may move in.
          data: entries.map((e) => [-Number(e.tolerancePct), Number(e.tolerancePct)]) as unknown as number[],
          backgroundColor: "rgba(0, 158, 115, 0.18)",
          borderColor: PALETTE[2],
          borderWidth: 1,
          grouped: false,
          order: 2,
        },
        {
          label: "Drift (percentage points)",
          data: entries.map((e) => e.driftPct),
          backgroundColor: entries.map((e) => (e.status === "InBand" ? PALETTE[0] : PALETTE[1])),
          grouped: false,
          barPercentage: 0.5,
          order: 1,
        },
      ],
    },
    options: {
      indexAxis: "y",
      scales: { x: { ticks: { callback: (v) => `${v}%` } } },
      plugins: {
        tooltip: {
          callbacks: {
            label: (c) => {
              const e = entries[c.dataIndex];
              return c.datasetIndex === 0
                ? `Band ±${percent(e.tolerancePct)}`
                : `Drift ${percent(e.driftPct)} (${percent(e.currentPct)} held, ${percent(e.targetPct)} target)`;
            },
          },
        },
      },
    },
  };
}

const STATUS: Record<string, string> = { InBand: "In band", Over: "Over", Under: "Under", Untargeted: "No target" };

const driftColumns = (cur: string): Column<Result["driftReport"]["entries"][number]>[] => [
  { header: "Bucket", rowHeader: true, cell: (e) => e.label },
  // Beside the bucket, so a phone shows it without scrolling: the chart's colours are not the
  // only sign of a bucket out of band.
  { header: "Status", nowrap: true, cell: (e) => STATUS[e.status] ?? e.status },
  { header: "Value", numeric: true, hideNarrow: true, cell: (e) => money(e.currentValue, cur) },
  { header: "Held", numeric: true, cell: (e) => percent(e.currentPct) },
  { header: "Target", numeric: true, cell: (e) => percent(e.targetPct) },
  { header: "Band", numeric: true, hideNarrow: true, cell: (e) => `±${percent(e.tolerancePct)}` },
  { header: "Drift", numeric: true, cell: (e) => percent(e.driftPct) },
];

const legColumns = (cur: string): Column<Result["legs"][number]>[] => [
  { header: "Side", tone: (l) => (l.side === "Sell" ? "neg" : "pos"), cell: (l) => l.side },
  HOLDING,
  { header: "Bucket", hideNarrow: true, cell: (l) => l.label },
  { header: "Units", numeric: true, cell: (l) => quantity(l.quantity) },
  // In the security's own currency, with the decimals the valuation has (up to 6).
  { header: "Price", numeric: true, hideNarrow: true, cell: (l) => unitPrice(l.price, l.currencyCode) },
  { header: "Value", numeric: true, cell: (l) => money(l.value, cur) },
];

/**
 * `cur`: the portfolio's base currency, which the rebalance's values and cash are in. `cashCounted`:
 * whether the model has a Cash bucket, the only case the cash accounts count in (docs/reports.md §4.3).
 */
function Outcome({ r, cur, cashCounted }: { r: Result; cur: string; cashCounted: boolean }) {
  return (
    <>
      <Section title="Drift against the model" id="drift">
        <p class="help">
          As of {date(r.asOf)}, before any trade: {count(r.driftReport.outOfBandCount, "bucket", "buckets")} out of
          band, largest drift {percent(r.driftReport.maxDriftPct)}.
        </p>
        <ChartCanvas
          id="drift-chart"
          height={Math.max(200, 48 * r.driftReport.entries.length)}
          config={driftChart(r)}
          label={`Drift of each bucket against its tolerance band: ${r.driftReport.entries.map((e) => `${e.label} ${percent(e.driftPct)}`).join(", ")}`}
        />
        <DataTable
          id="drift-table"
          caption="Drift by bucket"
          columns={driftColumns(cur)}
          rows={r.driftReport.entries}
          rowKey={(e) => e.label}
        />
      </Section>
      <Section title={`Trades (${r.legs.length})`} id="legs">
        <dl class="figures">
          <Figure label="Value rebalanced" value={money(r.totalValue, cur)} />
          <Figure
            label={cashCounted ? "Cash accounts (the model's Cash bucket)" : "Cash accounts counted"}
            value={money(r.cashAvailable, cur)}
          />
          <Figure label="Cash left after the trades" value={money(r.cashRemaining, cur)} />
        </dl>
        <p class="help">
          The value rebalanced is the holdings
          {cashCounted ? ", the cash accounts" : ""} and the cash to invest.{" "}
          {cashCounted
            ? "The cash accounts count because the model has a Cash bucket."
            : "The model has no Cash bucket, so the cash accounts' balance is left out of it and is not spent."}
        </p>
        <DataTable
          id="legs-table"
          caption="Trades that bring the portfolio back to the model"
          columns={legColumns(cur)}
          rows={r.legs}
          empty="No trade is needed."
        />
        <Warnings messages={r.warnings.map((w) => warningText(w, cur))} />
      </Section>
    </>
  );
}

/**
 * The amount typed, as the API takes it ("10,000" and "$5000.50" read as 10000 and 5000.50);
 * null when it is not an amount of dollars and cents at least 0. Empty is 0.
 */
export function cashAmount(text: string): string | null {
  const bare = text.trim().replace(/^\$\s*/, "");
  if (bare === "") return "0";
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(bare)) return null;
  return bare.replace(/,/g, "");
}

export function RebalanceView({ portfolioId }: { portfolioId: string }) {
  // No cash by default: the first answer is today's drift, as GET /v1/drift and the overview have it.
  const [cash, setCash] = useState("0");
  const [mode, setMode] = useState<RebalanceMode>("BuyOnly");
  const [asked, setAsked] = useState<{ cash: string; mode: RebalanceMode }>({ cash: "0", mode: "BuyOnly" });
  const [refused, setRefused] = useState(false);
  const [model] = useLoad(() => gql(ActiveModel, { id: portfolioId }), [portfolioId]);
  const [result] = useLoad(
    () => gql(ComputeRebalance, { id: portfolioId, input: { cashToInvest: asked.cash, mode: asked.mode } }),
    [portfolioId, asked],
  );
  // The base currency the cash and every value are in: known once the portfolio has loaded.
  const cur = model.state === "ok" ? model.data.portfolio?.baseCurrencyCode : undefined;
  const buckets = model.state === "ok" ? (model.data.activeAllocationModel?.buckets ?? []) : [];
  const cashCounted = buckets.some((b) => b.label.toLowerCase() === "cash");
  return (
    <>
      <h1>Rebalance</h1>
      <Loaded load={model} what="the allocation model">
        {({ activeAllocationModel: m }) =>
          m ? (
            <p class="help">
              Active model <strong>{m.name}</strong>, by {dimensionName(m.dimension)}:{" "}
              {count(m.buckets.length, "bucket", "buckets")}.
            </p>
          ) : (
            <p>This portfolio has no active allocation model.</p>
          )
        }
      </Loaded>
      <form
        class="toolbar"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const amount = cashAmount(cash);
          setRefused(amount === null);
          if (amount !== null) setAsked({ cash: amount, mode });
        }}
      >
        <span class="field">
          <label for="cash-to-invest">Cash to invest{cur ? ` (${cur})` : ""}</label>
          <input
            id="cash-to-invest"
            inputMode="decimal"
            value={cash}
            aria-invalid={refused || undefined}
            aria-describedby="cash-to-invest-help"
            onInput={(e) => setCash(e.currentTarget.value)}
          />
        </span>
        <span class="field">
          <label for="rebalance-mode">Mode</label>
          <select id="rebalance-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as RebalanceMode)}>
            <option value="BuyOnly">Buy only</option>
            <option value="BuyAndSell">Buy and sell</option>
          </select>
        </span>
        <button type="submit">Compute trades</button>
      </form>
      {refused ? (
        <p class="error" role="alert" id="cash-to-invest-help">
          Cash to invest must be an amount in dollars and cents, such as 10000, 10,000.50 or $5000. The trades below are
          cleared until it is.
        </p>
      ) : (
        <p class="help" id="cash-to-invest-help">
          Cash to invest is new money you would add: the trades spend it on the buckets below their target. At 0 the
          drift is today's; with an amount, the drift is of the portfolio with that cash in it.
        </p>
      )}
      {cur && !refused && (
        <Loaded load={result} what="the rebalance">
          {({ computeRebalance: r }) => <Outcome r={r} cur={cur} cashCounted={cashCounted} />}
        </Loaded>
      )}
    </>
  );
}
