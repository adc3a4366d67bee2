import { useState } from "preact/hooks";
import {
  ImportTrades,
  MarketDataStatus,
  RefreshMarketData,
  type ImportTradesMutation,
  type MarketDataStatusQuery,
} from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { date, dateTime } from "../format";
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
  lastAttemptAt: string | null;
  lastError: string | null;
};

const sources = (s: Status): Source[] => [
  ...s.securities.map((x) => ({ ...x, name: `${x.symbol}.${x.exchange}`, lastDate: x.lastPriceDate })),
  ...s.exchangeRates.map((x) => ({
    name: `${x.base}/${x.quote}`,
    providerSymbol: null,
    lastDate: x.lastRateDate,
    lastAttemptAt: null,
    lastError: x.lastError,
  })),
];

const SOURCE_COLUMNS: Column<Source>[] = [
  { header: "Security", rowHeader: true, cell: (x) => x.name },
  { header: "Provider symbol", cell: (x) => x.providerSymbol ?? "—" },
  { header: "Last price", cell: (x) => date(x.lastDate) },
  { header: "Last attempt", cell: (x) => dateTime(x.lastAttemptAt) },
  { header: "Error", cell: (x) => x.lastError ?? "" },
];

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
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    gql(ImportTrades, { id: portfolioId, input: { csv: file.text, dryRun, duplicates: "skip" } })
      .then(
        (d) => setResult(d.importTrades),
        (e: Error) => (setResult(null), setError(e)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Section title="Import a broker file" id="import">
      <p class="help">
        A CSV export from CommSec, SelfWealth, Sharesight or Interactive Brokers, or this service's own columns: the
        format is found from its header. Preview first; nothing is written until you import.
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

export function DataView() {
  // Reloaded after a refresh: the status stays on screen meanwhile, and the file chosen below with it.
  const [load, reload] = useLoad(() => gql(MarketDataStatus, {}), [], "status");
  const [refresh, setRefresh] = useState<{ message: string; error?: Error } | null>(null);
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
                  onClick={() => {
                    setRefresh({ message: "Starting a refresh…" });
                    gql(RefreshMarketData, {}).then(
                      (d) => {
                        setRefresh({ message: `Refresh run ${d.refreshMarketData.runId} started.` });
                        setTimeout(reload, 1500);
                      },
                      (error: Error) => setRefresh({ message: "", error }),
                    );
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
                rows={sources(s)}
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
