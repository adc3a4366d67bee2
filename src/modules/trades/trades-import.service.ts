import type { Prisma, Security } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { DomainError, type FieldError } from "../../lib/domain-errors";
import { addDays } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { holdingsForTrades } from "../holdings/holdings.service";
import { ParcelError } from "../ledger";
import type { LedgerEvent } from "../ledger";
import { loadFxTable } from "../ledger/fx-load";
import { ledgerWrite } from "../ledger/unit-of-work";
import { assertCanWrite, scopedPortfolio, type ScopedPortfolio } from "../ledger/portfolio-access";
import { findSecurities, unlistedSecurityCurrency } from "../securities/securities.service";
import { cancelledUnits, cancelledUnitsMismatch, storedTrade, storedTradeEvent } from "./stored-trade";
import { BASE_RATE_IS_ONE, noRate, rateFromTable, unstorableRate } from "./trade-exchange-rate";
import { rowError } from "../../lib/bulk";
import { importBody } from "./trades-import.body";
import { duplicatesFound, findDuplicates } from "./trades-import.duplicates";
import {
  fieldError,
  ImportQuery,
  importFailed,
  parseRows,
  type ImportHolding,
  type ImportResult,
  type ImportRowData,
} from "./trades-import.rows";

export {
  DUPLICATE_MODES,
  ImportQuery,
  MAX_IMPORT_ROWS,
  type DuplicateMode,
  type ImportResult,
  type SkippedRow,
} from "./trades-import.rows";

/**
 * Bulk import of trades (POST /v1/portfolios/{p}/trades/import, docs/conventions.md §7.4): a JSON array of
 * trade bodies or CSV with the header `date,type,symbol,exchange,quantity,price,brokerage,
 * currency,exchangeRate,source,notes` (column names, trade types, holding types and currency
 * codes in any case). All or nothing: every rejected row is reported with its line and reason,
 * and nothing is written. Rows are validated together with the existing ledger (a sell may use
 * units bought earlier in the same file), then written with one set-based INSERT.
 *
 * Everything is checked in memory before the first write, the holdings the file creates
 * included, so a dry run or a refused import writes nothing and uses up no ids.
 */

/**
 * POST /v1/portfolios/{p}/trades/import. `query` is REST's query string, or GraphQL's
 * `{ dryRun, duplicates }`. A dry run runs every check a real import does and writes nothing.
 */
