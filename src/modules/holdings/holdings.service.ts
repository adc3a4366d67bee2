import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { DomainError, notFound, orNull } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { ledgerWrite } from "../ledger/unit-of-work";
import { portfolioWrite } from "../ledger/write";
import {
  assertCanWrite,
  PORTFOLIO_LEDGER_SELECT,
  portfolioWhere,
  scopedPortfolio,
  scopedPortfolios,
  type ScopedPortfolio,
} from "../ledger/portfolio-access";
import { findSecurity } from "../securities/securities.service";
import { ChangeSymbolInput, CreateHoldingInput, ListHoldingsQuery, UpdateHoldingBody } from "./holdings.schemas";
import { holdingForTrade } from "./holding-for-trade";
export { holdingForTrade, holdingsForTrades } from "./holding-for-trade";
import { HOLDING_SELECT, valueHoldings, type HoldingRow, type HoldingTypeName, type HoldingView } from "./holding-view";
import { userClassifiedAfter, userClassifiedOnUpdate } from "./user-classified";

export { HOLDING_SELECT, valueHoldings, type HoldingRow, type HoldingTypeName, type HoldingView } from "./holding-view";

/** Holdings the caller may see: those of its portfolios (docs/conventions.md §2.3). */
export const holdingWhere = (ctx: Context): Prisma.HoldingWhereInput => ({ portfolio: portfolioWhere(ctx) });

/** The holding with its portfolio, or NOT_FOUND (another account's holding included). */
export async function holdingWithPortfolio(ctx: Context, holdingId: unknown, db: Prisma.TransactionClient = ctx.db) {
  const id = parseId(holdingId, "holdingId");
  const h = await db.holding.findFirst({
    where: { id, ...holdingWhere(ctx) },
    select: { ...HOLDING_SELECT, portfolio: { select: PORTFOLIO_LEDGER_SELECT } },
  });
  if (!h) throw notFound(`Holding ${id}`);
  return h;
}

