import { Prisma } from "../../../generated/prisma/client";
import type { PrismaClient } from "../../db";
import { toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { unitsHeldAtStartOfSql } from "../ledger/units-held";
import { WRITE_TX_OPTIONS, type WriteTx } from "../ledger/write";
import { tradeExchangeRate } from "../trades/trade-exchange-rate";
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
           (i.franked_amount + i.unfranked_amount + i.foreign_income)::text AS gross
    FROM provider_dividend d
    JOIN holding h ON h.symbol = d.symbol AND h.exchange = d.exchange AND h.holding_type NOT IN ('Custom', 'Cash')
    JOIN portfolio p ON p.id = h.portfolio_id
    CROSS JOIN LATERAL (SELECT ${unitsHeldAtStartOfSql(Prisma.sql`h.id`, Prisma.sql`d.ex_date`)} AS units) u
    LEFT JOIN provider_income l ON l.holding_id = h.id AND l.ex_date = d.ex_date
    LEFT JOIN income i ON i.id = l.income_id
    WHERE d.symbol = ${security.symbol} AND d.exchange = ${security.exchange}
    ORDER BY h.portfolio_id, h.id, d.ex_date`;
  const work = rows.filter((r) => {
    const units = new Decimal(r.units);
    if (!r.linked) return units.gt(0);
    if (r.income_id === null || r.user_owned || r.is_confirmed) return false;
    return units.lte(0) || !dividendGross(r.amount, units).eq(r.gross ?? 0);
  });
  if (work.length === 0) return 0;
  const latest = await latestConfirmed(db, [...new Set(work.map((r) => r.holding_id))]);
  const byPortfolio = new Map<number, Candidate[]>();
  for (const r of work) byPortfolio.set(r.portfolio_id, [...(byPortfolio.get(r.portfolio_id) ?? []), r]);
  let changed = 0;
  for (const [portfolioId, candidates] of byPortfolio)
    changed += await db.$transaction(async (tx) => {
      // The portfolio's writers queue on its row (ledger/write.ts lockPortfolio, same mode).
      await tx.$executeRaw`SELECT id FROM portfolio WHERE id = ${portfolioId} FOR NO KEY UPDATE`;
      let n = 0;
      for (const c of candidates) n += await applyCandidate(tx, c, latest.get(c.holding_id) ?? null);
      return n;
    }, WRITE_TX_OPTIONS);
  return changed;
}

async function applyCandidate(tx: WriteTx, c: Candidate, latest: ConfirmedPattern | null): Promise<number> {
  const units = new Decimal(c.units);
  const exDate = toDate(c.ex_date);
  if (units.lte(0)) {
    // No units at the ex-date any more (a back-dated sell): the record goes, and may come back.
    await tx.income.deleteMany({ where: { id: c.income_id!, isConfirmed: false, origin: "Provider" } });
    await tx.providerIncome.deleteMany({ where: { holdingId: c.holding_id, exDate } });
    return 1;
  }
  let exchangeRate: Decimal;
  try {
    const portfolio = { id: c.portfolio_id, accountId: c.account_id, baseCurrencyCode: c.base };
    exchangeRate = await tradeExchangeRate(tx, portfolio, c.currency, c.ex_date, undefined);
  } catch {
    return 0; // no rate for the currency yet: the next refresh, with rates, makes it
  }
  const gross = dividendGross(c.amount, units);
  const e = estimateDividend(gross, AUSTRALIAN.has(c.exchange), latest);
  const data = {
    paidDate: exDate,
    frankedAmount: e.frankedAmount.toFixed(),
    unfrankedAmount: e.unfrankedAmount.toFixed(),
    frankingCredits: e.frankingCredits.toFixed(),
    foreignIncome: e.foreignIncome.toFixed(),
    withholdingTax: e.withholdingTax.toFixed(),
    exchangeRate: exchangeRate.toFixed(),
    estimated: e.estimated,
    notes: `From the market-data provider: ${c.amount} ${c.currency} a unit on ${units.toFixed()} units.`,
  };
  if (c.linked) {
    const { count } = await tx.income.updateMany({
      where: { id: c.income_id!, isConfirmed: false, origin: "Provider" },
      data,
    });
    return count;
  }
  const income = await tx.income.create({
    data: {
      ...data,
      portfolioId: c.portfolio_id,
      holdingId: c.holding_id,
      exDividendDate: exDate,
      currencyCode: c.currency,
      origin: "Provider",
      isConfirmed: false,
    },
    select: { id: true },
  });
  await tx.providerIncome.create({ data: { holdingId: c.holding_id, exDate, incomeId: income.id } });
  return 1;
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
