import type { Context } from "../../context";
import { today, toDate } from "../../lib/dates";
import { businessRule, DomainError, notFound } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { customGroupIdOf } from "../allocation-models/allocation-models.schemas";
import { dimensionValue } from "../holdings/dimension";
import {
  dailyValuation,
  discountRateOf,
  loadLedger,
  loadValuationRanges,
  type FxTable,
  type LedgerEvent,
} from "../ledger";
import { portfolioScope } from "../portfolios/access";
import { scopedPortfolio, scopedPortfolios, type ScopedPortfolio } from "../portfolios/scoped";
import { EXCHANGE_CURRENCY } from "../securities/securities.schemas";
import { computeRebalancePlan, type NewSecurity, type RebalanceHolding, type RebalanceResult } from "./rebalance";
import { DriftOverviewQuery, RebalanceRequest } from "./rebalancing.schemas";
import { heavyWork } from "../../lib/heavy-work";

/**
 * POST /v1/portfolios/{p}/rebalance, GraphQL `computeRebalance`: the drift of the portfolio
 * against its active (or a named) model and the trades that bring it back (REPORTS.md §4). It
 * values the holdings and cash on `asOf` with the daily valuation engine's rules and hands them
 * to the pure rebalancer. Writes nothing: a Read client key may call it.
 */
export interface RebalanceView extends RebalanceResult {
  portfolioId: number;
  modelPublicId: string;
  asOf: string;
}

/** The request's defaults (API.md): the drift overview reports exactly what a bare request would. */
function withDefaults(request: RebalanceRequest) {
  return {
    cashToInvest: request.cashToInvest ?? new Decimal(0),
    mode: request.mode ?? "BuyAndSell",
    band: request.band ?? "Tolerance",
    wholeUnits: request.wholeUnits ?? true,
    minTradeValue: request.minTradeValue ?? new Decimal(0),
    excludeHoldingIds: request.excludeHoldingIds ?? [],
    taxAware: request.taxAware ?? false,
  } as const;
}

export function computeRebalance(ctx: Context, portfolioId: unknown, input: unknown): Promise<RebalanceView> {
  return heavyWork(ctx, () => computeRebalanceNow(ctx, portfolioId, input));
}

async function computeRebalanceNow(ctx: Context, portfolioId: unknown, input: unknown): Promise<RebalanceView> {
  const request = parseInput(RebalanceRequest, input ?? {}, "The rebalance request");
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const asOf = request.asOf ?? today();
  const bucketSelect = { select: { label: true, targetPct: true, tolerancePct: true, sortOrder: true } } as const;
  const model = request.modelPublicId
    ? await ctx.db.allocationModel.findFirst({
        where: { publicId: request.modelPublicId, deletedAt: null, portfolio: portfolioScope(ctx) },
        select: { publicId: true, portfolioId: true, dimension: true, buckets: bucketSelect },
      })
    : await ctx.db.allocationModel.findFirst({
        where: { portfolioId: portfolio.id, isActive: true, deletedAt: null },
        select: { publicId: true, portfolioId: true, dimension: true, buckets: bucketSelect },
      });
  if (!model) {
    if (request.modelPublicId) throw notFound(`Allocation model ${request.modelPublicId}`);
    throw businessRule(
      `Portfolio ${portfolio.id} has no active allocation model: activate one, or name one with modelPublicId.`,
    );
  }
  // A model of another portfolio of the account is not this portfolio's to rebalance to.
  if (model.portfolioId !== portfolio.id)
    throw notFound(`Allocation model ${model.publicId} of portfolio ${portfolio.id}`);

  const [valued, ledger] = await Promise.all([
    valuedBooks(ctx, [{ portfolio, dimension: model.dimension }], asOf),
    request.taxAware ? loadLedger(ctx.db, portfolio, undefined, asOf) : Promise.resolve(undefined),
  ]);
  const book = valued.get(portfolio.id)!;
  const known = new Set(book.holdings.map((h) => h.holdingId));
  const unknown = (request.excludeHoldingIds ?? []).map((id, i) => ({ id, i })).filter(({ id }) => !known.has(id));
  if (unknown.length > 0) {
    throw new DomainError(
      "VALIDATION_FAILED",
      `The rebalance request is invalid: excludeHoldingIds names ${unknown.length === 1 ? "a holding" : "holdings"} this portfolio does not have.`,
      unknown.map(({ id, i }) => ({
        path: `excludeHoldingIds.${i}`,
        message: `holding ${id} is not a holding of portfolio ${portfolio.id}`,
      })),
    );
  }
  const rebalanceHoldings = ledger
    ? book.holdings.map((h) => ({
        ...h,
        events: ledger.eventsByHolding.get(h.holdingId) ?? [],
        methodFor: (e: LedgerEvent) => ledger.methodFor(h.holdingId, e),
      }))
    : book.holdings;

  return {
    portfolioId: portfolio.id,
    modelPublicId: model.publicId,
    asOf,
    ...computeRebalancePlan({
      dimension: model.dimension,
      buckets: model.buckets,
      holdings: rebalanceHoldings,
      cashBalance: book.cashBalance,
      newSecurities:
        model.dimension === "holding"
          ? await newSecurities(ctx, model.buckets, book.holdings, asOf, portfolio.baseCurrencyCode, book.fx)
          : [],
      ...withDefaults(request),
      asOf,
      discountRate: discountRateOf(portfolio.entityType),
    }),
  };
}

