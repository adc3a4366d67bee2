import { Prisma } from "../../../generated/prisma/client";
import type { PrismaClient } from "../../db";
import { toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { unitsHeldAtStartOfSql } from "../ledger/units-held";
import { lockPortfolioRows, write, type WriteTx } from "../ledger/write";
import { loadFxTable } from "../ledger/fx-load";
import { rateFromTable, unstorableRate } from "../trades/trade-exchange-rate";
import { dividendGross, estimateDividend, type ConfirmedPattern } from "./provider-dividend-estimate";

/**
 * Provider dividends become each account's own unconfirmed income records (docs/data.md §3): for
 * every holding of the security with units at the start of an ex-date (its trades and DRP
 * allotments dated before it), one record per (holding, ex-date) for good (table provider_income). A later refresh
 * updates a record that is still unconfirmed and unedited when the units or the amount changed (a
 * back-dated trade), removes it when no units are left, and never touches a confirmed or edited
 * one nor makes again one the user deleted.
 */

interface Candidate {
  holding_id: number;
  portfolio_id: number;
  account_id: number;
  base: string;
  exchange: string;
  ex_date: string;
  amount: string;
  currency: string;
  units: string;
  linked: boolean;
  income_id: number | null;
  user_owned: boolean | null;
  is_confirmed: boolean | null;
  gross: string | null;
  exchange_rate: string | null;
}

/** A candidate with what its record should hold now. */
interface Work {
  c: Candidate;
  units: Decimal;
  /** Null: no rate into the portfolio's base currency yet (the next refresh, with rates, makes it). */
  exchangeRate: Decimal | null;
}

/** Exchanges in Australia: their dividends may be franked. */
const AUSTRALIAN = new Set(["ASX", "NSX", "CXA", "CHIA"]);

/** Makes, updates or removes the records of every holding of the security; answers how many. */
export async function recordProviderDividends(
  db: PrismaClient,
  security: { symbol: string; exchange: string },
): Promise<number> {
  const rows = await db.$queryRaw<Candidate[]>`
    SELECT h.id AS holding_id, h.portfolio_id, p.account_id, p.base_currency_code::text AS base, h.exchange,
           d.ex_date::text AS ex_date, d.amount::text AS amount, d.currency_code::text AS currency, u.units::text AS units,
           (l.holding_id IS NOT NULL) AS linked, l.income_id, l.user_owned, i.is_confirmed,
           (i.franked_amount + i.unfranked_amount + i.foreign_income)::text AS gross, i.exchange_rate::text AS exchange_rate
    FROM provider_dividend d
    JOIN holding h ON h.symbol = d.symbol AND h.exchange = d.exchange AND h.holding_type NOT IN ('Custom', 'Cash')
    JOIN portfolio p ON p.id = h.portfolio_id
    CROSS JOIN LATERAL (SELECT ${unitsHeldAtStartOfSql(Prisma.sql`h.id`, Prisma.sql`d.ex_date`)} AS units) u
    LEFT JOIN provider_income l ON l.holding_id = h.id AND l.ex_date = d.ex_date
    LEFT JOIN income i ON i.id = l.income_id
    WHERE d.symbol = ${security.symbol} AND d.exchange = ${security.exchange}
    ORDER BY h.portfolio_id, h.id, d.ex_date`;
  // Only records that may be written: new ones with units, and the provider's own still unconfirmed.
  const open = rows.filter((r) =>
    r.linked ? r.income_id !== null && !r.user_owned && !r.is_confirmed : new Decimal(r.units).gt(0),
  );
  const byPortfolio = new Map<number, Candidate[]>();
  for (const r of open) byPortfolio.set(r.portfolio_id, [...(byPortfolio.get(r.portfolio_id) ?? []), r]);
  let changed = 0;
  for (const candidates of byPortfolio.values()) {
    const work = (await withRates(db, candidates)).filter(needsWrite);
    if (work.length === 0) continue;
    const latest = await latestConfirmed(db, [...new Set(work.map((w) => w.c.holding_id))]);
    changed += await write({ db }, async (tx) => {
      // The portfolio's writers queue on its row (a deleted portfolio has nothing left to write).
      if ((await lockPortfolioRows(tx, [work[0].c.portfolio_id])).length === 0) return 0;
      return applyWork(tx, work, latest);
    });
  }
  return changed;
}

/**
 * Each candidate's rate into its portfolio's base currency on the ex-date, by the one FX rule
 * (ledger/fx.ts), from one FX table for the portfolio's candidates (two statements).
 */
async function withRates(db: PrismaClient, candidates: Candidate[]): Promise<Work[]> {
  const { portfolio_id: id, account_id: accountId, base } = candidates[0];
  const portfolio = { id, accountId, baseCurrencyCode: base };
  const foreign = candidates.filter((c) => c.currency !== base);
  const table = await loadFxTable(
    db,
    portfolio,
    foreign.map((c) => c.ex_date),
  );
  return candidates.map((c) => {
    const rate = c.currency === base ? new Decimal(1) : rateFromTable(table, portfolio, c.currency, c.ex_date);
    const storable = rate && !unstorableRate(rate, c.ex_date);
    return { c, units: new Decimal(c.units), exchangeRate: storable ? rate : null };
  });
}

/**
 * A new record with a rate; a linked one whose units are gone, whose amount changed (a back-dated
 * trade) or whose rate changed (rates imported or revised since it was made).
 */
function needsWrite({ c, units, exchangeRate }: Work): boolean {
  if (!c.linked) return exchangeRate !== null;
  if (units.lte(0)) return true;
  if (exchangeRate === null) return false;
  return !dividendGross(c.amount, units).eq(c.gross ?? 0) || !exchangeRate.eq(c.exchange_rate ?? 0);
}

/** Writes a portfolio's work under its lock; answers the records made, changed or removed. */
async function applyWork(tx: WriteTx, work: Work[], latest: Map<number, ConfirmedPattern>): Promise<number> {
  // No units at the ex-date any more (a back-dated sell): the record goes, and may come back.
  // The link goes first (deleting the record would leave it as the tombstone of a user's delete),
  // and only of a record still the provider's: it may have been confirmed since it was read.
  const goneIds = work.filter((w) => w.units.lte(0)).map((w) => w.c.income_id!);
  const gone =
    goneIds.length === 0
      ? []
      : await tx.$queryRaw<{ id: number }[]>`
          DELETE FROM provider_income l USING income i
          WHERE l.income_id = i.id AND i.id = ANY(${goneIds}::int[]) AND NOT i.is_confirmed AND i.origin = 'Provider'
          RETURNING i.id`;
  if (gone.length > 0) await tx.income.deleteMany({ where: { id: { in: gone.map((g) => g.id) } } });
  let changed = gone.length;
  const fresh: { w: Work; data: ReturnType<typeof recordData> }[] = [];
  for (const w of work) {
    if (w.units.lte(0)) continue;
    const data = recordData(w, latest.get(w.c.holding_id) ?? null);
    if (!w.c.linked) {
      fresh.push({ w, data });
      continue;
    }
    const { count } = await tx.income.updateMany({
      where: { id: w.c.income_id!, isConfirmed: false, origin: "Provider" },
      data,
    });
    changed += count;
  }
  if (fresh.length === 0) return changed;
  const made = await tx.income.createManyAndReturn({
    data: fresh.map(({ w, data }) => ({
      ...data,
      portfolioId: w.c.portfolio_id,
      holdingId: w.c.holding_id,
      exDividendDate: toDate(w.c.ex_date),
      currencyCode: w.c.currency,
      origin: "Provider" as const,
      isConfirmed: false,
    })),
    select: { id: true, holdingId: true, exDividendDate: true },
  });
  await tx.providerIncome.createMany({
    data: made.map((i) => ({ holdingId: i.holdingId!, exDate: i.exDividendDate!, incomeId: i.id })),
  });
  return changed + made.length;
}

/** The record's fields: the gross on the units, the estimate, and the rate on the ex-date. */
function recordData({ c, units, exchangeRate }: Work, latest: ConfirmedPattern | null) {
  const gross = dividendGross(c.amount, units);
  const e = estimateDividend(gross, AUSTRALIAN.has(c.exchange), latest);
  return {
    paidDate: toDate(c.ex_date),
    frankedAmount: e.frankedAmount.toFixed(),
    unfrankedAmount: e.unfrankedAmount.toFixed(),
    frankingCredits: e.frankingCredits.toFixed(),
    foreignIncome: e.foreignIncome.toFixed(),
    withholdingTax: e.withholdingTax.toFixed(),
    exchangeRate: exchangeRate!.toFixed(),
    // A rate taken on the ex-date stands in for the rate on the day it is paid, also estimated.
    estimated: c.currency === c.base ? e.estimated : [...e.estimated, "exchangeRate"],
    notes: `From the market-data provider: ${c.amount} ${c.currency} a unit on ${units.toFixed()} units.`,
  };
}

/** Each holding's latest confirmed income record, the pattern of its estimates. */
async function latestConfirmed(db: PrismaClient, holdingIds: number[]): Promise<Map<number, ConfirmedPattern>> {
  const rows = await db.$queryRaw<(ConfirmedPattern & { holding_id: number })[]>`
    SELECT DISTINCT ON (holding_id) holding_id, franked_amount::text AS "frankedAmount", unfranked_amount::text AS "unfrankedAmount",
           franking_credits::text AS "frankingCredits", foreign_income::text AS "foreignIncome", withholding_tax::text AS "withholdingTax"
    FROM income WHERE holding_id = ANY(${holdingIds}::int[]) AND is_confirmed
    ORDER BY holding_id, paid_date DESC, id DESC`;
  return new Map(rows.map((r) => [r.holding_id, r]));
}
