import { Prisma } from "../../../generated/prisma/client";
import { discountRateOf } from "./discount";
import { ledgerVersionsSql } from "./moment";
import { READ_LIMITS } from "./read-limits";
import {
  buildLedgerSteps,
  lazyLedger,
  parseTradeRows,
  type Ledger,
  type LedgerExtras,
  type PortfolioTaxInfo,
} from "./ledger";

export * from "./ledger";

/**
 * Loads the ledger of a portfolio (or of some of its holdings) in a fixed number of statements,
 * and folds it into parcels. The bridge between the database and the pure parcel fold.
 */

/** The ledger of the portfolio (or of some holdings), up to `asOf` (inclusive) when given. */
export async function loadLedger(
  db: Prisma.TransactionClient,
  portfolio: PortfolioTaxInfo,
  holdingIds?: number[],
  asOf?: string,
): Promise<Ledger> {
  return (await loadLedgers(db, [portfolio], holdingIds, asOf)).get(portfolio.id)!;
}

/**
 * The ledgers of several portfolios at once, in the same statements as one: a GraphQL
 * `portfolios { holdings }` over a thousand portfolios folds a thousand ledgers from one load.
 */
export async function loadLedgers(
  db: Prisma.TransactionClient,
  portfolios: PortfolioTaxInfo[],
  holdingIds?: number[],
  asOf?: string,
): Promise<Map<number, Ledger>> {
  const { trades, extras } = await ledgerRows(
    db,
    portfolios.map((p) => p.id),
    holdingIds,
    asOf ?? "9999-12-31",
  );
  const of = <T extends { portfolioId: number }>(rows: T[]) => {
    const by = new Map<number, T[]>();
    for (const row of rows) {
      const list = by.get(row.portfolioId);
      if (list) list.push(row);
      else by.set(row.portfolioId, [row]);
    }
    return (id: number) => by.get(id) ?? [];
  };
  const selectionsOf = of(extras.selections);
  const drpOf = of(extras.drp);
  const yearMethodsOf = of(extras.yearMethods);
  const holdingMethodsOf = of(extras.holdingMethods);
  const amitOf = of(extras.amit);
  return new Map(
    portfolios.map((p) => {
      const parts = [
        selectionsOf(p.id),
        drpOf(p.id),
        yearMethodsOf(p.id),
        holdingMethodsOf(p.id),
        amitOf(p.id),
      ] as const;
      // Everything the fold reads, as text: equal fingerprints fold to equal results.
      const fingerprint = [
        trades.get(p.id) ?? "",
        JSON.stringify(parts),
        p.defaultMethod,
        p.entityType ?? "",
        p.financialYearEnd,
      ].join("\u0000");
      return [
        p.id,
        lazyLedger(fingerprint, discountRateOf(p.entityType), function* () {
          return yield* buildLedgerSteps(p, yield* parseTradeRows(trades.get(p.id) ?? ""), ...parts);
        }),
      ];
    }),
  );
}

/**
 * The portfolios' ledger rows up to `until`, as one snapshot of the database: the trades as text,
 * one line per trade in ledger order (portfolio, date, entry), fields in parseTradeRows' order,
 * and the rest (parcel picks, DRP units, methods, AMIT components) with the first page.
 *
 * The trades come as one text row per portfolio per statement, parsed here: a driver builds a
 * JavaScript object per row and per column, which for a 20,000-trade ledger cost ten times the
 * query itself. They are read in pages of READ_LIMITS.tradesPerStatement trades, each after the
 * last trade of the page before (the key is the ledger order), so a ledger of that size or less
 * is one statement, everything in it.
 *
 * Pages are statements apart, so a write may land between two of them: a sell in one page and its
 * parcel picks missing from the first, a trade moved from a later page to an earlier one. Every
 * page also reads the portfolios' ledger versions (which every ledger write bumps in its own
 * transaction): when a page sees other versions than the first, the pages do not belong to one
 * ledger and are read again; after PAGE_ATTEMPTS tries, in one statement (consistent, if long).
 */
async function ledgerRows(
  db: Prisma.TransactionClient,
  portfolioIds: number[],
  holdingIds: number[] | undefined,
  until: string,
): Promise<{ trades: Map<number, string>; extras: LedgerExtras }> {
  for (let attempt = 1; ; attempt++) {
    const rows = await ledgerPages(
      db,
      portfolioIds,
      holdingIds,
      until,
      attempt < PAGE_ATTEMPTS ? READ_LIMITS.tradesPerStatement : UNPAGED,
    );
    if (rows) return rows;
  }
}

const PAGE_ATTEMPTS = 3;
/** A page size no ledger reaches (LIMIT takes it as an int). */
const UNPAGED = 2_147_483_646;