/**
 * The securities a `dimension: holding` model names and the portfolio does not hold: bought at
 * their latest market price on or before `asOf` (REPORTS.md §4), converted by the FX rule.
 */
async function newSecurities(
  ctx: Context,
  buckets: { label: string }[],
  holdings: { symbol: string; exchange: string }[],
  asOf: string,
  base: string,
  fx: FxTable,
): Promise<NewSecurity[]> {
  const held = new Set(holdings.map((h) => `${h.symbol}.${h.exchange}`.toLowerCase()));
  const wanted = buckets
    .filter((b) => b.label.toLowerCase() !== "cash" && !held.has(b.label.toLowerCase()))
    .map((b) => {
      const dot = b.label.lastIndexOf(".");
      return { label: b.label, symbol: b.label.slice(0, dot), exchange: b.label.slice(dot + 1) };
    })
    .filter((w) => w.symbol && w.exchange);
  if (wanted.length === 0) return [];
  const [prices, securities] = await Promise.all([
    ctx.db.$queryRaw<{ symbol: string; exchange: string; close: Decimal }[]>`
      SELECT DISTINCT ON (symbol, exchange) symbol, exchange, close FROM market_price
      WHERE account_id = ${ctx.account.id} AND date <= ${toDate(asOf)}
        AND (symbol, exchange) IN (SELECT * FROM unnest(${wanted.map((w) => w.symbol)}::text[], ${wanted.map((w) => w.exchange)}::text[]))
      ORDER BY symbol, exchange, date DESC`,
    ctx.db.security.findMany({
      where: {
        OR: wanted.map((w) => ({ symbol: w.symbol, exchange: w.exchange })),
        AND: [{ OR: [{ accountId: null }, { accountId: ctx.account.id }] }],
      },
      select: { symbol: true, exchange: true, currencyCode: true, accountId: true },
      orderBy: { accountId: { sort: "asc", nulls: "last" } },
    }),
  ]);
  const out: NewSecurity[] = [];
  for (const w of wanted) {
    const price = prices.find((p) => p.symbol === w.symbol && p.exchange === w.exchange);
    if (!price) continue;
    const currency =
      securities.find((s) => s.symbol === w.symbol && s.exchange === w.exchange)?.currencyCode ??
      EXCHANGE_CURRENCY[w.exchange] ??
      base;
    const rate = fx.rateOn(currency, base, asOf)?.rate;
    if (!rate) continue;
    out.push({ label: w.label, symbol: w.symbol, exchange: w.exchange, price: new Decimal(price.close), rate });
  }
  return out;
}

interface ValuedBook {
  holdings: RebalanceHolding[];
  /** The cash accounts' balance in the base currency on the day (unconvertible ones count 0). */
  cashBalance: Decimal;
  fx: FxTable;
}

/**
 * The holdings of several portfolios valued on `asOf` by the daily engine's rules, each with its
 * value on its model's dimension, and their cash: a fixed number of statements whatever the number
 * of portfolios (one range load, one holdings read, one read of custom group labels).
 */
