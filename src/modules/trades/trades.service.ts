import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { toDate } from "../../lib/dates";
import { businessRule, found, orNull, removed, validationFailed } from "../../lib/domain-errors";
import { groupedBy } from "../../lib/grouped";
import type { Decimal } from "../../lib/money";
import type { Page } from "../../lib/page";
import { parseId, parseInput } from "../../lib/validation";
import { holdingForTrade, holdingWithPortfolio } from "../holdings/holdings.service";
import type { FoldResult } from "../ledger";
import { ledgerWrite, type LedgerUnit } from "../ledger/unit-of-work";
import { assertCanWrite, type ScopedLookup, type ScopedPortfolio } from "../ledger/portfolio-access";
import {
  cancelledUnits,
  cancelledUnitsMismatch,
  storedTrade,
  storedTradeEvent,
  type StoredTrade,
} from "./stored-trade";
import { tradeExchangeRate } from "./trade-exchange-rate";
import { toTradeView, TRADE_VIEW_SELECT, tradeWhere, type TradeView } from "./trade-view";
import { ListQuery, TradeInput, UpdateTradeBody } from "./trades.schemas";

export { toTradeView, TRADE_VIEW_SELECT, type TradeView } from "./trade-view";

async function assertSource(db: Prisma.TransactionClient, sourceId: string | null | undefined): Promise<void> {
  if (!sourceId) return;
  const found = await db.source.findUnique({ where: { id: sourceId }, select: { id: true } });
  if (!found)
    throw validationFailed("The sourceId is invalid: it is not a Source id.", [
      { path: "sourceId", message: "is not a Source id (GET /v1/sources)" },
    ]);
}

/** `replacing`: the trade an update rewrites (its old rate is no fallback for its new one). */
async function prepare(
  db: Prisma.TransactionClient,
  portfolio: ScopedPortfolio,
  holdingCurrency: string,
  data: TradeInput,
  replacing?: number,
): Promise<StoredTrade> {
  await assertSource(db, data.sourceId);
  const currencyCode = data.currencyCode ?? holdingCurrency;
  const exchangeRate = await tradeExchangeRate(db, portfolio, currencyCode, data.tradeDate, data.exchangeRate, {
    exceptTradeId: replacing,
  });
  return storedTrade(data, currencyCode, exchangeRate);
}

/** The trade's columns, its manual parcel picks included. */
function tradeData(t: StoredTrade) {
  return {
    tradeType: t.tradeType,
    tradeDate: toDate(t.tradeDate),
    quantity: t.quantity.toFixed(),
    price: t.price.toFixed(),
    brokerage: t.brokerage.toFixed(),
    currencyCode: t.currencyCode,
    exchangeRate: t.exchangeRate.toFixed(),
    sourceId: t.sourceId,
    notes: t.notes,
    acquisitionDate: t.acquisitionDate ? toDate(t.acquisitionDate) : null,
    reference: t.reference,
    parcels: t.parcels.length
      ? { createMany: { data: t.parcels.map((p) => ({ parcelTradeId: p.tradeId, quantity: p.units.toFixed() })) } }
      : undefined,
  };
}

/**
 * The units a Cancellation takes, refused when none are held on its date (a delisting entered on a
 * wrong date would record no loss at all, unseen), when its column could not hold them, or when
 * the trade gave another quantity (zero when absent).
 */
function recordableCancelledUnits(
  fold: FoldResult,
  key: string,
  t: Pick<StoredTrade, "quantity" | "tradeDate">,
): Decimal {
  const units = cancelledUnits(fold, key);
  if (units.isZero()) throw businessRule(`Cancellation on ${t.tradeDate}: no units are held.`);
  if (units.lte(-1e16)) throw businessRule("The cancelled units are too many to record (10^16 or more).");
  const mismatch = cancelledUnitsMismatch(t.quantity, units);
  if (mismatch)
    throw businessRule(`The Cancellation's quantity ${mismatch}.`, [{ path: "quantity", message: mismatch }]);
  return units;
}

/** POST /v1/trades: records a trade, creating the holding on its first trade. */
export async function createTrade(ctx: Context, input: unknown): Promise<TradeView> {
  const data = parseInput(TradeInput, input, "The trade");
  assertCanWrite(ctx);
  // The portfolio is read under its lock: a tax-settings change or a racing trade commits first or waits.
  return ledgerWrite(ctx, data.portfolioId, (unit) => recordTrade(ctx, unit, data));
}

/**
 * createTrade's write, inside a ledger write of the trade's portfolio that the caller opened: a
 * use case that records a trade with other rows (applying a corporate action) commits both or
 * neither. The caller has checked that it may write.
 */
export async function recordTrade(
  ctx: Context,
  { tx, portfolio, check }: LedgerUnit,
  data: TradeInput,
): Promise<TradeView> {
  const holding = await holdingForTrade(tx, ctx, portfolio, data);
  const t = await prepare(tx, portfolio, holding.currencyCode, data);
  // The new trade's id is not known yet; any id above the existing ones orders it last on its day.
  const provisional = { ...storedTradeEvent(Number.MAX_SAFE_INTEGER, holding.id, t), key: "this trade" };
  const fold = await check(holding.id, [provisional]);
  if (t.tradeType === "Cancellation") t.quantity = recordableCancelledUnits(fold, "this trade", t);
  const created = await tx.trade.create({
    data: { portfolioId: portfolio.id, holdingId: holding.id, ...tradeData(t) },
    select: { id: true },
  });
  // Read under the locks, so the answer is the trade as committed (a racing holding delete waits).
  return getTrade(ctx, created.id, tx);
}

