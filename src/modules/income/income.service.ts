import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { financialYearRange, fromDate, toDate } from "../../lib/dates";
import { businessRule, notFound, orNull, validationFailed } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import { parseId, parseInput } from "../../lib/validation";
import { holdingForTrade, holdingScope, holdingWithPortfolio } from "../holdings/holdings.service";
import { drpEvent } from "../ledger";
import { incomeAmounts } from "../ledger/cash-effects";
import { ledgerWrite } from "../ledger/unit-of-work";
import { assertCanWrite } from "../portfolios/access";
import type { ScopedPortfolio } from "../portfolios/scoped";
import { tradeExchangeRate } from "../trades/trade-exchange-rate";
import { IncomeInput, ProRataInput, UpdateIncomeBody } from "./income.schemas";
import { frankingCredit, spreadProRata } from "./pro-rata";

export interface IncomeView {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  exDividendDate: string;
  paidDate: string;
  frankedAmount: Decimal;
  unfrankedAmount: Decimal;
  frankingCredits: Decimal;
  foreignIncome: Decimal;
  foreignTaxPaid: Decimal;
  withholdingTax: Decimal;
  grossAmount: Decimal;
  netAmount: Decimal;
  currencyCode: string;
  exchangeRate: Decimal;
  isTrustIncome: boolean;
  isReinvested: boolean;
  drpQuantity: Decimal | null;
  drpPrice: Decimal | null;
  components: Record<string, Decimal> | null;
  notes: string;
  isConfirmed: boolean;
}

const INCOME_SELECT = {
  id: true,
  holdingId: true,
  portfolioId: true,
  exDividendDate: true,
  paidDate: true,
  frankedAmount: true,
  unfrankedAmount: true,
  frankingCredits: true,
  foreignIncome: true,
  foreignTaxPaid: true,
  withholdingTax: true,
  currencyCode: true,
  exchangeRate: true,
  isTrustIncome: true,
  isReinvested: true,
  drpQuantity: true,
  drpPrice: true,
  components: true,
  notes: true,
  isConfirmed: true,
  holding: { select: { symbol: true, exchange: true } },
} satisfies Prisma.IncomeSelect;
type IncomeRow = Prisma.IncomeGetPayload<{ select: typeof INCOME_SELECT }>;

const D = (v: Prisma.Decimal | Decimal | null | undefined) => new Decimal(v ?? 0);

/** A stored components column (name → decimal text) as Decimals; null when there are none. */
export function componentsOf(json: unknown): Record<string, Decimal> | null {
  return json && typeof json === "object"
    ? Object.fromEntries(Object.entries(json as Record<string, string>).map(([k, v]) => [k, new Decimal(v)]))
    : null;
}

export function toIncomeView(r: IncomeRow): IncomeView {
  const amounts = {
    frankedAmount: D(r.frankedAmount),
    unfrankedAmount: D(r.unfrankedAmount),
    foreignIncome: D(r.foreignIncome),
    withholdingTax: D(r.withholdingTax),
    foreignTaxPaid: D(r.foreignTaxPaid),
  };
  const components = componentsOf(r.components);
  return {
    id: r.id,
    holdingId: r.holdingId,
    portfolioId: r.portfolioId,
    symbol: r.holding.symbol,
    exchange: r.holding.exchange,
    exDividendDate: fromDate(r.exDividendDate),
    paidDate: fromDate(r.paidDate),
    ...amounts,
    frankingCredits: D(r.frankingCredits),
    ...incomeAmounts(amounts),
    currencyCode: r.currencyCode,
    exchangeRate: D(r.exchangeRate),
    isTrustIncome: r.isTrustIncome,
    isReinvested: r.isReinvested,
    drpQuantity: r.drpQuantity === null ? null : D(r.drpQuantity),
    drpPrice: r.drpPrice === null ? null : D(r.drpPrice),
    components,
    notes: r.notes,
    isConfirmed: r.isConfirmed,
  };
}

const incomeScope = (ctx: Context): Prisma.IncomeWhereInput => ({ holding: holdingScope(ctx) });

