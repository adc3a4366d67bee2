import type { Prisma } from "../../../../generated/prisma/client";
import { fromDate, toDate } from "../../../lib/dates";
import { Slicer } from "../../../lib/slices";
import type { Decimal } from "../../../lib/money";
import type { ValuationHolding, ValuationInput } from "./daily-series";
import { DatedSeries } from "../dated-series";
import { FxTable } from "../fx";
import { unitsTimeline } from "../units-timeline";
import { loadLedgers, type PortfolioTaxInfo } from "../load";
import { HoldingPrices } from "../prices";
import { customPrices, fxRates, marketPrices, securityKey } from "../market-data";

/**
 * Range loading: everything the daily valuation engine needs for a portfolio and a period, in a
 * fixed number of statements whatever the number of days or holdings. Positions need the whole
 * history up to `to`; prices and rates need the latest point on or before `from` (the first day's
 * value) and every point after it. Long series come back as one text row per series, parsed here.
 */
export interface RangePortfolio extends PortfolioTaxInfo {
  accountId: number;
  baseCurrencyCode: string;
}

/** A holding as the range load read it: what values it, and what describes it (for grouping). */
export interface RangeHolding extends ValuationHolding {
  symbol: string;
  exchange: string;
  name: string;
  holdingType: string;
  assetClass: string | null;
  sector: string | null;
  industry: string | null;
}

export interface ValuationRange extends ValuationInput {
  holdings: RangeHolding[];
}

export async function loadValuationRange(
  db: Prisma.TransactionClient,
  portfolio: RangePortfolio,
  from: string,
  to: string,
): Promise<ValuationRange> {
  return (await loadValuationRanges(db, [portfolio], from, to)).get(portfolio.id)!;
}

/**
 * loadValuationRange for several portfolios of one account, in the same statements as one: the
 * drift of a whole book (GET /v1/drift) costs what one portfolio's does.
 */
