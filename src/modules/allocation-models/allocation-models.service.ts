import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Context } from "../../context";
import type { Prisma } from "../../../generated/prisma/client";
import { DomainError, notFound } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { parseId, parseInput } from "../../lib/validation";
import { assertCanWrite, portfolioScopeSql, portfolioWhere } from "../ledger/portfolio-access";
import { getPortfolio } from "../portfolios/portfolios.service";
import { customGroupIdOf, publicIdInput, SaveAllocationModelBody } from "./allocation-models.schemas";
import { lockPortfolio, portfolioWrite, write, type WriteTx } from "../ledger/write";

export interface BucketView {
  label: string;
  targetPct: Decimal;
  tolerancePct: Decimal;
  sortOrder: number;
}

/** Seed 2.2 exactly: the internal row id never leaves the service. */
export interface AllocationModelView {
  publicId: string;
  portfolioId: number;
  name: string;
  notes: string;
  dimension: string;
  isActive: boolean;
  buckets: BucketView[];
}

const select = {
  publicId: true,
  portfolioId: true,
  name: true,
  notes: true,
  dimension: true,
  isActive: true,
  buckets: {
    select: { label: true, targetPct: true, tolerancePct: true, sortOrder: true },
    // Seed 4.2: buckets in sortOrder; equal sortOrders fall back to the label, for determinism.
    orderBy: [{ sortOrder: "asc" }, { label: "asc" }],
  },
} satisfies Prisma.AllocationModelSelect;

const MODEL_ORDER = [{ createdAt: "asc" }, { id: "asc" }] satisfies Prisma.AllocationModelOrderByWithRelationInput[];

/** Interactive transactions wait their turn behind each other on one portfolio's row lock. */

/** A live (not soft-deleted) model of the caller's account. */
const liveModel = (ctx: Context, publicId: string): Prisma.AllocationModelWhereInput => ({
  publicId,
  deletedAt: null,
  portfolio: portfolioWhere(ctx),
});

function parsePublicId(value: unknown): string {
  return parseInput(z.object({ publicId: publicIdInput }), { publicId: value }, "The publicId").publicId;
}

/**
 * A `customGroup:{id}` model buckets holdings by that group's labels, so the group must be one of
 * the caller's account. Another account's group answers NOT_FOUND exactly as a missing one
 * (docs/conventions.md §2.3), on create, update and activation alike (the group may have gone
 * since the save).
 */
async function assertDimensionGroup(tx: Prisma.TransactionClient, ctx: Context, dimension: string): Promise<void> {
  const groupId = customGroupIdOf(dimension);
  if (groupId === undefined) return;
  const group = await tx.customGroup.findFirst({
    where: { id: groupId, accountId: ctx.account.id },
    select: { id: true },
  });
  if (!group) {
    throw new DomainError("NOT_FOUND", `Custom group ${groupId} of dimension ${dimension} was not found.`, [
      { path: "dimension", message: `names custom group ${groupId}, which this account does not have` },
    ]);
  }
}

/** Seed 4.2: every model of the portfolio that is not soft-deleted, each with its buckets. */
export async function listAllocationModels(ctx: Context, portfolioId: unknown): Promise<AllocationModelView[]> {
  const portfolio = await getPortfolio(ctx, portfolioId);
  return ctx.db.allocationModel.findMany({
    where: { portfolioId: portfolio.id, deletedAt: null },
    select,
    orderBy: MODEL_ORDER,
  });
}

/**
 * The live models of several portfolios of the caller's account, for a DataLoader: one statement,
 * each model's buckets aggregated in it as JSON in the order `select` gives them, the percentages
 * as text with trailing zeros trimmed (BucketText). The GraphQL nesting of portfolios, models and
 * buckets (bench B4) spent more in Prisma's mapping of the nested rows, and then in building a
 * Decimal from each percentage only to write it back as the same text, than in the database.
 */
