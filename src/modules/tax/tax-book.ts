import type { z } from "zod";
import type { Context } from "../../context";
import { financialYearOf, financialYearRange, fromDate, today } from "../../lib/dates";
import { businessRule } from "../../lib/domain-errors";
import { groupedBy } from "../../lib/grouped";
import { readBySlices } from "../../lib/id-slices";
import { Decimal } from "../../lib/money";
import {
  atOneMoment,
  discountRateOf,
  foldHolding,
  loadLedgers,
  roundMoney,
  type EntityType,
  type FoldResult,
  type Ledger,
} from "../ledger";
import { PORTFOLIO_LEDGER_SELECT, portfolioWhere, scopedPortfolio } from "../ledger/portfolio-access";
import { parseId, parseInput } from "../../lib/validation";
import { heavyWork } from "../../lib/heavy-work";
import type { CgtGain, TrustCapitalGain } from "./cgt";
import { disposalRows, type DisposalRow } from "./disposal-rows";

/**
 * What every tax report reads (docs/reports.md §5): the portfolio (AUD-based, AU-resident, or 422),
 * its CGT events folded from the ledger with the parcel method that applied, the capital gains its
 * trusts distributed, and the losses entered in its tax settings; in a fixed number of statements.
 */
export const TAX_PORTFOLIO_SELECT = { ...PORTFOLIO_LEDGER_SELECT, name: true, taxResidency: true } as const;

export async function taxPortfolio(ctx: Context, portfolioId: unknown) {
  const portfolio = await scopedPortfolio(ctx, portfolioId, ctx.db, TAX_PORTFOLIO_SELECT);
  if (portfolio.baseCurrencyCode !== "AUD" || portfolio.taxResidency !== "AU") {
    throw businessRule(
      `Australian tax reports are for portfolios in AUD with Australian tax residency; portfolio ${portfolio.id} is in ${portfolio.baseCurrencyCode}, resident in ${portfolio.taxResidency}.`,
    );
  }
  return { ...portfolio, entityType: portfolio.entityType as EntityType };
}
export type TaxPortfolio = Awaited<ReturnType<typeof taxPortfolio>>;

/**
 * The caller's portfolios among `portfolioIds` that the tax reports take (AUD base, AU residency),
 * in id order, in one statement; the others are simply absent (a book's overview skips them).
 */
export async function taxPortfolios(ctx: Context, portfolioIds: readonly number[]): Promise<TaxPortfolio[]> {
  const rows = await readBySlices(
    [...portfolioIds].sort((a, b) => a - b),
    (slice) =>
      ctx.db.portfolio.findMany({
        where: { id: { in: slice }, ...portfolioWhere(ctx), baseCurrencyCode: "AUD", taxResidency: "AU" },
        select: TAX_PORTFOLIO_SELECT,
        orderBy: { id: "asc" },
      }),
  );
  return rows.map((p) => ({ ...p, entityType: p.entityType as EntityType }) as TaxPortfolio);
}

/**
 * What a report reads of the caller's portfolio `portfolioId`, as of one moment of its ledger and
 * its account's prices and rates (ledger/moment.ts): a write landing among the report's statements
 * has them read again. The portfolio row (its methods, entity type, year end) is read inside it.
 */
export function readTaxPortfolio<T>(
  ctx: Context,
  portfolioId: unknown,
  read: (portfolio: TaxPortfolio) => Promise<T>,
): Promise<T> {
  const id = parseId(portfolioId, "portfolioId");
  return atOneMoment(ctx.db, { portfolioIds: [id], accountId: ctx.account.id }, async () =>
    read(await taxPortfolio(ctx, id)),
  ).then((m) => m.value);
}

/**
 * A tax report's use case, run as heavy work (lib/heavy-work) with its query parsed inside the
 * gate: a full service refuses (429/503) before it reads the query.
 */
export function taxReport<S extends z.ZodType, T>(
  ctx: Context,
  schema: S,
  query: unknown,
  report: (request: z.output<S>) => Promise<T>,
): Promise<T> {
  return heavyWork(ctx, async () => report(parseInput(schema, query ?? {}, "The query")));
}

/**
 * The financial year a report asks for, else the portfolio's current one (by its year end and
 * today's UTC date), with its first and last day.
 */
export function reportYear(asked: number | undefined, portfolio: { financialYearEnd: string }) {
  const financialYear = asked ?? financialYearOf(today(), portfolio.financialYearEnd);
  return { financialYear, ...financialYearRange(financialYear, portfolio.financialYearEnd) };
}

export interface TaxBook {
  discountRate: Decimal;
  /** Every CGT event up to the date asked for, in date order (then sale, then parcel order). */
  disposals: DisposalRow[];
  /** Trust capital gains by the income year of their distribution (confirmed income only). */
  trustGains: Map<number, TrustCapitalGain[]>;
  /** Losses entered in the tax settings, by the year they name. */
  entered: Map<number, Decimal>;
  ledger: Ledger;
  /** Each holding's fold up to the date asked for (its open parcels, for unrealised gains). */
  folds: Map<number, FoldResult>;
  holdings: Map<number, { symbol: string; exchange: string; currencyCode: string }>;
}