/** The stored amounts of an income input, with the franking credit and DRP price worked out. */
async function prepare(
  db: Prisma.TransactionClient,
  portfolio: ScopedPortfolio,
  holdingCurrency: string,
  data: IncomeInput,
) {
  const zero = new Decimal(0);
  let franked = data.frankedAmount ?? zero;
  let unfranked = data.unfrankedAmount ?? zero;
  const foreign = data.foreignIncome ?? zero;
  const withholding = data.withholdingTax ?? zero;
  const foreignTax = data.foreignTaxPaid ?? zero;
  const noAmounts =
    data.frankedAmount === undefined && data.unfrankedAmount === undefined && data.foreignIncome === undefined;
  if (data.netAmount && noAmounts) unfranked = data.netAmount.plus(withholding).plus(foreignTax); // a plain cash dividend
  const { grossAmount, netAmount } = incomeAmounts({
    frankedAmount: franked,
    unfrankedAmount: unfranked,
    foreignIncome: foreign,
    withholdingTax: withholding,
    foreignTaxPaid: foreignTax,
  });
  const errors: { path: string; message: string }[] = [];
  if (data.netAmount && !noAmounts && !data.netAmount.eq(netAmount)) {
    errors.push({
      path: "netAmount",
      message: `must equal gross − withholding tax − foreign tax paid (${netAmount.toFixed()}), or be left out`,
    });
  }
  if (withholding.gt(grossAmount)) errors.push({ path: "withholdingTax", message: "must not exceed the gross amount" });
  else if (withholding.plus(foreignTax).gt(grossAmount))
    errors.push({
      path: "foreignTaxPaid",
      message: "withholding tax plus foreign tax paid must not exceed the gross amount",
    });
  // DECIMAL(19,4) and DECIMAL(24,8) columns: answer 400 before the database would fail.
  if (grossAmount.gte(1e15) || unfranked.gte(1e15))
    errors.push({ path: "netAmount", message: "the amounts must stay below 10^15" });
  if (
    data.isReinvested &&
    data.drpQuantity &&
    !data.drpQuantity.isZero() &&
    !data.drpPrice &&
    netAmount.div(data.drpQuantity).gte(1e16)
  ) {
    errors.push({ path: "drpPrice", message: "net ÷ drpQuantity is too large for a price; give drpPrice" });
  }
  if (grossAmount.isZero() && !data.components)
    errors.push({
      path: "netAmount",
      message: "an income record needs an amount: frankedAmount, unfrankedAmount, foreignIncome or netAmount",
    });
  if (errors.length) throw validationFailed(`The income is invalid: ${errors[0].path}: ${errors[0].message}`, errors);
  franked = franked.toDecimalPlaces(4);
  const credits = data.frankingCredits ?? frankingCredit(franked, data.companyTaxRate ?? new Decimal("0.3"));
  const currencyCode = data.currencyCode ?? holdingCurrency;
  const drpQuantity = data.isReinvested ? data.drpQuantity! : null;
  const drpPrice = data.isReinvested
    ? (data.drpPrice ?? netAmount.div(drpQuantity!).toDecimalPlaces(8, Decimal.ROUND_HALF_UP))
    : null;
  return {
    exDividendDate: toDate(data.exDividendDate),
    paidDate: toDate(data.paidDate),
    frankedAmount: franked.toFixed(),
    unfrankedAmount: unfranked.toFixed(),
    frankingCredits: credits.toFixed(),
    foreignIncome: foreign.toFixed(),
    foreignTaxPaid: foreignTax.toFixed(),
    withholdingTax: withholding.toFixed(),
    currencyCode,
    exchangeRate: (await tradeExchangeRate(db, portfolio, currencyCode, data.paidDate, data.exchangeRate)).toFixed(),
    isTrustIncome: data.isTrustIncome ?? false,
    isReinvested: data.isReinvested ?? false,
    drpQuantity: drpQuantity?.toFixed() ?? null,
    drpPrice: drpPrice?.toFixed() ?? null,
    components: data.components
      ? Object.fromEntries(Object.entries(data.components).map(([k, v]) => [k, v.toFixed()]))
      : undefined,
    notes: data.notes ?? "",
  };
}

function drpOf(
  id: number,
  d: { paidDate: Date; drpQuantity: string | null; drpPrice: string | null; exchangeRate: string },
) {
  return d.drpQuantity
    ? drpEvent({
        id,
        paidDate: d.paidDate,
        drpQuantity: new Decimal(d.drpQuantity),
        drpPrice: d.drpPrice ? new Decimal(d.drpPrice) : null,
        exchangeRate: new Decimal(d.exchangeRate),
      })
    : null;
}

/** POST /v1/income: records an unconfirmed income record; a reinvested one creates its parcel. */
export async function createIncome(ctx: Context, input: unknown): Promise<IncomeView> {
  const data = parseInput(IncomeInput, input, "The income");
  assertCanWrite(ctx);
  const holding = await holdingWithPortfolio(ctx, data.holdingId);
  // Units a DRP allots change the parcels: a change that strands a later sell is refused (422).
  return ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    const row = await prepare(tx, portfolio, holding.currencyCode, data);
    // New units can still break the ledger: a later consolidation may then leave fractions short.
    // seq -1: after the other allotments of its day, before its trades, as once stored.
    const added = drpOf(0, row);
    if (added) await check(holding.id, [{ ...added, key: "this income", seq: -1 }]);
    const created = await tx.income.create({
      data: {
        ...row,
        components: row.components ?? undefined,
        holdingId: holding.id,
        portfolioId: holding.portfolioId,
      },
      select: { id: true },
    });
    // Read under the locks, so the answer is the record as committed (a racing holding delete waits).
    return getIncome(ctx, created.id, tx);
  });
}

export const findIncome = (ctx: Context, incomeId: unknown) => orNull(getIncome(ctx, incomeId));

