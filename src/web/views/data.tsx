import { useEffect, useRef, useState } from "preact/hooks";
import {
  MarketDataStatus,
  RefreshMarketData,
  type MarketDataStatusQuery,
} from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { date, dateTime, unitPrice } from "../format";
import { DataTable, type Column } from "../table";
import { ErrorNote, Loaded, Section, useLoad } from "../ui";
import { Importer } from "./data-import";

/**
 * Market data and imports (WEB.md: Data): the refresh's status with a button to run it, and a
 * broker file read through the GraphQL import (./data-import.tsx).
 */

type Status = MarketDataStatusQuery["marketDataStatus"];

/** A security's prices or a pair's exchange rates: what the refresh last fetched of it. */
type Source = {
  name: string;
  providerSymbol: string | null;
  lastDate: string | null;
  /** The price on lastDate, as a holding of the security is valued at; null where none is. */
  lastPrice: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
};

type Holding = MarketDataStatusQuery["portfolios"][number]["holdings"][number];

const sources = (s: Status, holdings: Holding[]): Source[] => [
  ...s.securities.map((x) => {
    // The status has the date of the last close; a holding valued on that date has the close.
    const held = holdings.find(
      (h) => h.symbol === x.symbol && h.exchange === x.exchange && h.price !== null && h.priceDate === x.lastPriceDate,
    );
    return {
      ...x,
      name: `${x.symbol}.${x.exchange}`,
      lastDate: x.lastPriceDate,
      lastPrice: held ? unitPrice(held.price, held.currencyCode) : null,
    };
  }),
  ...s.exchangeRates.map((x) => ({
    name: `${x.base}/${x.quote}`,
    providerSymbol: null,
    lastDate: x.lastRateDate,
    lastPrice: null,
    lastAttemptAt: null,
    lastError: x.lastError,
  })),
];

const SOURCE_COLUMNS: Column<Source>[] = [
  { header: "Security", rowHeader: true, cell: (x) => x.name },
  { header: "Provider symbol", hideNarrow: true, cell: (x) => x.providerSymbol ?? "—" },
  {
    header: "Last price",
    nowrap: true,
    cell: (x) =>
      x.lastPrice && x.lastDate ? (
        <>
          <span class="symbol">{x.lastPrice}</span>
          <span class="when">{date(x.lastDate)}</span>
        </>
      ) : (
        date(x.lastDate)
      ),
  },
  { header: "Last attempt", cell: (x) => dateTime(x.lastAttemptAt) },
  { header: "Error", cell: (x) => x.lastError ?? "" },
];

/** How often, and how many times at most (two minutes), a refresh run is asked after until it ends. */
const POLL_MS = 1500;
const POLLS = 80;

/** A run that has ended, in words: how it went and what it wrote. */
function runOutcome(run: NonNullable<Status["lastRun"]>): string {
  const wrote = `${run.counts.prices} price(s) and ${run.counts.fxRates} rate(s) written`;
  const how = { Succeeded: "succeeded", Partial: "partly failed", Failed: "failed", Running: "is running" }[run.status];
  return `Refresh run ${run.runId} ${how}: ${wrote}${run.message ? `. ${run.message}` : "."}`;
}

export function DataView() {
  // Reloaded after a refresh: the status stays on screen meanwhile, and the file chosen below with it.
  const [load, reload] = useLoad(() => gql(MarketDataStatus, {}), [], "status");
  // `running`: a run was asked for and has not ended; the button waits for it.
  const [refresh, setRefresh] = useState<{ message: string; error?: Error; running?: boolean } | null>(null);
  // The poll of a run stops when the view goes.
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  /** Asks for the status until run `runId` has ended (at most POLLS times), then shows it. */
  const follow = async (runId: string) => {
    for (let i = 0; i < POLLS && live.current; i++) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (!live.current) return;
      const { marketDataStatus: s } = await gql(MarketDataStatus, {});
      const run = s.lastRun;
      if (run && run.runId === runId && run.status !== "Running") {
        setRefresh({ message: runOutcome(run) });
        reload();
        return;
      }
    }
    if (!live.current) return;
    setRefresh({ message: `Refresh run ${runId} has not ended after two minutes; the status below is the latest.` });
    reload();
  };
  return (
    <>
      <h1>Data</h1>
      <Loaded load={load} what="the market-data status">
        {({ marketDataStatus: s, portfolios, tradeImportFormats }) => (
          <>
            <Section title="Market data" id="market-data">
              <p class="help">
                Prices from <strong>{s.provider}</strong>, exchange rates from <strong>{s.fxProvider}</strong>; schedule{" "}
                <code>{s.schedule}</code>.
              </p>
              <div class="toolbar">
                <p id="last-run">
                  Last run:{" "}
                  {s.lastRun
                    ? `${s.lastRun.status}, started ${dateTime(s.lastRun.startedAt)} (${s.lastRun.trigger}); ${s.lastRun.counts.prices} price(s), ${s.lastRun.counts.fxRates} rate(s) written`
                    : "none yet"}
                </p>
                <button
                  type="button"
                  disabled={refresh?.running}
                  onClick={() => {
                    setRefresh({ message: "Starting a refresh…", running: true });
                    gql(RefreshMarketData, {})
                      .then((d) => {
                        const runId = d.refreshMarketData.runId;
                        setRefresh({ message: `Refresh run ${runId} started; waiting for it to end…`, running: true });
                        return follow(runId);
                      })
                      .catch((error: Error) => live.current && setRefresh({ message: "", error }));
                  }}
                >
                  Refresh now
                </button>
                <span role="status" class="help" id="refresh-status">
                  {refresh?.message}
                </span>
              </div>
              {refresh?.error && <ErrorNote error={refresh.error} />}
              <DataTable
                id="securities"
                caption="Each security's last price and error"
                columns={SOURCE_COLUMNS}
                rows={sources(
                  s,
                  portfolios.flatMap((p) => p.holdings),
                )}
                rowKey={(x) => x.name}
              />
            </Section>
            <Importer portfolios={portfolios} formats={tradeImportFormats} />
          </>
        )}
      </Loaded>
    </>
  );
}
