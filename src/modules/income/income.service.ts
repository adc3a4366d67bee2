import type { Context } from "../../context";
import { businessRule, found, notFound, orNull, removed } from "../../lib/domain-errors";
import { groupedBy } from "../../lib/grouped";
import { parseId, parseInput } from "../../lib/validation";
import { holdingForTrade, holdingWithPortfolio } from "../holdings/holdings.service";
import { ledgerWrite } from "../ledger/unit-of-work";
import { assertCanWrite, type ScopedLookup } from "../ledger/portfolio-access";
import { INCOME_SELECT, incomeWhere, toIncomeView, type IncomeView } from "./income-view";
import { IncomeInput, UpdateIncomeBody } from "./income.schemas";
import { drpOf, newAllotment, newIncomeRecord, storedIncome } from "./stored-income";

export { componentsOf, toIncomeView, type IncomeView } from "./income-view";

/** POST /v1/income: records an income record (unconfirmed unless isConfirmed); a reinvested one creates its parcel. */
export async function createIncome(ctx: Context, input: unknown): Promise<IncomeView> {
  const data = parseInput(IncomeInput, input, "The income");
  assertCanWrite(ctx);
  const holding = await holdingWithPortfolio(ctx, data.holdingId);
  // Units a DRP allots change the parcels: a change that strands a later sell is refused (422).
  return ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    const row = await newIncomeRecord(tx, portfolio, holding, data);
    // New units can still break the ledger: a later consolidation may then leave fractions short.
    const added = newAllotment(row, "this income");
    if (added) await check(holding.id, [added]);
    const created = await tx.income.create({ data: row, select: { id: true } });
    // Read under the locks, so the answer is the record as committed (a racing holding delete waits).
    return getIncome(ctx, created.id, tx);
  });
}

export const findIncome = (ctx: Context, incomeId: unknown) => orNull(getIncome(ctx, incomeId));

export const getIncome: ScopedLookup<IncomeView> = async (ctx, incomeId, db = ctx.db) => {
  const id = parseId(incomeId, "incomeId");
  const row = await db.income.findFirst({ where: { id, ...incomeWhere(ctx) }, select: INCOME_SELECT });
  // The holding comes in a second statement: one deleted in between took the record with it.
  return toIncomeView(found(row?.holding ? row : null, `Income ${id}`));
};

/** GET /v1/holdings/{h}/income: the holding's income records by paid date. */
export async function listHoldingIncome(ctx: Context, holdingId: unknown): Promise<IncomeView[]> {
  const h = await holdingWithPortfolio(ctx, holdingId);
  const rows = await ctx.db.income.findMany({
    where: { holdingId: h.id },
    select: INCOME_SELECT,
    orderBy: [{ paidDate: "asc" }, { id: "asc" }],
  });
  return rows.map(toIncomeView);
}

/** Income of several holdings, for a DataLoader (Holding.income). */
export async function incomeByHoldingIds(
  ctx: Context,
  holdingIds: readonly number[],
): Promise<Map<number, IncomeView[]>> {
  const rows = await ctx.db.income.findMany({
    where: { holdingId: { in: [...holdingIds] }, ...incomeWhere(ctx) },
    select: INCOME_SELECT,
    orderBy: [{ paidDate: "asc" }, { id: "asc" }],
  });
  return groupedBy(holdingIds, rows.map(toIncomeView), (i) => i.holdingId);
}

/** PUT /v1/income/{i}: replaces the record's content; it stays on its holding. */
export async function updateIncome(ctx: Context, incomeId: unknown, input: unknown): Promise<IncomeView> {
  const id = parseId(incomeId, "incomeId");
  const data = parseInput(UpdateIncomeBody, input, "The income");
  assertCanWrite(ctx);
  const existing = found(
    await ctx.db.income.findFirst({ where: { id, ...incomeWhere(ctx) }, select: { holdingId: true } }),
    `Income ${id}`,
  );
  if (existing.holdingId !== data.holdingId)
    throw businessRule(
      `Income ${id} belongs to holding ${existing.holdingId}; to move it, delete it and add it to the other holding.`,
    );
  const holding = await holdingWithPortfolio(ctx, existing.holdingId);
  return ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    const row = await storedIncome(tx, portfolio, holding.currencyCode, data);
    // A record that becomes reinvested adds its allotment; one that stops removes it.
    await check(holding.id, new Map([[`income ${id}`, drpOf(id, row)]]));
    // An edited record is the user's: no provider refresh updates it again (docs/data.md §3).
    // isConfirmed absent keeps the record's state; given, it sets it (estimates are cleared either way).
    await tx.income.update({
      where: { id },
      data: {
        ...row,
        components: row.components ?? undefined,
        origin: "User",
        estimated: [],
        ...(data.isConfirmed === undefined ? {} : { isConfirmed: data.isConfirmed }),
      },
    });
    await tx.providerIncome.updateMany({ where: { incomeId: id }, data: { userOwned: true } });
    return getIncome(ctx, id, tx);
  });
}

/** PUT /v1/income/{i}/confirm: only confirmed income enters tax reports. */
export async function confirmIncome(ctx: Context, incomeId: unknown): Promise<IncomeView> {
  const id = parseId(incomeId, "incomeId");
  assertCanWrite(ctx);
  // Confirming a provider's record accepts its estimates: nothing is estimated any more.
  const { count } = await ctx.db.income.updateMany({
    where: { id, ...incomeWhere(ctx) },
    data: { isConfirmed: true, estimated: [] },
  });
  if (count === 0) throw notFound(`Income ${id}`);
  return getIncome(ctx, id);
}

export async function deleteIncome(ctx: Context, incomeId: unknown): Promise<true> {
  const id = parseId(incomeId, "incomeId");
  assertCanWrite(ctx);
  const existing = found(
    await ctx.db.income.findFirst({ where: { id, ...incomeWhere(ctx) }, select: { holdingId: true } }),
    `Income ${id}`,
  );
  const holding = await holdingWithPortfolio(ctx, existing.holdingId);
  await ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    await check(holding.id, new Map([[`income ${id}`, null]]));
    removed(await tx.income.deleteMany({ where: { id } }), `Income ${id}`);
  });
  return true;
}