export const findTrade = (ctx: Context, tradeId: unknown) => orNull(getTrade(ctx, tradeId));

export const getTrade: ScopedLookup<TradeView> = async (ctx, tradeId, db = ctx.db) => {
  const id = parseId(tradeId, "tradeId");
  const row = await db.trade.findFirst({ where: { id, ...tradeWhere(ctx) }, select: TRADE_VIEW_SELECT });
  // The holding comes in a second statement: one deleted in between took the trade with it.
  return toTradeView(found(row?.holding ? row : null, `Trade ${id}`));
};

/** A holding's trades, oldest first (same day: entry order), paged, with the number of trades it has (REST: X-Total-Count and Link). */
export async function listHoldingTrades(
  ctx: Context,
  holdingId: unknown,
  query: unknown = {},
): Promise<Page<TradeView>> {
  const { limit, offset } = parseInput(ListQuery, query ?? {}, "The query");
  const h = await holdingWithPortfolio(ctx, holdingId);
  const [rows, total] = await Promise.all([
    ctx.db.trade.findMany({
      where: { holdingId: h.id },
      select: TRADE_VIEW_SELECT,
      orderBy: [{ tradeDate: "asc" }, { id: "asc" }],
      take: limit,
      skip: offset,
    }),
    ctx.db.trade.count({ where: { holdingId: h.id } }),
  ]);
  return { items: rows.map(toTradeView), total, limit, offset };
}

/** One page of a holding's trades (Holding.trades over its DataLoader), paged as REST pages them. */
export function pageOfTrades(trades: TradeView[], query: unknown): TradeView[] {
  const { limit, offset } = parseInput(ListQuery, query ?? {}, "The query");
  return trades.slice(offset, offset + limit);
}

/** Trades of several holdings, for a DataLoader (Holding.trades). */
export async function tradesByHoldingIds(
  ctx: Context,
  holdingIds: readonly number[],
): Promise<Map<number, TradeView[]>> {
  const rows = await ctx.db.trade.findMany({
    where: { holdingId: { in: [...holdingIds] }, ...tradeWhere(ctx) },
    select: TRADE_VIEW_SELECT,
    orderBy: [{ tradeDate: "asc" }, { id: "asc" }],
  });
  return groupedBy(holdingIds, rows.map(toTradeView), (t) => t.holdingId);
}

/**
 * PUT /v1/trades/{t}: replaces the trade (same body as create). It stays on its holding; every
 * later sell must still have its units, or nothing is written (422).
 */
export async function updateTrade(ctx: Context, tradeId: unknown, input: unknown): Promise<TradeView> {
  const id = parseId(tradeId, "tradeId");
  const data = parseInput(UpdateTradeBody, input, "The trade");
  assertCanWrite(ctx);
  const row = await ctx.db.trade.findFirst({
    where: { id, ...tradeWhere(ctx) },
    select: { id: true, holdingId: true, portfolioId: true, holding: { select: { symbol: true, exchange: true } } },
  });
  const existing = found(row?.holding ? row : null, `Trade ${id}`);
  const sameHolding =
    data.portfolioId === existing.portfolioId &&
    (data.holdingId !== undefined
      ? data.holdingId === existing.holdingId
      : data.symbol === existing.holding.symbol && data.exchange === existing.holding.exchange);
  if (!sameHolding)
    throw businessRule(
      `Trade ${id} belongs to holding ${existing.holdingId} of portfolio ${existing.portfolioId}; to move it, delete it and add it to the other holding.`,
    );
  return ledgerWrite(ctx, existing.portfolioId, async ({ tx, portfolio, check }) => {
    const holding = await holdingForTrade(tx, ctx, portfolio, { holdingId: existing.holdingId });
    const t = await prepare(tx, portfolio, holding.currencyCode, data, id);
    const key = `trade ${id}`;
    const fold = await check(holding.id, new Map([[key, storedTradeEvent(id, holding.id, t)]]));
    if (t.tradeType === "Cancellation") t.quantity = recordableCancelledUnits(fold, key, t);
    await tx.tradeParcel.deleteMany({ where: { sellTradeId: id } });
    await tx.trade.update({ where: { id }, data: tradeData(t) });
    return getTrade(ctx, id, tx);
  });
}

/** DELETE /v1/trades/{t}: refused (422) when a later sell would be left without units. */
export async function deleteTrade(ctx: Context, tradeId: unknown): Promise<true> {
  const id = parseId(tradeId, "tradeId");
  assertCanWrite(ctx);
  const existing = found(
    await ctx.db.trade.findFirst({ where: { id, ...tradeWhere(ctx) }, select: { holdingId: true, portfolioId: true } }),
    `Trade ${id}`,
  );
  await ledgerWrite(ctx, existing.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: existing.holdingId });
    await check(existing.holdingId, new Map([[`trade ${id}`, null]]));
    removed(await tx.trade.deleteMany({ where: { id } }), `Trade ${id}`);
  });
  return true;
}
