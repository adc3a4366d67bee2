import type { Prisma } from "../../../generated/prisma/client";
import { tooManyRows } from "../../lib/bulk";
import { DomainError } from "../../lib/domain-errors";
import { importFailed, MAX_IMPORT_ROWS, type ImportFormat, type ImportResult, type Row } from "./trades-import.rows";
import { CSV_COLUMNS, csvRows, REQUIRED_COLUMNS } from "./trades-import.csv";
import { US_EXCHANGE, columnKey, type BrokerTrade } from "./broker-formats/format";
import { readBrokerFile } from "./broker-formats/registry";

/**
 * What an import's body holds, as rows of the JSON import (docs/imports.md): a JSON array, this
 * service's CSV, or a broker's export (CSV text or an .xlsx workbook) in the format named or
 * found. Broker files also say which rows are not trades and what was derived.
 */
export interface ImportBody {
  rows: Row[];
  /** A broker's file: the file's column each field of a trade was read from. */
  fileColumns?: Row["fileColumns"];
  format: ImportResult["format"];
  ignored: ImportResult["ignored"];
  warnings: string[];
}

/** US exchanges a symbol may be listed on, for a broker file that names none. */
const US_EXCHANGES = ["NYSE", "NASDAQ", "NYSEARCA", "AMEX", "BATS", "OTC"];

export async function importBody(
  tx: Prisma.TransactionClient,
  scope: { accountId: number; portfolioId: number; baseCurrencyCode: string },
  body: unknown,
  format: ImportFormat,
): Promise<ImportBody> {
  const plain = { format: "native" as const, ignored: [], warnings: [] };
  if (Array.isArray(body)) {
    if (format !== "auto" && format !== "native") throw notThisFormat(format, "a JSON array of trades");
    // Counted before any row is looked at: the cost of a refusal must not grow with the body.
    if (body.length > MAX_IMPORT_ROWS) throw tooManyRows("The import", MAX_IMPORT_ROWS, body.length);
    return { ...plain, rows: body.map((raw, i) => ({ line: i + 1, raw: raw as Record<string, unknown> })) };
  }
  if (typeof body === "string" && (format === "native" || (format === "auto" && isNativeCsv(body))))
    return { ...plain, rows: await csvRows(body) };
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    if (format === "native") throw notThisFormat(format, "a workbook");
    const file = await readBrokerFile(body, format, MAX_IMPORT_ROWS);
    if (file.read.errors.length) throw importFailed("VALIDATION_FAILED", file.read.errors);
    const trades = file.format.guessesUsListing ? await usListings(tx, scope, file.read.trades) : file.read.trades;
    // Rates to another currency than the portfolio's base would be stored as if they were to it
    // (an IBKR account in USD gives a USD trade the rate 1): the FX rule gives the rates instead.
    const { ratesTo } = file.read;
    const foreignRates = ratesTo !== undefined && ratesTo !== scope.baseCurrencyCode;
    const fileColumns = file.columnOf;
    return {
      rows: trades.map((t) => {
        const { exchangeRate: _dropped, ...withoutRate } = t.raw;
        return { line: t.line, raw: foreignRates ? withoutRate : { ...t.raw }, fileColumns };
      }),
      fileColumns,
      format: file.format.id,
      ignored: file.read.ignored,
      warnings: foreignRates
        ? [
            ...file.read.warnings,
            `The file's exchange rates convert to ${ratesTo} (its account's base currency), not to the portfolio's ${scope.baseCurrencyCode}: they are left out, and each trade takes the rate of its date from the exchange rates (docs/rules.md §8).`,
          ]
        : file.read.warnings,
    };
  }
  throw new DomainError("VALIDATION_FAILED", "Send a JSON array of trades, CSV text or a broker's .xlsx workbook.", [
    { path: "(body)", message: "must be a JSON array, CSV text or an .xlsx workbook" },
  ]);
}

/**
 * Whether the CSV's first line is this service's header: the required columns there and most
 * cells native columns (any case and spacing), so that a misspelt column is still read as ours and
 * named ("did you mean brokerage?"); no broker's header has a majority of our names. Read off the
 * first line alone, before parsing the file.
 */
function isNativeCsv(text: string): boolean {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r\n?|\n/, 1)[0] ?? "";
  const cells = firstLine.split(",").map((c) => columnKey(c.replace(/^"|"$/g, "")));
  const native = new Set(CSV_COLUMNS.map(columnKey));
  const ours = cells.filter((c) => native.has(c)).length;
  return REQUIRED_COLUMNS.every((r) => cells.includes(columnKey(r))) && ours * 2 > cells.length;
}

function notThisFormat(format: ImportFormat, given: string): DomainError {
  const message = `is ${format}, but the body is ${given}`;
  return new DomainError("VALIDATION_FAILED", `The import's format ${message}.`, [{ path: "format", message }]);
}

/**
 * A broker file that names no US exchange (Stake, IBKR's Activity Statement) says US_EXCHANGE for
 * every US share: each symbol takes the US listing the portfolio already holds it on, else the one
 * listing the master list (or the account's own securities) has of it, else stays US_EXCHANGE.
 */
async function usListings(
  tx: Prisma.TransactionClient,
  scope: { accountId: number; portfolioId: number },
  trades: BrokerTrade[],
): Promise<BrokerTrade[]> {
  const symbols = [...new Set(trades.filter((t) => t.raw.exchange === US_EXCHANGE).map((t) => t.raw.symbol))];
  if (symbols.length === 0) return trades;
  const rows = await tx.$queryRaw<{ symbol: string; exchange: string; held: boolean }[]>`
    SELECT symbol, exchange, true AS held FROM holding
    WHERE portfolio_id = ${scope.portfolioId} AND symbol = ANY(${symbols}::text[]) AND exchange = ANY(${US_EXCHANGES}::text[])
    UNION
    SELECT symbol, exchange, false FROM security
    WHERE (account_id IS NULL OR account_id = ${scope.accountId})
      AND symbol = ANY(${symbols}::text[]) AND exchange = ANY(${US_EXCHANGES}::text[])`;
  const listing = new Map<string, string>();
  for (const symbol of symbols) {
    const mine = rows.filter((r) => r.symbol === symbol);
    const held = [...new Set(mine.filter((r) => r.held).map((r) => r.exchange))];
    const listed = [...new Set(mine.map((r) => r.exchange))];
    const chosen = held.length === 1 ? held[0] : listed.length === 1 ? listed[0] : undefined;
    if (chosen) listing.set(symbol, chosen);
  }
  return trades.map((t) =>
    t.raw.exchange === US_EXCHANGE && listing.has(t.raw.symbol)
      ? { ...t, raw: { ...t.raw, exchange: listing.get(t.raw.symbol)! } }
      : t,
  );
}
