import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Context } from "../../context";
import type { Prisma } from "../../../generated/prisma/client";
import { DomainError, notFound } from "../../lib/errors";
import type { Decimal } from "../../lib/money";
import { parseId, parseInput } from "../../lib/validation";
import { assertCanWrite, portfolioScope } from "../portfolios/access";
import { getPortfolio } from "../portfolios/portfolios.service";
import {
  customGroupIdOf,
  publicIdInput,
  SaveAllocationModelInput,
  SaveAllocationModelBody,
} from "./allocation-models.schemas";
import { TX_OPTIONS } from "../../db";

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
  portfolio: portfolioScope(ctx),
});

function parsePublicId(value: unknown): string {
  return parseInput(z.object({ publicId: publicIdInput }), { publicId: value }, "The publicId").publicId;
}

/**
 * A `customGroup:{id}` model buckets holdings by that group's labels, so the group must be one of
 * the caller's account. Another account's group answers NOT_FOUND exactly as a missing one (API.md
 * §1 tenancy), on create, update and activation alike (the group may have gone since the save).
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

/** The live models of several portfolios of the caller's account, for a DataLoader. */
export async function allocationModelsByPortfolioIds(
  ctx: Context,
  portfolioIds: readonly number[],
): Promise<Map<number, AllocationModelView[]>> {
  const rows = await ctx.db.allocationModel.findMany({
    where: { portfolioId: { in: [...portfolioIds] }, deletedAt: null, portfolio: portfolioScope(ctx) },
    select,
    orderBy: MODEL_ORDER,
  });
  const byPortfolio = new Map<number, AllocationModelView[]>(portfolioIds.map((id) => [id, []]));
  for (const row of rows) byPortfolio.get(row.portfolioId)?.push(row);
  return byPortfolio;
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
 * Locks the portfolio row for the rest of the transaction. Every change of a portfolio's active
 * flag takes this lock first, so concurrent activations run one after the other; the partial
 * unique index stays the last line of defence.
 */
async function lockPortfolio(tx: Prisma.TransactionClient, portfolioId: number): Promise<void> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT id FROM portfolio WHERE id = ${portfolioId} FOR UPDATE`;
  if (rows.length === 0) throw notFound(`Portfolio ${portfolioId}`);
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

  return ctx.db.$transaction(async (tx) => {
    await lockPortfolio(tx, portfolio.id);
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
  }, TX_OPTIONS);
}

async function clearActive(tx: Prisma.TransactionClient, portfolioId: number): Promise<void> {
  await tx.allocationModel.updateMany({ where: { portfolioId, isActive: true }, data: { isActive: false } });
}

/** Seed §3: sets the model active and clears the flag on every other model of its portfolio. */
export async function activateAllocationModel(ctx: Context, publicId: unknown): Promise<AllocationModelView> {
  const pid = parsePublicId(publicId);
  assertCanWrite(ctx);
  return ctx.db.$transaction(async (tx) => {
    const target = await tx.allocationModel.findFirst({
      where: liveModel(ctx, pid),
      select: { id: true, portfolioId: true },
    });
    if (!target) throw notFound(`Allocation model ${pid}`);
    await lockPortfolio(tx, target.portfolioId);
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
  }, TX_OPTIONS);
}

/**
 * Soft delete: the row stays (history, audit) but the model leaves every read and is no longer
 * active, so the portfolio's active model becomes null if it was this one.
 */
export async function deleteAllocationModel(ctx: Context, publicId: unknown): Promise<true> {
  const pid = parsePublicId(publicId);
  assertCanWrite(ctx);
  return ctx.db.$transaction(async (tx) => {
    const target = await tx.allocationModel.findFirst({
      where: liveModel(ctx, pid),
      select: { id: true, portfolioId: true },
    });
    if (!target) throw notFound(`Allocation model ${pid}`);
    // Under the portfolio lock, so an activation or save in flight cannot revive the model.
    await lockPortfolio(tx, target.portfolioId);
    const { count } = await tx.allocationModel.updateMany({
      where: { id: target.id, deletedAt: null },
      data: { deletedAt: new Date(), isActive: false },
    });
    if (count === 0) throw notFound(`Allocation model ${pid}`);
    return true as const;
  }, TX_OPTIONS);
}