export async function loadTaxBook(ctx: Context, portfolio: TaxPortfolio, until: string): Promise<TaxBook> {
  return (await loadTaxBooks(ctx, [portfolio], until)).get(portfolio.id)!;
}

/**
 * loadTaxBook for several portfolios of the caller at once, in the same statements as one (the tax
 * planner's overview of a book, docs/reports.md §6.1): a fixed number whatever their number.
 */
export async function loadTaxBooks(
  ctx: Context,
  portfolios: readonly TaxPortfolio[],
  until: string,
): Promise<Map<number, TaxBook>> {
  const ids = portfolios.map((p) => p.id);
  // Each portfolio's rows come whole from one slice, in the order asked for.
  const [ledgers, holdingRows, trustIncome, losses] = await Promise.all([
    loadLedgers(ctx.db, [...portfolios], undefined, until),
    readBySlices(ids, (slice) =>
      ctx.db.holding.findMany({
        where: { portfolioId: { in: slice } },
        select: { id: true, portfolioId: true, symbol: true, exchange: true, currencyCode: true },
        orderBy: { id: "asc" },
      }),
    ),
    readBySlices(ids, (slice) =>
      ctx.db.income.findMany({
        where: {
          portfolioId: { in: slice },
          isConfirmed: true,
          isTrustIncome: true,
          exDividendDate: { lte: new Date(until + "T00:00:00Z") },
          components: { not: { equals: null } },
        },
        select: { portfolioId: true, exDividendDate: true, exchangeRate: true, components: true },
        orderBy: [{ exDividendDate: "asc" }, { id: "asc" }],
      }),
    ),
    readBySlices(ids, (slice) =>
      ctx.db.carriedForwardLoss.findMany({
        where: { portfolioId: { in: slice } },
        select: { portfolioId: true, financialYear: true, amount: true },
      }),
    ),
  ]);
  const holdingsOf = groupedBy(ids, holdingRows, (h) => h.portfolioId);
  const trustIncomeOf = groupedBy(ids, trustIncome, (i) => i.portfolioId);
  const lossesOf = groupedBy(ids, losses, (l) => l.portfolioId);
  const books = new Map<number, TaxBook>();
  for (const portfolio of portfolios) {
    const ledger = ledgers.get(portfolio.id)!;
    const holdings = new Map(
      holdingsOf
        .get(portfolio.id)!
        .map((h) => [h.id, { symbol: h.symbol, exchange: h.exchange, currencyCode: h.currencyCode }]),
    );
    const discountRate = discountRateOf(portfolio.entityType);
    const folds = new Map(
      [...ledger.eventsByHolding.keys()].filter((id) => holdings.has(id)).map((id) => [id, foldHolding(ledger, id)]),
    );
    books.set(portfolio.id, {
      discountRate,
      disposals: disposalRows(ledger, holdings, portfolio.financialYearEnd, discountRate, folds),
      folds,
      trustGains: trustGainsByYear(trustIncomeOf.get(portfolio.id)!, portfolio.financialYearEnd),
      entered: new Map(lossesOf.get(portfolio.id)!.map((l) => [l.financialYear, new Decimal(l.amount)])),
      ledger,
      holdings,
    });
  }
  return books;
}

function trustGainsByYear(
  rows: { exDividendDate: Date; exchangeRate: unknown; components: unknown }[],
  yearEnd: string,
): Map<number, TrustCapitalGain[]> {
  const out = new Map<number, TrustCapitalGain[]>();
  for (const r of rows) {
    const c = (r.components ?? {}) as Record<string, string>;
    const rate = new Decimal(String(r.exchangeRate));
    const discounted = new Decimal(c.discountedCapitalGains ?? 0).times(rate);
    const nonDiscounted = new Decimal(c.nonDiscountedCapitalGains ?? 0).times(rate);
    if (discounted.isZero() && nonDiscounted.isZero()) continue;
    // A trust distribution belongs to the year of entitlement: its ex-dividend date.
    const fy = financialYearOf(fromDate(r.exDividendDate), yearEnd);
    const list = out.get(fy) ?? [];
    // The discounted part stays unrounded: cgt.ts rounds it once grossed up, as the taxable income
    // report's 18H does (taxable-income.ts), so both say the same to the last decimal.
    list.push({ discountedCapitalGains: discounted, nonDiscountedCapitalGains: roundMoney(nonDiscounted) });
    out.set(fy, list);
  }
  return out;
}

/** The CGT events and trust gains of each year, as the loss ledger takes them. */
export function yearsOf(
  book: Pick<TaxBook, "disposals" | "trustGains">,
): Map<number, { gains: CgtGain[]; trustGains: TrustCapitalGain[] }> {
  const years = new Map<number, { gains: CgtGain[]; trustGains: TrustCapitalGain[] }>();
  const year = (fy: number) => {
    let y = years.get(fy);
    if (!y) years.set(fy, (y = { gains: [], trustGains: [] }));
    return y;
  };
  for (const d of book.disposals) year(d.financialYear).gains.push(d);
  for (const [fy, gains] of book.trustGains) year(fy).trustGains.push(...gains);
  return years;
}
