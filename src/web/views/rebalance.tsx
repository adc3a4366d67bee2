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
import { date, decimal, money, percent, quantity } from "../format";
import { DataTable, HOLDING, type Column } from "../table";
import { Figure, Loaded, Section, useLoad, Warnings } from "../ui";

/**
 * The active model's drift against its tolerance band, and the legs that bring the portfolio back
 * for a cash amount and a mode (WEB.md: Rebalance). computeRebalance writes nothing.
 */

type Result = ComputeRebalanceMutation["computeRebalance"];

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

const driftColumns = (cur: string): Column<Result["driftReport"]["entries"][number]>[] => [
  { header: "Bucket", rowHeader: true, cell: (e) => e.label },
  { header: "Value", numeric: true, hideNarrow: true, cell: (e) => money(e.currentValue, cur) },
  { header: "Held", numeric: true, cell: (e) => percent(e.currentPct) },
  { header: "Target", numeric: true, cell: (e) => percent(e.targetPct) },
  { header: "Band", numeric: true, hideNarrow: true, cell: (e) => `±${percent(e.tolerancePct)}` },
  { header: "Drift", numeric: true, cell: (e) => percent(e.driftPct) },
  // Shown on a phone too: the chart's colours are not the only sign of a bucket out of band.
  { header: "Status", cell: (e) => (e.status === "InBand" ? "In band" : e.status) },
];

const legColumns = (cur: string): Column<Result["legs"][number]>[] => [
  { header: "Side", tone: (l) => (l.side === "Sell" ? "neg" : "pos"), cell: (l) => l.side },
  HOLDING,
  { header: "Bucket", hideNarrow: true, cell: (l) => l.label },
  { header: "Units", numeric: true, cell: (l) => quantity(l.quantity) },
  // In the security's own currency, with every decimal the valuation has (not rounded as money).
  { header: "Price", numeric: true, hideNarrow: true, cell: (l) => `${l.currencyCode} ${decimal(l.price)}` },
  { header: "Value", numeric: true, cell: (l) => money(l.value, cur) },
];

/** `cur`: the portfolio's base currency, which the rebalance's values and cash are in. */
function Outcome({ r, cur }: { r: Result; cur: string }) {
  return (
    <>
      <Section title="Drift against the model" id="drift">
        <p class="help">
          As of {date(r.asOf)}: {r.driftReport.outOfBandCount} bucket(s) out of band, largest drift{" "}
          {percent(r.driftReport.maxDriftPct)}.
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
          <Figure label="Portfolio value" value={money(r.totalValue, cur)} />
          <Figure label="Cash available" value={money(r.cashAvailable, cur)} />
          <Figure label="Cash left after the trades" value={money(r.cashRemaining, cur)} />
        </dl>
        <DataTable
          id="legs-table"
          caption="Trades that bring the portfolio back to the model"
          columns={legColumns(cur)}
          rows={r.legs}
          empty="No trade is needed."
        />
        <Warnings messages={r.warnings.map((w) => w.message)} />
      </Section>
    </>
  );
}

export function RebalanceView({ portfolioId }: { portfolioId: string }) {
  const [cash, setCash] = useState("10000");
  const [mode, setMode] = useState<RebalanceMode>("BuyOnly");
  const [asked, setAsked] = useState<{ cash: string; mode: RebalanceMode }>({ cash: "10000", mode: "BuyOnly" });
  const [model] = useLoad(() => gql(ActiveModel, { id: portfolioId }), [portfolioId]);
  const [result] = useLoad(
    () =>
      gql(ComputeRebalance, {
        id: portfolioId,
        input: { cashToInvest: asked.cash.trim() || "0", mode: asked.mode },
      }),
    [portfolioId, asked],
  );
  // The base currency the cash and every value are in: known once the portfolio has loaded.
  const cur = model.state === "ok" ? model.data.portfolio?.baseCurrencyCode : undefined;
  return (
    <>
      <h1>Rebalance</h1>
      <Loaded load={model} what="the allocation model">
        {({ activeAllocationModel: m }) =>
          m ? (
            <p class="help">
              Active model <strong>{m.name}</strong>, by {m.dimension}: {m.buckets.length} bucket(s).
            </p>
          ) : (
            <p>This portfolio has no active allocation model.</p>
          )
        }
      </Loaded>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ cash, mode });
        }}
      >
        <span class="field">
          <label for="cash-to-invest">Cash to invest{cur ? ` (${cur})` : ""}</label>
          <input
            id="cash-to-invest"
            inputMode="decimal"
            pattern="[0-9]+(\.[0-9]{1,2})?"
            value={cash}
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
      {cur && (
        <Loaded load={result} what="the rebalance">
          {({ computeRebalance: r }) => <Outcome r={r} cur={cur} />}
        </Loaded>
      )}
    </>
  );
}
