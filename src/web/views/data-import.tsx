import { useState } from "preact/hooks";
import {
  ImportTrades,
  type ImportTradesMutation,
  type MarketDataStatusQuery,
} from "../../../generated/graphql/web-operations";
import { ApiError, gql } from "../api";
import { ErrorNote, Section, Warnings } from "../ui";

/**
 * The Data view's import: a broker file read through the GraphQL import, in the format found from
 * its header or chosen, previewed (a dry run) before it is imported.
 */

type ImportResult = ImportTradesMutation["importTrades"];

/** A format the import reads, as the API lists it (Query.tradeImportFormats). */
type Format = MarketDataStatusQuery["tradeImportFormats"][number];

/**
 * An import's refusal in the page's words: the advice to give the format points to the Format
 * choice, and "(body): is not commsec (CommSec Transactions): Date,..." reads as the header that
 * format looks for. Anything worded otherwise is shown as the API gave it.
 */
function importError(error: Error): Error {
  if (!(error instanceof ApiError)) return error;
  const message = error.message.replace(
    /Send the file as exported, or give its format;.*$/,
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

export function Importer({ portfolios, formats }: { portfolios: { id: string; name: string }[]; formats: Format[] }) {
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
          {[{ id: "auto", name: "Found from the file's header" }, ...formats.filter((f) => f.media === "csv")].map(
            (f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ),
          )}
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