/** GET /v1/portfolios/{p}/holdings: open holdings (all with includeClosed) valued on a date. */
export async function listHoldings(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<HoldingView[]> {
  const { includeClosed, date } = parseInput(ListHoldingsQuery, query ?? {}, "The query");
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const holdings = await ctx.db.holding.findMany({
    where: { portfolioId: portfolio.id },
    select: HOLDING_SELECT,
    orderBy: HOLDING_ORDER,
  });
  const views = await valueHoldings(ctx, [portfolio], holdings, date);
  return includeClosed ? views : views.filter((v) => !v.quantity.isZero());
}

const HOLDING_ORDER = [
  { symbol: "asc" },
  { exchange: "asc" },
  { id: "asc" },
] satisfies Prisma.HoldingOrderByWithRelationInput[];

/**
 * listHoldings for many portfolios at once (GraphQL `Portfolio.holdings` through its DataLoader):
 * a fixed number of statements for any number of portfolios on one date. Portfolios the caller
 * may not see are simply absent from the answer.
 */
export async function holdingsByPortfolioIds(
  ctx: Context,
  portfolioIds: readonly number[],
  query: unknown = {},
): Promise<Map<number, HoldingView[]>> {
  const { includeClosed, date } = parseInput(ListHoldingsQuery, query ?? {}, "The query");
  const portfolios = await scopedPortfolios(ctx, portfolioIds);
  const holdings =
    portfolios.length === 0
      ? []
      : await ctx.db.holding.findMany({
          where: { portfolioId: { in: portfolios.map((p) => p.id) } },
          select: HOLDING_SELECT,
          orderBy: HOLDING_ORDER,
        });
  const views = await valueHoldings(ctx, portfolios, holdings, date);
  const byPortfolio = new Map<number, HoldingView[]>(portfolios.map((p) => [p.id, []]));
  for (const v of views) if (includeClosed || !v.quantity.isZero()) byPortfolio.get(v.portfolioId)!.push(v);
  return byPortfolio;
}

export const findHolding = (ctx: Context, holdingId: unknown) => orNull(getHolding(ctx, holdingId));

export async function getHolding(ctx: Context, holdingId: unknown): Promise<HoldingView> {
  const h = await holdingWithPortfolio(ctx, holdingId);
  const [view] = await valueHoldings(ctx, [h.portfolio], [h]);
  return view;
}

/** Creates a custom investment holding explicitly (listed securities are created by a first trade). */
export async function createHolding(ctx: Context, portfolioId: unknown, input: unknown): Promise<HoldingView> {
  const data = parseInput(CreateHoldingInput, input, "The holding");
  assertCanWrite(ctx);
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const exists = await ctx.db.holding.findFirst({
    where: { portfolioId: portfolio.id, symbol: data.symbol, exchange: data.exchange },
    select: { id: true },
  });
  if (exists)
    throw new DomainError(
      "CONFLICT",
      `Portfolio ${portfolio.id} already has a holding ${data.symbol}.${data.exchange} (id ${exists.id}).`,
    );
  // The type the request names is the user's; the default (Custom) is not.
  const namedType = hasKey(input, "holdingType") ? data.holdingType : undefined;
  const h = await ctx.db.holding.create({
    data: {
      portfolioId: portfolio.id,
      symbol: data.symbol,
      exchange: data.exchange,
      name: data.name,
      currencyCode: data.currencyCode ?? portfolio.baseCurrencyCode,
      holdingType: data.holdingType,
      notes: data.notes ?? "",
      assetClass: data.classification?.assetClass ?? null,
      sector: data.classification?.sector ?? null,
      industry: data.classification?.industry ?? null,
      userClassified: userClassifiedAfter([], {}, { ...data.classification, holdingType: namedType }),
    },
    select: HOLDING_SELECT,
  });
  const [view] = await valueHoldings(ctx, [portfolio], [h]);
  return view;
}

export async function updateHolding(ctx: Context, holdingId: unknown, input: unknown): Promise<HoldingView> {
  const id = parseId(holdingId, "holdingId");
  const data = parseInput(UpdateHoldingBody, input, "The holding");
  assertCanWrite(ctx);
  const { portfolioId } = await holdingWithPortfolio(ctx, id);
  const sent = data.classification;
  await portfolioWrite(ctx, portfolioId, async (tx) => {
    // The fields the user sets become theirs: read and written under the portfolio's lock.
    const userClassified = sent && (await userClassifiedOnUpdate(tx, id, sent));
    await tx.holding.update({
      where: { id },
      data: {
        name: data.name,
        notes: data.notes ?? undefined,
        assetClass: sent?.assetClass,
        sector: sent?.sector,
        industry: sent?.industry,
        userClassified,
        drpEnabled: data.drp?.enabled,
        drpRounding: data.drp?.rounding,
      },
    });
  });
  return getHolding(ctx, id);
}

const hasKey = (input: unknown, key: string) =>
  typeof input === "object" && input !== null && (input as Record<string, unknown>)[key] !== undefined;

/** Removes the holding with its trades, income and prices. */
export async function deleteHolding(ctx: Context, holdingId: unknown): Promise<true> {
  const id = parseId(holdingId, "holdingId");
  assertCanWrite(ctx);
  const { portfolioId } = await holdingWithPortfolio(ctx, id);
  // The delete cascades to the holding's trades and income: the ledger's lock order applies.
  await ledgerWrite(ctx, portfolioId, async ({ tx }) => {
    const { count } = await tx.holding.deleteMany({ where: { id, portfolioId } });
    if (count === 0) throw notFound(`Holding ${id}`);
  });
  return true;
}

/**
 * A ticker change: the holding keeps its history; the change itself is recorded. The current
 * symbol is read under the locks, so of ten identical changes at once the first records CBA → CBA2
 * and the nine after it find nothing left to change.
 */
export async function changeHoldingSymbol(ctx: Context, holdingId: unknown, input: unknown): Promise<HoldingView> {
  const id = parseId(holdingId, "holdingId");
  const data = parseInput(ChangeSymbolInput, input, "The symbol change");
  assertCanWrite(ctx);
  const { portfolioId } = await holdingWithPortfolio(ctx, id);
  await ledgerWrite(ctx, portfolioId, async ({ tx, portfolio }) => {
    const h = await holdingForTrade(tx, ctx, portfolio, { holdingId: id });
    if (h.symbol === data.symbol && h.exchange === data.exchange) return;
    const clash = await tx.holding.findFirst({
      where: { portfolioId, symbol: data.symbol, exchange: data.exchange },
      select: { id: true },
    });
    if (clash)
      throw new DomainError(
        "CONFLICT",
        `Portfolio ${portfolioId} already has a holding ${data.symbol}.${data.exchange} (id ${clash.id}).`,
      );
    const security = await findSecurity(tx, ctx.account.id, data.symbol, data.exchange);
    await tx.holdingSymbolChange.create({
      data: {
        holdingId: id,
        fromSymbol: h.symbol,
        fromExchange: h.exchange,
        toSymbol: data.symbol,
        toExchange: data.exchange,
      },
    });
    await tx.holding.update({
      where: { id },
      data: { symbol: data.symbol, exchange: data.exchange, ...(security ? { name: security.name } : {}) },
    });
    // What the provider filled was the old ticker's: emptied, the next refresh fills the new one's.
    // The user's own fields stay (docs/data.md §3.3).
    await tx.$executeRaw`
      UPDATE holding SET
        asset_class = CASE WHEN 'assetClass' = ANY(user_classified) THEN asset_class END,
        sector = CASE WHEN 'sector' = ANY(user_classified) THEN sector END,
        industry = CASE WHEN 'industry' = ANY(user_classified) THEN industry END
      WHERE id = ${id}`;
  });
  return getHolding(ctx, id);
}

export async function listSymbolChanges(ctx: Context, holdingId: unknown) {
  const h = await holdingWithPortfolio(ctx, holdingId);
  const rows = await ctx.db.holdingSymbolChange.findMany({ where: { holdingId: h.id }, orderBy: { id: "asc" } });
  return rows.map((r) => ({
    fromSymbol: r.fromSymbol,
    fromExchange: r.fromExchange,
    toSymbol: r.toSymbol,
    toExchange: r.toExchange,
    changedAt: r.changedAt,
  }));
}