export async function importTrades(
  ctx: Context,
  portfolioId: unknown,
  body: unknown,
  query: unknown = {},
): Promise<ImportResult> {
  const { dryRun, duplicates, format } = parseInput(ImportQuery, query ?? {}, "The query");
  assertCanWrite(ctx);
  const outside = await scopedPortfolio(ctx, portfolioId);

  const read = await importBody(
    ctx.db,
    { accountId: outside.accountId, portfolioId: outside.id, baseCurrencyCode: outside.baseCurrencyCode },
    body,
    format,
  );
  const { rows } = read;
  if (rows.length === 0)
    throw new DomainError(
      "VALIDATION_FAILED",
      `The import holds no trades${read.ignored.length ? ` (${read.ignored.length} rows are not trades: see the errors)` : ""}.`,
      read.ignored.length
        ? read.ignored.slice(0, 20).map((r) => ({ path: `line ${r.line}`, message: r.reason, line: r.line }))
        : [{ path: "(body)", message: "must hold at least one trade" }],
    );

  // 1. Each row on its own.
  const parsed = await parseRows(rows, await ctx.db.source.findMany({ select: { id: true, name: true } }), outside.id);
  const errors: FieldError[] = [];

  // The ledger's lock order: the portfolio (read again under its lock), then its holdings by id.
  return ledgerWrite(ctx, outside.id, async ({ tx, portfolio, lockHoldings, load }) => {
    // 2. Holdings: the recorded ones locked; the new ones only planned, so nothing is written
    //    (and no id drawn) before every row has passed.
    await lockHoldings();
    const existing = await tx.holding.findMany({
      where: { portfolioId: portfolio.id },
      select: { id: true, symbol: true, exchange: true, currencyCode: true },
    });
    const byId = new Map<number, ImportHolding>(existing.map((h) => [h.id, h]));
    const bySymbol = new Map<string, ImportHolding>(existing.map((h) => [`${h.symbol}|${h.exchange}`, h]));
    const planned: ImportHolding[] = [];
    const holdingOf = new Map<number, ImportHolding>();
    // The securities of the symbols the portfolio has no holding of yet, in one statement.
    const securities = await findSecurities(
      tx,
      portfolio.accountId,
      parsed.flatMap(({ data }) =>
        data.holdingId === undefined && !bySymbol.has(`${data.symbol}|${data.exchange}`)
          ? [{ symbol: data.symbol!, exchange: data.exchange! }]
          : [],
      ),
    );
    for (const { line, data } of parsed) {
      let h = data.holdingId !== undefined ? byId.get(data.holdingId) : bySymbol.get(`${data.symbol}|${data.exchange}`);
      if (!h && data.holdingId !== undefined) {
        errors.push(rowError(line, "holdingId", `is not a holding of portfolio ${portfolio.id}`));
        continue;
      }
      if (!h) {
        h = {
          id: -(planned.length + 1),
          symbol: data.symbol!,
          exchange: data.exchange!,
          currencyCode: plannedCurrency(portfolio, data, securities),
          createFrom: data,
        };
        planned.push(h);
        bySymbol.set(`${h.symbol}|${h.exchange}`, h);
      }
      holdingOf.set(line, h);
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

    // A rate on a base-currency row is bad input (400, as POST /v1/trades answers), not a rule.
    for (const { line, data } of parsed) {
      const currency = data.currencyCode ?? holdingOf.get(line)!.currencyCode;
      if (currency === portfolio.baseCurrencyCode && data.exchangeRate && !data.exchangeRate.eq(1)) {
        errors.push(fieldError({ line, fileColumns: read.fileColumns }, "exchangeRate", BASE_RATE_IS_ONE));
      }
    }
    if (errors.length) throw importFailed("VALIDATION_FAILED", errors);

    // 3. Rows equal to a recorded trade: refused, left out or let through (?duplicates=).
    const skipped = duplicates === "allow" ? [] : await findDuplicates(tx, portfolio.id, parsed, holdingOf);
    if (skipped.length && duplicates === "error") throw duplicatesFound(skipped);
    const skippedLines = new Set(skipped.map((d) => d.line));
    const kept = parsed.filter((p) => !skippedLines.has(p.line));

    // 4. Exchange rates: given, 1 in the base currency, or the one FX rule (two statements for all rows).
    const foreign = kept.filter(
      ({ line, data }) =>
        (data.currencyCode ?? holdingOf.get(line)!.currencyCode) !== portfolio.baseCurrencyCode && !data.exchangeRate,
    );
    // The file's own rows that give a rate are trades of the portfolio for the rule's fallback: a
    // sell takes the rate of a buy three lines up when no rate is imported for its date. Each is
    // read from the day after its date: of one day's rows the rule cannot tell which came first,
    // so a row never takes the rate of a row of its own day (recorded trades of a day still win).
    const pendingTrades = kept.flatMap(({ line, data }) => {
      const currencyCode = data.currencyCode ?? holdingOf.get(line)!.currencyCode;
      return currencyCode !== portfolio.baseCurrencyCode && data.exchangeRate
        ? [{ currencyCode, date: addDays(data.tradeDate, 1), exchangeRate: data.exchangeRate.toFixed() }]
        : [];
    });
    const fx = await loadFxTable(
      tx,
      portfolio,
      foreign.map((r) => r.data.tradeDate),
      { pendingTrades },
    );

    const prepared = kept.map(({ line, data }, i) => {
      const holding = holdingOf.get(line)!;
      const currencyCode = data.currencyCode ?? holding.currencyCode;
      let exchangeRate = data.exchangeRate;
      if (currencyCode === portfolio.baseCurrencyCode) {
        exchangeRate = new Decimal(1);
      } else if (!exchangeRate) {
        exchangeRate = rateFromTable(fx, portfolio, currencyCode, data.tradeDate);
        if (!exchangeRate)
          errors.push(
            rowError(line, "exchangeRate", `is required: ${noRate(portfolio, currencyCode, data.tradeDate)}`),
          );
        else if (unstorableRate(exchangeRate, data.tradeDate))
          errors.push(rowError(line, "exchangeRate", unstorableRate(exchangeRate, data.tradeDate)!));
      }
      return { line, holding, seq: 1e12 + i, ...storedTrade(data, currencyCode, exchangeRate ?? new Decimal(1)) };
    });
    if (errors.length) throw importFailed("BUSINESS_RULE", errors);

    // 5. The ledger with the new rows, folded in memory: a short sell anywhere names its line.
    //    Each holding's rows, gathered in one pass: a file may name as many holdings as it has rows.
    const rowsOf = new Map<number, { events: LedgerEvent[]; cancellations: typeof prepared }>();
    for (const p of prepared) {
      const e = storedTradeEvent(0, p.holding.id, p);
      let of = rowsOf.get(p.holding.id);
      if (!of) rowsOf.set(p.holding.id, (of = { events: [], cancellations: [] }));
      of.events.push({ ...e, key: `line ${p.line}`, tradeId: undefined, seq: p.seq });
      if (p.tradeType === "Cancellation") of.cancellations.push(p);
    }
    const ledger = await load([...rowsOf.keys()].filter((id) => id > 0));
    for (const [holdingId, { events, cancellations }] of rowsOf) {
      const fold = ledger.attempt(holdingId, events);
      if (fold instanceof ParcelError) {
        const line = Number(/^line (\d+)$/.exec(fold.eventKey)?.[1]);
        errors.push(line ? rowError(line, "", fold.message) : { path: fold.eventKey, message: fold.message });
        continue;
      }
      // A Cancellation stores the units it took: every unit held on its date (a row that gave another figure is refused).
      for (const p of cancellations) {
        const units = cancelledUnits(fold, `line ${p.line}`);
        const mismatch = cancelledUnitsMismatch(p.quantity, units);
        if (units.isZero()) errors.push(rowError(p.line, "", `Cancellation on ${p.tradeDate}: no units are held.`));
        else if (mismatch) errors.push(rowError(p.line, "quantity", mismatch));
        p.quantity = units;
      }
    }
    if (errors.length) throw importFailed("BUSINESS_RULE", errors);

    const creating = planned.filter((h) => rowsOf.has(h.id));
    const newHoldings = creating.map((h) => ({ symbol: h.symbol!, exchange: h.exchange! }));
    const result: ImportResult = {
      dryRun,
      format: read.format,
      imported: 0,
      valid: prepared.length,
      newHoldings,
      tradeIds: [],
      skipped,
      ignored: read.ignored,
      warnings: read.warnings,
    };
    if (dryRun || prepared.length === 0) return result;

    // 6. The writes: the new holdings in the order the file names them, then one INSERT for every
    //    row, in file order (ids follow the order: same-day entry order).
    const created = await holdingsForTrades(
      tx,
      portfolio,
      creating.map((h) => ({ ...h.createFrom!, symbol: h.symbol!, exchange: h.exchange! })),
    );
    for (const h of creating) {
      const holding = created.get(`${h.symbol}|${h.exchange}`)!;
      // Another account-wide write may have added the security since it was looked up: the rates were chosen for the planned currency.
      if (holding.currencyCode !== h.currencyCode)
        throw new DomainError(
          "CONFLICT",
          `The security ${h.symbol}.${h.exchange} changed while the import ran; nothing was written. Send the import again.`,
        );
      h.id = holding.id;
    }
    const col = <T>(f: (p: (typeof prepared)[number]) => T) => prepared.map(f);
    const inserted = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO trade (portfolio_id, holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, source_id, notes, acquisition_date, reference, updated_at)
      SELECT ${portfolio.id}, r.holding_id, r.trade_type::"TradeType", r.trade_date, r.quantity, r.price, r.brokerage, r.currency_code, r.exchange_rate, r.source_id, r.notes, r.acquisition_date, r.reference, now()
      FROM unnest(
        ${col((p) => p.holding.id)}::int[], ${col((p) => p.tradeType)}::text[], ${col((p) => p.tradeDate)}::date[],
        ${col((p) => p.quantity.toFixed())}::numeric[], ${col((p) => p.price.toFixed())}::numeric[], ${col((p) => p.brokerage.toFixed())}::numeric[],
        ${col((p) => p.currencyCode)}::text[], ${col((p) => p.exchangeRate.toFixed())}::numeric[], ${col((p) => p.sourceId)}::uuid[],
        ${col((p) => p.notes)}::text[], ${col((p) => p.acquisitionDate)}::date[], ${col((p) => p.reference)}::text[]
      ) WITH ORDINALITY AS r(holding_id, trade_type, trade_date, quantity, price, brokerage, currency_code, exchange_rate, source_id, notes, acquisition_date, reference, n)
      ORDER BY r.n
      RETURNING id`;
    const ids = inserted.map((r) => r.id).sort((a, b) => a - b);
    const picks = prepared.flatMap((p, i) =>
      p.parcels.map((pick) => ({ sellTradeId: ids[i], parcelTradeId: pick.tradeId, quantity: pick.units.toFixed() })),
    );
    if (picks.length) await tx.tradeParcel.createMany({ data: picks });
    return { ...result, imported: ids.length, tradeIds: ids };
  });
}

/** The currency holdingsForTrades will give a holding it creates for this row (the security's, else the row's, else the exchange's). */
function plannedCurrency(portfolio: ScopedPortfolio, data: ImportRowData, securities: Map<string, Security>): string {
  return (
    securities.get(`${data.symbol}|${data.exchange}`)?.currencyCode ??
    unlistedSecurityCurrency(data.exchange!, data.currencyCode, portfolio.baseCurrencyCode)
  );
}