export async function allocationModelsByPortfolioIds(
  ctx: Context,
  portfolioIds: readonly number[],
): Promise<Map<number, AllocationModelText[]>> {
  const rows = await ctx.db.$queryRaw<AllocationModelText[]>`
    SELECT m.public_id AS "publicId", m.portfolio_id AS "portfolioId", m.name, m.notes, m.dimension,
           m.is_active AS "isActive",
           (SELECT coalesce(json_agg(json_build_object('label', b.label, 'targetPct', trim_scale(b.target_pct)::text,
                      'tolerancePct', trim_scale(b.tolerance_pct)::text, 'sortOrder', b.sort_order)
                    ORDER BY b.sort_order, b.label), '[]')
              FROM allocation_bucket b WHERE b.model_id = m.id) AS buckets
      FROM allocation_model m JOIN portfolio p ON p.id = m.portfolio_id
     WHERE m.portfolio_id = ANY(${[...portfolioIds]}::int[]) AND m.deleted_at IS NULL
       AND ${portfolioScopeSql(ctx, "p")}
     ORDER BY m.created_at, m.id`;
  const byPortfolio = new Map<number, AllocationModelText[]>(portfolioIds.map((id) => [id, []]));
  for (const model of rows) byPortfolio.get(model.portfolioId)?.push(model);
  return byPortfolio;
}

/**
 * A bucket as GraphQL's loader reads it (above): the percentages are the database's text with
 * trailing zeros trimmed ("10", "2.5"), which is how the Decimal scalar writes a Decimal, so it
 * sends them as they are (src/graphql/scalars.ts).
 */
export interface BucketText extends Omit<BucketView, "targetPct" | "tolerancePct"> {
  targetPct: string;
  tolerancePct: string;
}

export interface AllocationModelText extends Omit<AllocationModelView, "buckets"> {
  buckets: BucketText[];
}

/** What GraphQL's AllocationModel and Bucket resolve from: the service's views, or the loader's. */
export type AllocationModelParent = AllocationModelView | AllocationModelText;
export type BucketParent = BucketView | BucketText;

/**
 * A portfolio's active model: the one of its live models flagged active (a partial unique index
 * keeps it to one), or null. GraphQL's Portfolio.activeAllocationModel picks it from the models
 * its DataLoader read for Portfolio.allocationModels, so both fields cost one batch.
 */
export function activeModelOf<M extends { isActive: boolean }>(liveModels: readonly M[]): M | null {
  return liveModels.find((m) => m.isActive) ?? null;
}

/** The active model of the portfolio, or null when it has none. */
export async function getActiveAllocationModel(
  ctx: Context,
  portfolioId: unknown,
): Promise<AllocationModelView | null> {
  const portfolio = await getPortfolio(ctx, portfolioId);
  return ctx.db.allocationModel.findFirst({
    where: { portfolioId: portfolio.id, isActive: true, deletedAt: null },
    select,
  });
}

export async function findAllocationModel(ctx: Context, publicId: unknown): Promise<AllocationModelView | null> {
  return ctx.db.allocationModel.findFirst({ where: liveModel(ctx, parsePublicId(publicId)), select });
}

export async function getAllocationModel(ctx: Context, publicId: unknown): Promise<AllocationModelView> {
  const model = await findAllocationModel(ctx, publicId);
  if (!model) throw notFound(`Allocation model ${String(publicId)}`);
  return model;
}

/**
 * Seed 4.3 create-or-update: an absent or empty publicId inserts, a present one updates that
 * model of this portfolio (NOT_FOUND otherwise). Buckets are replaced as a whole. `isActive: true`
 * activates the model (clearing the others), `false` deactivates it, absent leaves it.
 */
