import { useEffect, useRef, useState } from "preact/hooks";
import {
  ImportTrades,
  MarketDataStatus,
  RefreshMarketData,
  type ImportTradesMutation,
  type MarketDataStatusQuery,
} from "../../../generated/graphql/web-operations";
import { ApiError, gql } from "../api";
import { date, dateTime, unitPrice } from "../format";
import { DataTable, type Column } from "../table";
import { ErrorNote, Loaded, Section, useLoad, Warnings } from "../ui";

/**
 * Market data and imports (WEB.md: Data): the refresh's status with a button to run it, and a
 * broker file read through the GraphQL import, previewed (a dry run) before it is imported.
 */

type ImportResult = ImportTradesMutation["importTrades"];
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

/** The CSV formats the import reads (TradeImportInput.format), as the API names them. */
const FORMATS = [
  { id: "auto", name: "Found from the file's header" },
  { id: "native", name: "This service's own columns" },
  { id: "commsec", name: "CommSec Transactions" },
  { id: "commsec-summary", name: "CommSec Transaction Summary" },
  { id: "commsec-confirmations", name: "CommSec Confirmations" },
  { id: "selfwealth", name: "SelfWealth Movements" },
  { id: "sharesight", name: "Sharesight trades" },
  { id: "ibkr-flex", name: "Interactive Brokers Flex Query (Trades)" },
  { id: "ibkr-activity", name: "Interactive Brokers Activity Statement" },
];

/**
 * An import's refusal in the page's words: the REST-only advice (?format=) points to the Format
 * choice, and "(body): is not commsec (CommSec Transactions): Date,..." reads as the header that
 * format looks for. Anything worded otherwise is shown as the API gave it.
 */
function importError(error: Error): Error {
  if (!(error instanceof ApiError)) return error;
  const message = error.message.replace(
    /Send the file as exported, or name the format with \?format=;.*$/,
    "Choose the file as your broker exported it, or pick its format under Format. The header row each format looks for:",
  );
  const details = error.details.map((d) => {
    const m = /^\(body\): is not [\w-]+ \((.+?)\): (.*)$/.exec(d);
    if (m) return `${m[1]}: ${m[2].split(",").join(", ")}`;
    return d.replace(/^line (\d+)/, "Line $1").replace(/^\(body\): /, "");
  });
  return new ApiError(message, details, error.code);
}

function ImportSummary({ r }: { r: ImportResult }) {
  return (
    <div class="card inset" id="import-result" aria-live="polite">
      <h3>{r.dryRun ? "Preview" : "Imported"}</h3>
      <p>
        Read as <strong>{r.format}</strong>: {r.valid} trade(s) {r.dryRun ? "would be" : "were"} imported
        {r.skipped.length ? `, ${r.skipped.length} skipped as duplicates` : ""}
        {r.ignored.length ? `, ${r.ignored.length} row(s) that are not trades ignored` : ""}.
      </p>
      {r.newHoldings.length > 0 && (
        <p>New holdings: {r.newHoldings.map((h) => `${h.symbol}.${h.exchange}`).join(", ")}</p>
      )}
      <Warnings messages={r.warnings} />
      {r.ignored.length > 0 && (
        <details>
          <summary>Ignored rows</summary>
          <ul>
            {r.ignored.map((x) => (
              <li key={x.line}>
                Line {x.line}: {x.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function Importer({ portfolios }: { portfolios: { id: string; name: string }[] }) {
  const [portfolioId, setPortfolioId] = useState(portfolios[0]?.id ?? "");
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [format, setFormat] = useState("auto");
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    gql(ImportTrades, { id: portfolioId, input: { csv: file.text, format, dryRun, duplicates: "skip" } })
      .then(
        (d) => setResult(d.importTrades),
        (e: Error) => (setResult(null), setError(importError(e))),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Section title="Import a broker file" id="import">
      <p class="help">
        A CSV export from CommSec, SelfWealth, Sharesight or Interactive Brokers, or this service's own columns: the
        format is found from its header, or choose it under Format. Preview first; nothing is written until you import.
      </p>
      <div class="form-grid">
        <label for="import-portfolio">Portfolio</label>
        <select
          id="import-portfolio"
          value={portfolioId}
          onChange={(e) => (setPortfolioId(e.currentTarget.value), setResult(null))}
        >
          {portfolios.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <label for="import-file">Broker file (CSV)</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={async (e) => {
            const f = e.currentTarget.files?.[0];
            setResult(null);
            setError(null);
            setFile(f ? { name: f.name, text: await f.text() } : null);
          }}
        />
        <label for="import-format">Format</label>
        <select
          id="import-format"
          value={format}
          onChange={(e) => (setFormat(e.currentTarget.value), setResult(null), setError(null))}
        >
          {FORMATS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      <div class="toolbar">
        <button type="button" disabled={!file || busy} onClick={() => run(true)}>
          Preview
        </button>
        <button type="button" disabled={!file || busy || !result?.dryRun} onClick={() => run(false)}>
          Import
        </button>
      </div>
      {error && <ErrorNote error={error} />}
      {result && <ImportSummary r={result} />}
    </Section>
  );
}

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
        {({ marketDataStatus: s, portfolios }) => (
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
            <Importer portfolios={portfolios} />
          </>
        )}
      </Loaded>
    </>
  );
}
