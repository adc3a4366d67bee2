import type { Context } from "../../context";
import { readBySlices } from "../../lib/id-slices";
import { Decimal } from "../../lib/money";
import { customGroupIdOf } from "../allocation-models/allocation-models.schemas";
import { dimensionValue } from "../holdings/dimension";
import { dailyValuation, loadValuationRanges, type FxTable } from "../ledger";
import { type ScopedPortfolio } from "../ledger/portfolio-access";
import { type RebalanceHolding } from "./rebalance";
import { RebalanceRequest } from "./rebalancing.schemas";

/**
 * What the rebalance and the drift overview both read: a portfolio's holdings and cash valued on a
 * day, each holding with its value on the model's dimension, and the request's defaults.
 */

/** The request's defaults (docs/reports.md §4.2): the drift overview reports exactly what a bare request would. */
export function withDefaults(request: RebalanceRequest) {
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

export interface ValuedBook {
  holdings: RebalanceHolding[];
  /** Each holding's currency, the currency of its price. */
  currencies: Map<number, string>;
  /** The cash accounts' balance in the base currency on the day (unconvertible ones count 0). */
  cashBalance: Decimal;
  fx: FxTable;
}

/**
 * The holdings of several portfolios valued on `asOf` by the daily engine's rules, each with its
 * value on its model's dimension, and their cash: a fixed number of statements whatever the number
 * of portfolios (one range load, one holdings read, one read of custom group labels).
 */
export async function valuedBooks(
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
      : readBySlices(ids, (slice) =>
          ctx.db.customGroupAssignment.findMany({
            where: {
              groupId: { in: groupIds },
              group: { accountId: ctx.account.id },
              holding: { portfolioId: { in: slice } },
            },
            select: { groupId: true, holdingId: true, label: true },
          }),
        ),
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
      currencies: new Map(range.holdings.map((h) => [h.id, h.currencyCode])),
      cashBalance: day.cash.reduce((s, c) => s.plus(c.valueInBaseCurrency ?? 0), new Decimal(0)),
      fx: range.fx,
    });
  }
  return out;
}
