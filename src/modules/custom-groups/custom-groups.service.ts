import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { businessRule, DomainError, notFound, validationFailed } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { holdingWhere } from "../holdings/holdings.service";
import { assertAdviser } from "../ledger/portfolio-access";
import { CreateCustomGroupInput, SetCustomGroupAssignmentsInput, UpdateCustomGroupBody } from "./custom-groups.schemas";
import { write } from "../ledger/write";

/**
 * Custom groups: the account's own classifications of holdings. They are account-wide,
 * so only the adviser changes them; a client login key may read them, and sees the assignments of
 * its own portfolios' holdings only.
 */
export interface CustomGroupView {
  id: number;
  name: string;
  labels: string[];
}

export interface CustomGroupAssignmentView {
  holdingId: number;
  label: string;
}

const select = { id: true, name: true, labels: true } satisfies Prisma.CustomGroupSelect;
const ASSIGNMENT_ORDER = { holdingId: "asc" } satisfies Prisma.CustomGroupAssignmentOrderByWithRelationInput;

/**
 * Locks the group row for the rest of the transaction: a label change and an assignment change
 * of one group run one after the other, so no assignment can point at a label just removed.
 */
async function lockGroup(tx: Prisma.TransactionClient, ctx: Context, groupId: number): Promise<CustomGroupView> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT id FROM custom_group WHERE id = ${groupId} AND account_id = ${ctx.account.id} FOR UPDATE`;
  if (rows.length === 0) throw notFound(`Custom group ${groupId}`);
  return tx.customGroup.findUniqueOrThrow({ where: { id: groupId }, select });
}

/** Names are unique in an account; the unique index stays the last line of defence against races. */
async function assertNameFree(
  tx: Prisma.TransactionClient,
  ctx: Context,
  name: string,
  exceptId?: number,
): Promise<void> {
  const clash = await tx.customGroup.findFirst({
    where: { accountId: ctx.account.id, name, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new DomainError("CONFLICT", `A custom group named "${name}" already exists (id ${clash.id}).`);
}

export async function listCustomGroups(ctx: Context): Promise<CustomGroupView[]> {
  return ctx.db.customGroup.findMany({ where: { accountId: ctx.account.id }, select, orderBy: { id: "asc" } });
}

/** The group, or null when it does not exist or belongs to another account. */
export async function findCustomGroup(ctx: Context, id: unknown): Promise<CustomGroupView | null> {
  const groupId = parseId(id, "groupId");
  return ctx.db.customGroup.findFirst({ where: { id: groupId, accountId: ctx.account.id }, select });
}

export async function getCustomGroup(ctx: Context, id: unknown): Promise<CustomGroupView> {
  const group = await findCustomGroup(ctx, id);
  if (!group) throw notFound(`Custom group ${String(id)}`);
  return group;
}

export async function createCustomGroup(ctx: Context, input: unknown): Promise<CustomGroupView> {
  const data = parseInput(CreateCustomGroupInput, input, "The custom group");
  assertAdviser(ctx, "create custom groups");
  return write(ctx, async (tx) => {
    await assertNameFree(tx, ctx, data.name);
    return tx.customGroup.create({ data: { accountId: ctx.account.id, name: data.name, labels: data.labels }, select });
  });
}

/**
 * Renames the group or replaces its labels. A label some holding still carries cannot go
 * (BUSINESS_RULE naming it): reassign those holdings first.
 */
export async function updateCustomGroup(ctx: Context, id: unknown, input: unknown): Promise<CustomGroupView> {
  const groupId = parseId(id, "groupId");
  const data = parseInput(UpdateCustomGroupBody, input, "The custom group");
  assertAdviser(ctx, "change custom groups");
  return write(ctx, async (tx) => {
    const group = await lockGroup(tx, ctx, groupId);
    if (data.name !== undefined && data.name !== group.name) await assertNameFree(tx, ctx, data.name, groupId);
    if (data.labels) {
      const stranded = await tx.customGroupAssignment.findMany({
        where: { groupId, label: { notIn: data.labels } },
        select: { holdingId: true, label: true },
        orderBy: [{ label: "asc" }, { holdingId: "asc" }],
      });
      if (stranded.length > 0) {
        const byLabel = new Map<string, number[]>();
        for (const a of stranded) byLabel.set(a.label, [...(byLabel.get(a.label) ?? []), a.holdingId]);
        const list = [...byLabel].map(([label, holdings]) => `"${label}" (holdings ${holdings.join(", ")})`).join(", ");
        throw businessRule(
          `Labels still assigned to holdings cannot be removed: ${list}. Reassign those holdings first.`,
        );
      }
    }
    return tx.customGroup.update({ where: { id: groupId }, data: { name: data.name, labels: data.labels }, select });
  });
}

/** Deletes the group with its assignments (foreign keys cascade). */
export async function deleteCustomGroup(ctx: Context, id: unknown): Promise<true> {
  const groupId = parseId(id, "groupId");
  assertAdviser(ctx, "delete custom groups");
  const { count } = await ctx.db.customGroup.deleteMany({ where: { id: groupId, accountId: ctx.account.id } });
  if (count === 0) throw notFound(`Custom group ${groupId}`);
  return true;
}

/** GET /v1/custom-groups/{g}/assignments: the labels of the holdings the caller may see, by holding. */
export async function listCustomGroupAssignments(ctx: Context, id: unknown): Promise<CustomGroupAssignmentView[]> {
  const group = await getCustomGroup(ctx, id);
  return ctx.db.customGroupAssignment.findMany({
    where: { groupId: group.id, holding: holdingWhere(ctx) },
    select: { holdingId: true, label: true },
    orderBy: ASSIGNMENT_ORDER,
  });
}

/** The assignments of several groups of the caller's account, for a DataLoader (CustomGroup.assignments). */
export async function assignmentsByGroupIds(
  ctx: Context,
  groupIds: readonly number[],
): Promise<Map<number, CustomGroupAssignmentView[]>> {
  const rows = await ctx.db.customGroupAssignment.findMany({
    where: { groupId: { in: [...groupIds] }, group: { accountId: ctx.account.id }, holding: holdingWhere(ctx) },
    select: { groupId: true, holdingId: true, label: true },
    orderBy: ASSIGNMENT_ORDER,
  });
  const byGroup = new Map<number, CustomGroupAssignmentView[]>(groupIds.map((gid) => [gid, []]));
  for (const r of rows) byGroup.get(r.groupId)?.push({ holdingId: r.holdingId, label: r.label });
  return byGroup;
}

/**
 * PUT /v1/custom-groups/{g}/assignments: replaces every assignment of the group. Each label must
 * be one of the group's (VALIDATION_FAILED at `[i].label`), each holding one of this account's
 * (NOT_FOUND naming it).
 */
export async function setCustomGroupAssignments(
  ctx: Context,
  id: unknown,
  input: unknown,
): Promise<CustomGroupAssignmentView[]> {
  const groupId = parseId(id, "groupId");
  const assignments = parseInput(SetCustomGroupAssignmentsInput, input, "The assignments");
  assertAdviser(ctx, "change custom group assignments");
  await write(ctx, async (tx) => {
    const group = await lockGroup(tx, ctx, groupId);
    const labels = new Set(group.labels);
    const badLabels = assignments.flatMap((a, i) =>
      labels.has(a.label) ? [] : [{ path: `[${i}].label`, message: `is not a label of custom group ${groupId}` }],
    );
    if (badLabels.length > 0) {
      const detail =
        badLabels.length === 1
          ? `${badLabels[0].path}: ${badLabels[0].message}`
          : `${badLabels.length} fields are invalid.`;
      throw validationFailed(`The assignments are invalid: ${detail}`, badLabels);
    }
    const holdingIds = assignments.map((a) => a.holdingId);
    // Holdings before the rows under them (the ledger's lock order): a holding deleted meanwhile
    // goes first or waits, and never waits on this group's assignments while they wait on it.
    const found = await tx.$queryRaw<{ id: number }[]>`
      SELECT h.id FROM holding h JOIN portfolio p ON p.id = h.portfolio_id
      WHERE h.id = ANY(${holdingIds}::int[]) AND p.account_id = ${ctx.account.id}
      ORDER BY h.id FOR KEY SHARE OF h`;
    const known = new Set(found.map((h) => h.id));
    const missing = holdingIds.find((h) => !known.has(h));
    if (missing !== undefined) throw notFound(`Holding ${missing}`);
    await tx.customGroupAssignment.deleteMany({ where: { groupId } });
    await tx.customGroupAssignment.createMany({
      data: assignments.map((a) => ({ groupId, holdingId: a.holdingId, label: a.label })),
    });
  });
  return listCustomGroupAssignments(ctx, groupId);
}
