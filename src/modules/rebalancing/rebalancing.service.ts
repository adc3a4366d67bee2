import type { Context } from "../../context";
import { today } from "../../lib/dates";
import { businessRule, DomainError, notFound } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { discountRateOf, loadLedger, type FxTable, type LedgerEvent } from "../ledger";
import { portfolioWhere, scopedPortfolio } from "../ledger/portfolio-access";
import { marketPrices, securityKey } from "../ledger/market-data";
import { findSecurities, unlistedSecurityCurrency } from "../securities/securities.service";
import { computeRebalancePlan, type NewSecurity, type RebalanceResult } from "./rebalance";
import { RebalanceRequest } from "./rebalancing.schemas";
import { heavyWork } from "../../lib/heavy-work";
import { valuedBooks, withDefaults } from "./valued-books";

export * from "./drift-overview.service";

/**
 * POST /v1/portfolios/{p}/rebalance, GraphQL `computeRebalance`: the drift of the portfolio
 * against its active (or a named) model and the trades that bring it back (docs/reports.md §4). It
 * values the holdings and cash on `asOf` with the daily valuation engine's rules and hands them
 * to the pure rebalancer. Writes nothing: a Read client key may call it.
 */
export interface RebalanceView extends RebalanceResult {
  portfolioId: number;
  modelPublicId: string;
  asOf: string;
  /** Each leg with the currency of its price: its holding's, or the security's for one not held yet. */
  legs: (RebalanceResult["legs"][number] & { currencyCode: string })[];
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
        where: { publicId: request.modelPublicId, deletedAt: null, portfolio: portfolioWhere(ctx) },
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

  const fresh =
    model.dimension === "holding"
      ? await newSecurities(ctx, model.buckets, book.holdings, asOf, portfolio.baseCurrencyCode, book.fx)
      : [];
  const plan = computeRebalancePlan({
    dimension: model.dimension,
    buckets: model.buckets,
    holdings: rebalanceHoldings,
    cashBalance: book.cashBalance,
    newSecurities: fresh,
    ...withDefaults(request),
    asOf,
    discountRate: discountRateOf(portfolio.entityType),
  });
  const freshCurrency = new Map(fresh.map((f) => [securityKey(f), f.currencyCode]));
  return {
    portfolioId: portfolio.id,
    modelPublicId: model.publicId,
    asOf,
    ...plan,
    legs: plan.legs.map(({ holdingId, symbol, exchange, label, side, quantity, price, ...rest }) => ({
      holdingId,
      symbol,
      exchange,
      label,
      side,
      quantity,
      price,
      currencyCode:
        holdingId !== null ? book.currencies.get(holdingId)! : freshCurrency.get(securityKey({ symbol, exchange }))!,
      ...rest,
    })),
  };
}

/**
 * The securities a `dimension: holding` model names and the portfolio does not hold: bought at
 * their latest market price on or before `asOf` (docs/reports.md §4.3), converted by the FX rule.
 */
async function newSecurities(
  ctx: Context,
  buckets: { label: string }[],
  holdings: { symbol: string; exchange: string }[],
  asOf: string,
  base: string,
  fx: FxTable,
): Promise<(NewSecurity & { currencyCode: string })[]> {
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
    marketPrices(ctx.db, ctx.account.id, wanted, { from: asOf, to: asOf }),
    findSecurities(ctx.db, ctx.account.id, wanted),
  ]);
  const out: (NewSecurity & { currencyCode: string })[] = [];
  for (const w of wanted) {
    const price = prices.get(securityKey(w))?.on(asOf);
    if (!price) continue;
    const currency =
      securities.get(securityKey(w))?.currencyCode ?? unlistedSecurityCurrency(w.exchange, undefined, base);
    const rate = fx.rateOn(currency, base, asOf)?.rate;
    if (!rate) continue;
    out.push({
      label: w.label,
      symbol: w.symbol,
      exchange: w.exchange,
      price: new Decimal(price.value),
      rate,
      currencyCode: currency,
    });
  }
  return out;
}
