import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { fromDate, toDate } from "../../lib/dates";
import { DomainError, found, orNull, removed, type FieldError } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { parseId, parseInput } from "../../lib/validation";
import { holdingWhere, holdingWithPortfolio } from "../holdings/holdings.service";
import { assertCanWrite } from "../ledger/portfolio-access";
import { rowError } from "../../lib/bulk";
import { bulkRows, validateRows } from "./bulk-rows";
import { CustomPriceInput, MAX_CUSTOM_PRICES, UpdateCustomPriceBody } from "./prices.schemas";

/**
 * A custom investment's own prices (a holding's), entered one by one or in bulk. Market prices and
 * exchange rates, imported per account: imported-prices.service.ts.
 */
export interface CustomPriceView {
  id: number;
  holdingId: number;
  date: string;
  /** Per unit, in the holding's currency. */
  price: Decimal;
}

const PRICE_SELECT = { id: true, holdingId: true, date: true, price: true } satisfies Prisma.CustomPriceSelect;
type PriceRow = Prisma.CustomPriceGetPayload<{ select: typeof PRICE_SELECT }>;

const priceView = (p: PriceRow): CustomPriceView => ({
  id: p.id,
  holdingId: p.holdingId,
  date: fromDate(p.date),
  price: new Decimal(p.price),
});
const priceScope = (ctx: Context): Prisma.CustomPriceWhereInput => ({ holding: holdingWhere(ctx) });

function dateList(dates: string[]): string {
  const shown = dates.slice(0, 20).join(", ");
  return dates.length > 20 ? `${shown} and ${dates.length - 20} more` : shown;
}

/** GET /v1/holdings/{h}/prices: the holding's custom prices, oldest first. */
export async function listCustomPrices(ctx: Context, holdingId: unknown): Promise<CustomPriceView[]> {
  const h = await holdingWithPortfolio(ctx, holdingId);
  const rows = await ctx.db.customPrice.findMany({
    where: { holdingId: h.id },
    select: PRICE_SELECT,
    orderBy: { date: "asc" },
  });
  return rows.map(priceView);
}

export const findCustomPrice = (ctx: Context, priceId: unknown) => orNull(getCustomPrice(ctx, priceId));

export async function getCustomPrice(ctx: Context, priceId: unknown): Promise<CustomPriceView> {
  const id = parseId(priceId, "priceId");
  const row = await ctx.db.customPrice.findFirst({ where: { id, ...priceScope(ctx) }, select: PRICE_SELECT });
  return priceView(found(row, `Price ${id}`));
}

/** One price per holding per date (docs/rules.md §7): a second one on a date is a CONFLICT. */
export async function addCustomPrice(ctx: Context, holdingId: unknown, input: unknown): Promise<CustomPriceView> {
  const id = parseId(holdingId, "holdingId");
  const data = parseInput(CustomPriceInput, input, "The price");
  assertCanWrite(ctx);
  const h = await holdingWithPortfolio(ctx, id);
  const existing = await ctx.db.customPrice.findFirst({
    where: { holdingId: h.id, date: toDate(data.date) },
    select: { id: true },
  });
  if (existing)
    throw new DomainError("CONFLICT", `Holding ${h.id} already has a price on ${data.date} (id ${existing.id}).`);
  const row = await ctx.db.customPrice.create({
    data: { holdingId: h.id, date: toDate(data.date), price: data.price.toFixed() },
    select: PRICE_SELECT,
  });
  return priceView(row);
}

/**
 * POST /v1/holdings/{h}/prices/bulk: all or nothing. A date repeated in the body or already
 * priced is a CONFLICT naming the dates; the insert is one statement, so a racing writer makes
 * it fail whole too. Answers the new prices, oldest first.
 */
export async function addCustomPrices(ctx: Context, holdingId: unknown, input: unknown): Promise<CustomPriceView[]> {
  const id = parseId(holdingId, "holdingId");
  const given = await bulkRows(input, ["date", "price"], MAX_CUSTOM_PRICES, "The prices");
  const prices = await validateRows(CustomPriceInput, given, "The prices");
  assertCanWrite(ctx);
  const h = await holdingWithPortfolio(ctx, id);
  const dates = prices.map((p) => p.date);
  // Each conflict names its row's line, as a bad row does.
  const firstLine = new Map<string, number>();
  const repeatedDates = new Set<string>();
  const repeats: FieldError[] = [];
  dates.forEach((d, i) => {
    const first = firstLine.get(d);
    if (first === undefined) return void firstLine.set(d, given[i].line);
    repeatedDates.add(d);
    repeats.push(rowError(given[i].line, "date", `repeats line ${first}: one price per holding per date`));
  });
  if (repeats.length > 0)
    throw new DomainError(
      "CONFLICT",
      `The prices repeat dates: ${dateList([...repeatedDates].sort())}. One price per holding per date.`,
      repeats,
    );
  const taken = await ctx.db.customPrice.findMany({
    where: { holdingId: h.id, date: { in: dates.map(toDate) } },
    select: { date: true },
    orderBy: { date: "asc" },
  });
  if (taken.length > 0) {
    const takenDates = taken.map((t) => fromDate(t.date));
    throw new DomainError(
      "CONFLICT",
      `Holding ${h.id} already has prices on ${dateList(takenDates)}.`,
      takenDates.map((d) => rowError(firstLine.get(d)!, "date", `is ${d}, a date the holding already has a price on`)),
    );
  }
  const rows = await ctx.db.customPrice.createManyAndReturn({
    data: prices.map((p) => ({ holdingId: h.id, date: toDate(p.date), price: p.price.toFixed() })),
    select: PRICE_SELECT,
  });
  return rows.map(priceView).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export async function updateCustomPrice(ctx: Context, priceId: unknown, input: unknown): Promise<CustomPriceView> {
  const id = parseId(priceId, "priceId");
  const data = parseInput(UpdateCustomPriceBody, input, "The price");
  assertCanWrite(ctx);
  const current = await getCustomPrice(ctx, id);
  if (data.date && data.date !== current.date) {
    const clash = await ctx.db.customPrice.findFirst({
      where: { holdingId: current.holdingId, date: toDate(data.date) },
      select: { id: true },
    });
    if (clash)
      throw new DomainError(
        "CONFLICT",
        `Holding ${current.holdingId} already has a price on ${data.date} (id ${clash.id}).`,
      );
  }
  const row = await ctx.db.customPrice.update({
    where: { id },
    data: { date: data.date ? toDate(data.date) : undefined, price: data.price?.toFixed() },
    select: PRICE_SELECT,
  });
  return priceView(row);
}

export async function deleteCustomPrice(ctx: Context, priceId: unknown): Promise<true> {
  const id = parseId(priceId, "priceId");
  assertCanWrite(ctx);
  return removed(await ctx.db.customPrice.deleteMany({ where: { id, ...priceScope(ctx) } }), `Price ${id}`);
}
