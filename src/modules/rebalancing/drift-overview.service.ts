import type { Context } from "../../context";
import { today } from "../../lib/dates";
import { readAllById } from "../../lib/id-slices";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { discountRateOf } from "../ledger";
import { bookWhere, scopedPortfolios } from "../ledger/portfolio-access";
import { computeRebalancePlan } from "./rebalance";
import { DriftOverviewQuery } from "./rebalancing.schemas";
import { heavyWork } from "../../lib/heavy-work";
import { valuedBooks, withDefaults } from "./valued-books";

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
  const asOf = today();
  const book = await bookWhere(ctx, clientId);
  const portfolios = await readAllById((after, take) =>
    ctx.db.portfolio.findMany({
      where: {
        ...book,
        id: { gt: after },
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
      take,
    }),
  );
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