/** The pages of ledgerRows, or null when a ledger write landed between two of them. */
async function ledgerPages(
  db: Prisma.TransactionClient,
  portfolioIds: number[],
  holdingIds: number[] | undefined,
  until: string,
  pageSize: number,
): Promise<{ trades: Map<number, string>; extras: LedgerExtras } | null> {
  const ofHoldings = holdingsFilter(holdingIds);
  const pages = new Map<number, string[]>();
  let after = { portfolioId: 0, date: "0001-01-01", id: 0 };
  let versions: string | undefined;
  let extras: LedgerExtras | undefined;
  for (;;) {
    // The first row (portfolio 0, which no portfolio is) carries the versions, and on the first
    // page the other rows of the ledger. One trade more than a page holds says whether another
    // page follows; it is left for that page.
    const [head, ...page] = await db.$queryRaw<
      { portfolioId: number; rows: string; n: number; versions: string | null; extras: string | null }[]
    >`
      SELECT 0 AS "portfolioId", NULL AS rows, 0 AS n,
             ${ledgerVersionsSql(portfolioIds)} AS versions,
             ${extras === undefined ? extrasSql(portfolioIds, ofHoldings, until) : Prisma.sql`NULL`}::text AS extras
      UNION ALL
      (SELECT portfolio_id,
             string_agg(concat_ws(',', id, holding_id, trade_type, trade_date, quantity, price, brokerage, exchange_rate, currency_code, coalesce(acquisition_date::text, '')),
                        E'\n' ORDER BY trade_date, id),
             count(*)::int, NULL, NULL
      FROM (
        SELECT * FROM trade
        WHERE portfolio_id = ANY(${portfolioIds}::int[]) AND ${ofHoldings("holding_id")}
          AND trade_date <= ${until}::date
          AND (portfolio_id, trade_date, id) > (${after.portfolioId}::int, ${after.date}::date, ${after.id}::int)
        ORDER BY portfolio_id, trade_date, id
        LIMIT ${pageSize + 1}
      ) t
      GROUP BY portfolio_id)
      ORDER BY 1`;
    versions ??= head.versions ?? "";
    if ((head.versions ?? "") !== versions) return null;
    extras ??= JSON.parse(head.extras!) as LedgerExtras;
    const more = page.reduce((n, p) => n + p.n, 0) > pageSize;
    if (more) {
      const last = page[page.length - 1];
      const cut = last.rows.lastIndexOf("\n");
      if (cut < 0) page.pop();
      else last.rows = last.rows.slice(0, cut);
    }
    for (const { portfolioId, rows } of page) {
      const list = pages.get(portfolioId);
      if (list) list.push(rows);
      else pages.set(portfolioId, [rows]);
    }
    if (!more) break;
    const last = page[page.length - 1];
    const [id, , , date] = last.rows.slice(last.rows.lastIndexOf("\n") + 1).split(",");
    after = { portfolioId: last.portfolioId, date, id: Number(id) };
  }
  return { trades: new Map([...pages].map(([id, rows]) => [id, rows.join("\n")])), extras: extras! };
}

/** A row's holding (`column`) is one of `holdingIds`, or any when none are given: the same filter on every statement of a load. */
type HoldingsFilter = (column: string) => Prisma.Sql;
const holdingsFilter =
  (holdingIds: number[] | undefined): HoldingsFilter =>
  (column) =>
    Prisma.sql`(${holdingIds === undefined} OR ${Prisma.raw(column)} = ANY(${holdingIds ?? []}::int[]))`;

/**
 * The LedgerExtras of the portfolios as one JSON object, every list in a fixed order (the
 * fingerprint reads them). Decimals as text with trailing zeros trimmed, as Prisma reads them.
 */
function extrasSql(portfolioIds: number[], ofHoldings: HoldingsFilter, until: string): Prisma.Sql {
  return Prisma.sql`json_build_object(
    'selections', (SELECT coalesce(json_agg(json_build_object('portfolioId', s.portfolio_id, 'sellTradeId', p.sell_trade_id, 'parcelTradeId', p.parcel_trade_id, 'quantity', trim_scale(p.quantity)::text) ORDER BY p.sell_trade_id, p.parcel_trade_id), '[]')
                   FROM trade_parcel p JOIN trade s ON s.id = p.sell_trade_id
                   WHERE s.portfolio_id = ANY(${portfolioIds}::int[]) AND ${ofHoldings("s.holding_id")} AND s.trade_date <= ${until}::date),
    'drp', (SELECT coalesce(json_agg(json_build_object('portfolioId', portfolio_id, 'id', id, 'holdingId', holding_id, 'paidDate', paid_date::text, 'drpQuantity', trim_scale(drp_quantity)::text, 'drpPrice', trim_scale(drp_price)::text, 'exchangeRate', trim_scale(exchange_rate)::text) ORDER BY id), '[]')
            FROM income
            WHERE portfolio_id = ANY(${portfolioIds}::int[]) AND ${ofHoldings("holding_id")} AND is_reinvested AND drp_quantity > 0 AND paid_date <= ${until}::date),
    'yearMethods', (SELECT coalesce(json_agg(json_build_object('portfolioId', portfolio_id, 'financialYear', financial_year, 'method', method) ORDER BY portfolio_id, financial_year), '[]')
                    FROM tax_year_method WHERE portfolio_id = ANY(${portfolioIds}::int[])),
    'holdingMethods', (SELECT coalesce(json_agg(json_build_object('portfolioId', portfolio_id, 'holdingId', holding_id, 'financialYear', financial_year, 'method', method) ORDER BY holding_id, financial_year), '[]')
                       FROM holding_tax_method WHERE portfolio_id = ANY(${portfolioIds}::int[]) AND ${ofHoldings("holding_id")}),
    'amit', (SELECT coalesce(json_agg(json_build_object('portfolioId', portfolio_id, 'id', id, 'holdingId', holding_id, 'paidDate', paid_date::text, 'exchangeRate', exchange_rate::text, 'components', components) ORDER BY id), '[]')
             FROM income
             WHERE portfolio_id = ANY(${portfolioIds}::int[]) AND ${ofHoldings("holding_id")} AND is_confirmed AND paid_date <= ${until}::date
               AND (components->>'taxDeferred' IS NOT NULL OR components->>'amitCostBaseDecrease' IS NOT NULL OR components->>'amitCostBaseIncrease' IS NOT NULL)))`;
}
