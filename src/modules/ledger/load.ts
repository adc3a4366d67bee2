import { Prisma } from "../../../generated/prisma/client";
import { financialYearOf, fromDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { atOnce, inSlices, type Steps } from "../../lib/slices";
import { discountRateOf, type EntityType } from "./discount";
import {
  amitEvents,
  drpEvent,
  tradeEvent,
  type AmitRow,
  type LedgerEvent,
  type TradeRow,
  type TradeType,
} from "./events";
import { foldParcels, type FoldResult } from "./fold";
import { ledgerVersionsSql } from "./moment";
import { READ_LIMITS } from "./read-limits";
import type { ParcelMethod } from "./parcel-selection";

/**
 * Loads the ledger of a portfolio (or of some of its holdings) in a fixed number of statements,
 * and folds it into parcels. The bridge between the database and the pure parcel fold.
 */
export interface PortfolioTaxInfo {
  id: number;
  financialYearEnd: string;
  defaultMethod: ParcelMethod;
  entityType?: EntityType;
}

export interface Ledger {
  /**
   * The loaded rows as text (trades, parcel selections, DRP units, methods, the owner's settings):
   * two ledgers with one fingerprint fold to the same parcels, whichever process loaded them.
   */
  fingerprint?: string;
  eventsByHolding: Map<number, LedgerEvent[]>;
  /** The trades the events came from, in ledger order (date, then entry). */
  trades: (TradeRow & { currencyCode?: string })[];
  /** The owner's CGT discount rate, which MinimiseCGT weighs. */
  discountRate: Decimal;
  /** Method precedence (DOMAIN.md §2): holding override for the year > the year's > default > FIFO. */
  methodFor(holdingId: number, event: LedgerEvent): ParcelMethod;
  /**
   * Parses the loaded rows into events now, in slices that give the event loop a turn (a
   * 20,000-trade ledger takes tens of milliseconds); without it they are parsed at once on first read.
   */
  prepare?(): Promise<void>;
}

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

/** What the fold reads besides the trades, of every portfolio loaded (each row names its portfolio). */
interface LedgerExtras {
  selections: { portfolioId: number; sellTradeId: number; parcelTradeId: number; quantity: string }[];
  drp: {
    portfolioId: number;
    id: number;
    holdingId: number;
    paidDate: string;
    drpQuantity: string;
    drpPrice: string | null;
    exchangeRate: string;
  }[];
  yearMethods: { portfolioId: number; financialYear: number; method: ParcelMethod }[];
  holdingMethods: { portfolioId: number; holdingId: number; financialYear: number; method: ParcelMethod }[];
  /** Confirmed distributions whose AMIT components change the cost base (DOMAIN.md §2). */
  amit: AmitRow[];
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

/** A ledger whose rows are parsed into events only when first read (a memo may make that needless). */
function lazyLedger(fingerprint: string, discountRate: Decimal, build: () => Steps<Ledger>): Ledger {
  let built: Ledger | undefined;
  let preparing: Promise<void> | undefined;
  const ledger = () => (built ??= atOnce(build()));
  return {
    prepare() {
      return (preparing ??= built ? Promise.resolve() : inSlices(build()).then((l) => void (built ??= l)));
    },
    fingerprint,
    get eventsByHolding() {
      return ledger().eventsByHolding;
    },
    get trades() {
      return ledger().trades;
    },
    discountRate,
    methodFor: (holdingId, event) => ledger().methodFor(holdingId, event),
  };
}

/** A trade of the ledger with the currency it was made in (the FX and price rules read it). */
export type LedgerTradeRow = TradeRow & { currencyCode: string };

/** Rows parsed or events built between two steps of a ledger's parse (lib/slices.ts). */
const ROWS_PER_STEP = 500;

/** The rows of the trade aggregate above: one trade per line, fields in the SELECT's order. */
function* parseTradeRows(text: string): Steps<LedgerTradeRow[]> {
  if (text === "") return [];
  const rows: LedgerTradeRow[] = [];
  for (const line of text.split("\n")) {
    const [
      id,
      holdingId,
      tradeType,
      tradeDate,
      quantity,
      price,
      brokerage,
      exchangeRate,
      currencyCode,
      acquisitionDate,
    ] = line.split(",");
    rows.push({
      id: Number(id),
      holdingId: Number(holdingId),
      tradeType: tradeType as TradeType,
      tradeDate,
      quantity,
      price,
      brokerage,
      exchangeRate,
      currencyCode,
      acquisitionDate: acquisitionDate || null,
    });
    if (rows.length % ROWS_PER_STEP === 0) yield;
  }
  return rows;
}

export function buildLedger(...args: Parameters<typeof buildLedgerSteps>): Ledger {
  return atOnce(buildLedgerSteps(...args));
}

function* buildLedgerSteps(
  portfolio: PortfolioTaxInfo,
  trades: (TradeRow & { currencyCode?: string })[],
  selections: { sellTradeId: number; parcelTradeId: number; quantity: Decimal.Value }[],
  drp: {
    id: number;
    holdingId: number;
    paidDate: Date | string;
    drpQuantity: Decimal.Value | null;
    drpPrice: Decimal.Value | null;
    exchangeRate: Decimal.Value;
  }[],
  yearMethods: { financialYear: number; method: ParcelMethod }[],
  holdingMethods: { holdingId: number; financialYear: number; method: ParcelMethod }[],
  amit: AmitRow[] = [],
): Steps<Ledger> {
  const picks = new Map<number, { tradeId: number; units: Decimal }[]>();
  for (const s of selections) {
    const list = picks.get(s.sellTradeId) ?? [];
    list.push({ tradeId: s.parcelTradeId, units: new Decimal(s.quantity) });
    picks.set(s.sellTradeId, list);
  }
  const eventsByHolding = new Map<number, LedgerEvent[]>();
  const push = (holdingId: number, e: LedgerEvent) => {
    const list = eventsByHolding.get(holdingId) ?? [];
    list.push(e);
    eventsByHolding.set(holdingId, list);
  };
  let n = 0;
  for (const t of trades) {
    push(t.holdingId, tradeEvent(t, picks.get(t.id)));
    if (++n % ROWS_PER_STEP === 0) yield;
  }
  for (const i of drp) if (i.drpQuantity) push(i.holdingId, drpEvent({ ...i, drpQuantity: i.drpQuantity }));
  for (const i of amit) for (const e of amitEvents(i)) push(i.holdingId, e);

  const byYear = new Map(yearMethods.map((m) => [m.financialYear, m.method]));
  const byHoldingYear = new Map(holdingMethods.map((m) => [`${m.holdingId}:${m.financialYear}`, m.method]));
  return {
    eventsByHolding,
    trades,
    discountRate: discountRateOf(portfolio.entityType),
    methodFor(holdingId, event) {
      const fy = financialYearOf(event.date, portfolio.financialYearEnd);
      return byHoldingYear.get(`${holdingId}:${fy}`) ?? byYear.get(fy) ?? portfolio.defaultMethod ?? "FIFO";
    },
  };
}

/** Folds one holding's events; a ParcelError means the ledger breaks a rule (a short sell...). */
export function foldHolding(
  ledger: Ledger,
  holdingId: number,
  extra: { replace?: Map<string, LedgerEvent | null>; add?: LedgerEvent[] } = {},
): FoldResult {
  let events = ledger.eventsByHolding.get(holdingId) ?? [];
  if (extra.replace) {
    events = events.flatMap((e) => {
      if (!extra.replace!.has(e.key)) return [e];
      const r = extra.replace!.get(e.key);
      return r ? [r] : [];
    });
  }
  if (extra.add) events = [...events, ...extra.add];
  return foldParcels(events, { methodFor: (e) => ledger.methodFor(holdingId, e), discountRate: ledger.discountRate });
}
