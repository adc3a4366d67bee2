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
import { Figure, Loaded, Section, useLoad } from "../ui";

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

function Outcome({ r }: { r: Result }) {
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
        <div class="table-wrap">
          <table id="drift-table">
            <caption class="sr-only">Drift by bucket</caption>
            <thead>
              <tr>
                <th scope="col">Bucket</th>
                <th scope="col" class="num hide-narrow">
                  Value
                </th>
                <th scope="col" class="num">
                  Held
                </th>
                <th scope="col" class="num">
                  Target
                </th>
                <th scope="col" class="num hide-narrow">
                  Band
                </th>
                <th scope="col" class="num">
                  Drift
                </th>
                <th scope="col" class="hide-narrow">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {r.driftReport.entries.map((e) => (
                <tr key={e.label}>
                  <th scope="row">{e.label}</th>
                  <td class="num hide-narrow">{money(e.currentValue)}</td>
                  <td class="num">{percent(e.currentPct)}</td>
                  <td class="num">{percent(e.targetPct)}</td>
                  <td class="num hide-narrow">±{percent(e.tolerancePct)}</td>
                  <td class="num">{percent(e.driftPct)}</td>
                  <td class="hide-narrow">{e.status === "InBand" ? "In band" : e.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      <Section title={`Trades (${r.legs.length})`} id="legs">
        <dl class="figures">
          <Figure label="Portfolio value" value={money(r.totalValue)} />
          <Figure label="Cash available" value={money(r.cashAvailable)} />
          <Figure label="Cash left after the trades" value={money(r.cashRemaining)} />
        </dl>
        {r.legs.length === 0 ? (
          <p>No trade is needed.</p>
        ) : (
          <div class="table-wrap">
            <table id="legs-table">
              <caption class="sr-only">Trades that bring the portfolio back to the model</caption>
              <thead>
                <tr>
                  <th scope="col">Side</th>
                  <th scope="col">Holding</th>
                  <th scope="col" class="hide-narrow">
                    Bucket
                  </th>
                  <th scope="col" class="num">
                    Units
                  </th>
                  <th scope="col" class="num hide-narrow">
                    Price
                  </th>
                  <th scope="col" class="num">
                    Value
                  </th>
                </tr>
              </thead>
              <tbody>
                {r.legs.map((l, i) => (
                  <tr key={i}>
                    <td class={l.side === "Sell" ? "neg" : "pos"}>{l.side}</td>
                    <th scope="row">
                      {l.symbol}.{l.exchange}
                    </th>
                    <td class="hide-narrow">{l.label}</td>
                    <td class="num">{quantity(l.quantity)}</td>
                    <td class="num hide-narrow">{unitPrice(l.price)}</td>
                    <td class="num">{money(l.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {r.warnings.length > 0 && (
          <ul class="warnings">
            {r.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
        )}
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
          <label for="cash-to-invest">Cash to invest (AUD)</label>
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
      <Loaded load={result} what="the rebalance">
        {({ computeRebalance: r }) => <Outcome r={r} />}
      </Loaded>
    </>
  );
}