export async function loadValuationRanges(
  db: Prisma.TransactionClient,
  portfolios: RangePortfolio[],
  from: string,
  to: string,
): Promise<Map<number, ValuationRange>> {
  if (portfolios.length === 0) return new Map();
  const accountIds = new Set(portfolios.map((p) => p.accountId));
  if (accountIds.size !== 1) throw new Error("loadValuationRanges: portfolios of one account only");
  const accountId = portfolios[0].accountId;
  const ids = portfolios.map((p) => p.id);
  const toDay = toDate(to);
  // Read once, awaited twice: by the result and by the market price groups, which need its securities.
  const holdingsRead = Promise.resolve(db.$queryRaw<
    {
      id: number;
      portfolio_id: number;
      symbol: string;
      exchange: string;
      name: string;
      currency_code: string;
      holding_type: string;
      asset_class: string | null;
      sector: string | null;
      industry: string | null;
    }[]
  >`
      SELECT id, portfolio_id, symbol, exchange, name, currency_code, holding_type::text, asset_class, sector, industry FROM holding WHERE portfolio_id = ANY(${ids}::int[]) ORDER BY id`);
  const window = { from, to };
  const [ledgers, holdings, market, custom, fxRows, accounts, cashRows, income] = await Promise.all([
    loadLedgers(db, portfolios, undefined, to),
    holdingsRead,
    holdingsRead.then((hs) => marketPrices(db, accountId, hs, window)),
    holdingsRead.then((hs) =>
      customPrices(
        db,
        hs.map((h) => h.id),
        window,
      ),
    ),
    fxRates(db, accountId, window),
    db.$queryRaw<
      { id: number; portfolio_id: number; currency_code: string; sync_trades: boolean; sync_income: boolean }[]
    >`
      SELECT id, portfolio_id, currency_code, sync_trades, sync_income FROM cash_account WHERE portfolio_id = ANY(${ids}::int[]) ORDER BY id`,
    db.$queryRaw<{ cash_account_id: number; rows: string }[]>`
      SELECT cash_account_id, string_agg(type::text || ':' || date::text || ':' || amount::text, ',' ORDER BY date, id) AS rows
      FROM cash_transaction WHERE date <= ${toDay} AND cash_account_id IN (SELECT id FROM cash_account WHERE portfolio_id = ANY(${ids}::int[]))
      GROUP BY cash_account_id`,
    db.$queryRaw<
      {
        portfolio_id: number;
        holding_id: number;
        ex_dividend_date: Date;
        paid_date: Date;
        franked_amount: Decimal;
        unfranked_amount: Decimal;
        foreign_income: Decimal;
        withholding_tax: Decimal;
        foreign_tax_paid: Decimal;
        is_reinvested: boolean;
        currency_code: string;
      }[]
    >`
      SELECT portfolio_id, holding_id, ex_dividend_date, paid_date, franked_amount, unfranked_amount, foreign_income, withholding_tax, foreign_tax_paid, is_reinvested, currency_code
      FROM income WHERE portfolio_id = ANY(${ids}::int[]) AND ex_dividend_date <= ${toDay} ORDER BY paid_date, id`,
  ]);

  // Parsing ten years of prices or a large ledger takes a while: between series, portfolios and
  // holdings, the event loop gets a turn.
  const slicer = new Slicer();
  const none = DatedSeries.sorted<string>([], []);
  const cashBy = new Map(cashRows.map((c) => [c.cash_account_id, c.rows]));
  const out = new Map<number, ValuationRange>();
  for (const portfolio of portfolios) {
    if (slicer.due()) await slicer.turn();
    const ledger = ledgers.get(portfolio.id)!;
    await ledger.prepare?.();
    const trades = ledger.trades.map((t) => ({
      holdingId: t.holdingId,
      tradeType: t.tradeType,
      date: t.tradeDate,
      seq: t.id,
      quantity: t.quantity,
      price: t.price,
      brokerage: t.brokerage,
      currencyCode: t.currencyCode!,
    }));
    const tradesBy = new Map<number, typeof trades>();
    for (const t of trades) {
      const list = tradesBy.get(t.holdingId) ?? [];
      list.push(t);
      tradesBy.set(t.holdingId, list);
    }
    if (slicer.due()) await slicer.turn();
    const rangeHoldings: RangeHolding[] = [];
    for (const h of holdings) {
      if (h.portfolio_id !== portfolio.id) continue;
      rangeHoldings.push({
        id: h.id,
        symbol: h.symbol,
        exchange: h.exchange,
        name: h.name,
        holdingType: h.holding_type,
        assetClass: h.asset_class,
        sector: h.sector,
        industry: h.industry,
        currencyCode: h.currency_code,
        timeline: unitsTimeline(ledger.eventsByHolding.get(h.id) ?? []),
        prices: new HoldingPrices({
          currencyCode: h.currency_code,
          custom: custom.get(h.id) ?? none,
          market: market.get(securityKey(h)) ?? none,
          trades: tradesBy.get(h.id) ?? [],
        }),
      });
      if (slicer.due()) await slicer.turn();
    }
    const input: ValuationRange = {
      from,
      to,
      baseCurrencyCode: portfolio.baseCurrencyCode,
      holdings: rangeHoldings,
      trades,
      income: income
        .filter((i) => i.portfolio_id === portfolio.id)
        .map((i) => ({
          holdingId: i.holding_id,
          exDividendDate: fromDate(i.ex_dividend_date),
          paidDate: fromDate(i.paid_date),
          frankedAmount: i.franked_amount,
          unfrankedAmount: i.unfranked_amount,
          foreignIncome: i.foreign_income,
          withholdingTax: i.withholding_tax,
          foreignTaxPaid: i.foreign_tax_paid,
          isReinvested: i.is_reinvested,
          currencyCode: i.currency_code,
        })),
      cashAccounts: accounts
        .filter((a) => a.portfolio_id === portfolio.id)
        .map((a) => ({
          id: a.id,
          currencyCode: a.currency_code,
          syncTrades: a.sync_trades,
          syncIncome: a.sync_income,
          transactions: (cashBy.get(a.id) ?? "")
            .split(",")
            .filter(Boolean)
            .map((row) => {
              const [type, date, amount] = row.split(":");
              return { type, date, amount, currencyCode: a.currency_code };
            }),
        })),
      fx: new FxTable(fxRows, {
        base: portfolio.baseCurrencyCode,
        rates: ledger.trades.map((t) => ({
          currencyCode: t.currencyCode!,
          date: t.tradeDate,
          exchangeRate: t.exchangeRate,
        })),
      }),
    };
    out.set(portfolio.id, input);
  }
  return out;
}