async function valuedBooks(
  ctx: Context,
  books: { portfolio: ScopedPortfolio; dimension: string }[],
  asOf: string,
): Promise<Map<number, ValuedBook>> {
  if (books.length === 0) return new Map();
  const ids = books.map((b) => b.portfolio.id);
  const groupIds = [
    ...new Set(books.map((b) => customGroupIdOf(b.dimension)).filter((g): g is number => g !== undefined)),
  ];
  const [ranges, assignments] = await Promise.all([
    loadValuationRanges(
      ctx.db,
      books.map((b) => b.portfolio),
      asOf,
      asOf,
    ),
    groupIds.length === 0
      ? Promise.resolve([])
      : ctx.db.customGroupAssignment.findMany({
          where: {
            groupId: { in: groupIds },
            group: { accountId: ctx.account.id },
            holding: { portfolioId: { in: ids } },
          },
          select: { groupId: true, holdingId: true, label: true },
        }),
  ]);
  const labelOf = new Map(assignments.map((a) => [`${a.groupId}:${a.holdingId}`, a.label]));
  const out = new Map<number, ValuedBook>();
  for (const { portfolio, dimension } of books) {
    const range = ranges.get(portfolio.id)!;
    const day = dailyValuation(range).exactOn(asOf);
    const valued = new Map(day.holdings.map((h) => [h.id, h]));
    const groupId = customGroupIdOf(dimension);
    out.set(portfolio.id, {
      holdings: range.holdings.map((h) => {
        const v = valued.get(h.id)!;
        const priced = v.price !== null && v.rate !== null;
        return {
          holdingId: h.id,
          symbol: h.symbol,
          exchange: h.exchange,
          dimensionValue: dimensionValue(h, dimension, () => labelOf.get(`${groupId}:${h.id}`) ?? null),
          units: v.units,
          price: priced ? v.price : null,
          rate: priced ? v.rate : null,
          value: v.valueInBaseCurrency ?? new Decimal(0),
        };
      }),
      cashBalance: day.cash.reduce((s, c) => s.plus(c.valueInBaseCurrency ?? 0), new Decimal(0)),
      fx: range.fx,
    });
  }
  return out;
}

export interface DriftOverviewRow {
  portfolioId: number;
  portfolioName: string;
  clientId: number | null;
  modelPublicId: string;
  modelName: string;
  totalValue: Decimal;
  maxDriftPct: number;
  outOfBandCount: number;
}

/**
 * GET /v1/drift, GraphQL `driftOverview`: every portfolio of the caller's book with an active
 * model, its drift today as computeRebalance reports it, most drifted first — the adviser's
 * morning view. A client key sees its own portfolios; `clientId` narrows an adviser's book to one
 * client. A fixed number of statements whatever the number of portfolios.
 */
export function getDriftOverview(ctx: Context, query: unknown = {}): Promise<DriftOverviewRow[]> {
  return heavyWork(ctx, () => getDriftOverviewNow(ctx, query));
}

async function getDriftOverviewNow(ctx: Context, query: unknown): Promise<DriftOverviewRow[]> {
  const { clientId } = parseInput(DriftOverviewQuery, query ?? {}, "The query");
  if (clientId !== undefined) {
    const client = await ctx.db.client.findFirst({
      where: {
        id: clientId,
        accountId: ctx.account.id,
        ...(ctx.principal.kind === "client" ? { id: ctx.principal.clientId } : {}),
      },
      select: { id: true },
    });
    if (!client) throw notFound(`Client ${clientId}`);
  }
  const asOf = today();
  const portfolios = await ctx.db.portfolio.findMany({
    where: {
      ...portfolioScope(ctx),
      ...(clientId !== undefined ? { clientId } : {}),
      allocationModels: { some: { isActive: true, deletedAt: null } },
    },
    select: {
      id: true,
      name: true,
      clientId: true,
      entityType: true,
      allocationModels: {
        where: { isActive: true, deletedAt: null },
        select: {
          publicId: true,
          name: true,
          dimension: true,
          buckets: { select: { label: true, targetPct: true, tolerancePct: true, sortOrder: true } },
        },
      },
    },
    orderBy: { id: "asc" },
  });
  const scoped = new Map(
    (
      await scopedPortfolios(
        ctx,
        portfolios.map((p) => p.id),
      )
    ).map((p) => [p.id, p]),
  );
  const books = portfolios
    .filter((p) => scoped.has(p.id))
    .map((p) => ({ row: p, model: p.allocationModels[0], portfolio: scoped.get(p.id)! }));
  const valued = await valuedBooks(
    ctx,
    books.map((b) => ({ portfolio: b.portfolio, dimension: b.model.dimension })),
    asOf,
  );
  const rows = books.map(({ row, model }) => {
    const book = valued.get(row.id)!;
    const plan = computeRebalancePlan({
      dimension: model.dimension,
      buckets: model.buckets,
      holdings: book.holdings,
      cashBalance: book.cashBalance,
      newSecurities: [],
      ...withDefaults({}),
      asOf,
      discountRate: discountRateOf(row.entityType),
    });
    return {
      portfolioId: row.id,
      portfolioName: row.name,
      clientId: row.clientId,
      modelPublicId: model.publicId,
      modelName: model.name,
      totalValue: plan.totalValue,
      maxDriftPct: plan.driftReport.maxDriftPct,
      outOfBandCount: plan.driftReport.outOfBandCount,
    };
  });
  return rows.sort((a, b) => b.maxDriftPct - a.maxDriftPct || a.portfolioId - b.portfolioId);
}