export async function saveAllocationModel(
  ctx: Context,
  portfolioId: unknown,
  input: unknown,
): Promise<{ model: AllocationModelView; created: boolean }> {
  const id = parseId(portfolioId, "portfolioId");
  const data = parseInput(SaveAllocationModelBody, input, "The allocation model");
  assertCanWrite(ctx);
  const publicId = data.publicId?.trim() || undefined;
  const portfolio = await getPortfolio(ctx, id);
  const buckets = data.buckets.map((b, i) => ({
    label: b.label,
    targetPct: b.targetPct.toFixed(),
    tolerancePct: (b.tolerancePct ?? 0).toString(),
    sortOrder: b.sortOrder ?? i,
  }));

  // Under the portfolio's lock, so concurrent saves and activations run one after the other; the
  // partial unique index on the active flag stays the last line of defence.
  return portfolioWrite(ctx, portfolio.id, async (tx) => {
    await assertDimensionGroup(tx, ctx, data.dimension);
    let modelId: number;
    if (publicId) {
      const existing = await tx.allocationModel.findFirst({
        where: { ...liveModel(ctx, publicId), portfolioId: portfolio.id },
        select: { id: true },
      });
      if (!existing) throw notFound(`Allocation model ${publicId} of portfolio ${portfolio.id}`);
      modelId = existing.id;
      if (data.isActive) await clearActive(tx, portfolio.id);
      await tx.allocationBucket.deleteMany({ where: { modelId } });
      await tx.allocationModel.update({
        where: { id: modelId },
        data: {
          name: data.name,
          notes: data.notes ?? "",
          dimension: data.dimension,
          isActive: data.isActive,
          buckets: { createMany: { data: buckets } },
        },
      });
    } else {
      if (data.isActive) await clearActive(tx, portfolio.id);
      const created = await tx.allocationModel.create({
        data: {
          publicId: randomUUID(),
          portfolioId: portfolio.id,
          name: data.name,
          notes: data.notes ?? "",
          dimension: data.dimension,
          isActive: data.isActive ?? false,
          buckets: { createMany: { data: buckets } },
        },
        select: { id: true },
      });
      modelId = created.id;
    }
    const model = await tx.allocationModel.findUniqueOrThrow({ where: { id: modelId }, select });
    return { model, created: !publicId };
  });
}

async function clearActive(tx: Prisma.TransactionClient, portfolioId: number): Promise<void> {
  await tx.allocationModel.updateMany({ where: { portfolioId, isActive: true }, data: { isActive: false } });
}

/** The caller's live model `pid` (NOT_FOUND otherwise), its portfolio locked for the rest of the transaction. */
async function lockModelPortfolio(
  tx: WriteTx,
  ctx: Context,
  pid: string,
): Promise<{ id: number; portfolioId: number }> {
  const target = await tx.allocationModel.findFirst({
    where: liveModel(ctx, pid),
    select: { id: true, portfolioId: true },
  });
  if (!target) throw notFound(`Allocation model ${pid}`);
  await lockPortfolio(tx, ctx, target.portfolioId);
  return target;
}

/** Seed §3: sets the model active and clears the flag on every other model of its portfolio. */
export async function activateAllocationModel(ctx: Context, publicId: unknown): Promise<AllocationModelView> {
  const pid = parsePublicId(publicId);
  assertCanWrite(ctx);
  return write(ctx, async (tx) => {
    const target = await lockModelPortfolio(tx, ctx, pid);
    // Re-read under the lock: a concurrent soft delete or save may have won the race.
    const still = await tx.allocationModel.findFirst({
      where: { id: target.id, deletedAt: null },
      select: { id: true, dimension: true },
    });
    if (!still) throw notFound(`Allocation model ${pid}`);
    await assertDimensionGroup(tx, ctx, still.dimension);
    await tx.allocationModel.updateMany({
      where: { portfolioId: target.portfolioId, isActive: true, NOT: { id: target.id } },
      data: { isActive: false },
    });
    return tx.allocationModel.update({ where: { id: target.id }, data: { isActive: true }, select });
  });
}

/**
 * Soft delete: the row stays (history, audit) but the model leaves every read and is no longer
 * active, so the portfolio's active model becomes null if it was this one.
 */
export async function deleteAllocationModel(ctx: Context, publicId: unknown): Promise<true> {
  const pid = parsePublicId(publicId);
  assertCanWrite(ctx);
  return write(ctx, async (tx) => {
    // Under the portfolio lock, so an activation or save in flight cannot revive the model.
    const target = await lockModelPortfolio(tx, ctx, pid);
    const { count } = await tx.allocationModel.updateMany({
      where: { id: target.id, deletedAt: null },
      data: { deletedAt: new Date(), isActive: false },
    });
    if (count === 0) throw notFound(`Allocation model ${pid}`);
    return true as const;
  });
}