export async function getIncome(
  ctx: Context,
  incomeId: unknown,
  db: Prisma.TransactionClient = ctx.db,
): Promise<IncomeView> {
  const id = parseId(incomeId, "incomeId");
  const row = await db.income.findFirst({ where: { id, ...incomeScope(ctx) }, select: INCOME_SELECT });
  // The holding comes in a second statement: one deleted in between took the record with it.
  if (!row || !row.holding) throw notFound(`Income ${id}`);
  return toIncomeView(row);
}

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
    where: { holdingId: { in: [...holdingIds] }, ...incomeScope(ctx) },
    select: INCOME_SELECT,
    orderBy: [{ paidDate: "asc" }, { id: "asc" }],
  });
  const by = new Map<number, IncomeView[]>(holdingIds.map((id) => [id, []]));
  for (const r of rows) by.get(r.holdingId)?.push(toIncomeView(r));
  return by;
}

/** PUT /v1/income/{i}: replaces the record's content; it stays on its holding. */
export async function updateIncome(ctx: Context, incomeId: unknown, input: unknown): Promise<IncomeView> {
  const id = parseId(incomeId, "incomeId");
  const data = parseInput(UpdateIncomeBody, input, "The income");
  assertCanWrite(ctx);
  const existing = await ctx.db.income.findFirst({ where: { id, ...incomeScope(ctx) }, select: { holdingId: true } });
  if (!existing) throw notFound(`Income ${id}`);
  if (existing.holdingId !== data.holdingId)
    throw businessRule(
      `Income ${id} belongs to holding ${existing.holdingId}; to move it, delete it and add it to the other holding.`,
    );
  const holding = await holdingWithPortfolio(ctx, existing.holdingId);
  return ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    const row = await prepare(tx, portfolio, holding.currencyCode, data);
    // A record that becomes reinvested adds its allotment; one that stops removes it.
    await check(holding.id, new Map([[`income ${id}`, drpOf(id, row)]]));
    await tx.income.update({ where: { id }, data: { ...row, components: row.components ?? undefined } });
    return getIncome(ctx, id, tx);
  });
}

/** PUT /v1/income/{i}/confirm: only confirmed income enters tax reports. */
export async function confirmIncome(ctx: Context, incomeId: unknown): Promise<IncomeView> {
  const id = parseId(incomeId, "incomeId");
  assertCanWrite(ctx);
  const { count } = await ctx.db.income.updateMany({ where: { id, ...incomeScope(ctx) }, data: { isConfirmed: true } });
  if (count === 0) throw notFound(`Income ${id}`);
  return getIncome(ctx, id);
}

export async function deleteIncome(ctx: Context, incomeId: unknown): Promise<true> {
  const id = parseId(incomeId, "incomeId");
  assertCanWrite(ctx);
  const existing = await ctx.db.income.findFirst({ where: { id, ...incomeScope(ctx) }, select: { holdingId: true } });
  if (!existing) throw notFound(`Income ${id}`);
  const holding = await holdingWithPortfolio(ctx, existing.holdingId);
  await ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio, check }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    await check(holding.id, new Map([[`income ${id}`, null]]));
    const { count } = await tx.income.deleteMany({ where: { id } });
    if (count === 0) throw notFound(`Income ${id}`);
  });
  return true;
}

/**
 * PUT /v1/holdings/{h}/pro-rata-distributions: spreads the year's AMIT statement totals over the
 * holding's distributions with an ex-dividend date in that financial year, by gross amount; the
 * parts add up exactly to the totals. Returns the updated records.
 */
export async function updateProRataDistributions(
  ctx: Context,
  holdingId: unknown,
  input: unknown,
): Promise<IncomeView[]> {
  const data = parseInput(ProRataInput, input, "The statement");
  assertCanWrite(ctx);
  const holding = await holdingWithPortfolio(ctx, holdingId);
  // The amounts spread over are read under the ledger's locks: an income edit commits first or waits.
  return ledgerWrite(ctx, holding.portfolioId, async ({ tx, portfolio }) => {
    await holdingForTrade(tx, ctx, portfolio, { holdingId: holding.id });
    const { from, to } = financialYearRange(data.financialYear, portfolio.financialYearEnd);
    const rows = await tx.income.findMany({
      where: { holdingId: holding.id, exDividendDate: { gte: toDate(from), lte: toDate(to) } },
      select: INCOME_SELECT,
      orderBy: [{ exDividendDate: "asc" }, { id: "asc" }],
    });
    const distributions = rows.map((r) => ({ id: r.id, grossAmount: toIncomeView(r).grossAmount }));
    if (distributions.every((d) => d.grossAmount.isZero())) {
      throw businessRule(
        `Holding ${holding.id} has no distribution with an amount and an ex-dividend date in FY${data.financialYear} (${from} to ${to}).`,
      );
    }
    const parts = spreadProRata(distributions, data.components);
    for (const [id, components] of parts) {
      await tx.income.update({
        where: { id },
        data: {
          isTrustIncome: true,
          components: Object.fromEntries(Object.entries(components).map(([k, v]) => [k, v.toFixed()])),
        },
      });
    }
    const updated = await tx.income.findMany({
      where: { id: { in: distributions.map((d) => d.id) } },
      select: INCOME_SELECT,
      orderBy: [{ exDividendDate: "asc" }, { id: "asc" }],
    });
    return updated.map(toIncomeView);
  });
}
