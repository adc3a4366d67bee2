import type { Context } from "../../context";
import { addDays } from "../../lib/dates";
import { DomainError, validationFailed } from "../../lib/domain-errors";
import { Decimal, ZERO } from "../../lib/money";
import { throwIfClosed } from "../../lib/slices";
import { parseInput } from "../../lib/validation";
import {
  calendarDays,
  DatedSeries,
  dayNumber,
  marketPrices,
  PORTFOLIO_LEDGER_SELECT,
  roundMoney,
  scopedPortfolio,
  securityKey,
  type DailyValuation,
  type ValuationRange,
} from "../ledger";
import { EXCHANGE_CURRENCY } from "../securities/securities.schemas";
import { BenchmarkQuery } from "./analytics.schemas";
import { portfolioSeries } from "../ledger/valuation/series-cache";
import { heavyWork } from "../../lib/heavy-work";
import { assertWithinLimits } from "./limits";
import { pointDates } from "./intervals";
import { chain, firstEventDate, resolvePeriod, type Period } from "./period";
import { portfolioTotals, returnMethods, type ReturnMethods } from "./performance.service";

/**
 * GET /v1/portfolios/{p}/benchmark, GraphQL `benchmark` (docs/reports.md §3): the portfolio against a
 * security or another portfolio, by the same methods over the same dates (docs/rules.md §11).
 *
 * A security benchmark replays the portfolio: its opening value is invested in the benchmark at
 * the close of the day before `from`, and every external flow of the portfolio buys (in) or sells
 * (out) the benchmark at its price on the flow's day, fractional units, no costs; its value on a
 * day is its units at that day's price (the latest on or before it) and rate. Its flows being the
 * portfolio's, its money-weighted figures compare directly. Prices are needed from the first day
 * money is in it: none on or before that day, 422.
 */
export interface BenchmarkScope extends ReturnMethods {
  totalReturnValue: Decimal;
}

export interface BenchmarkReport {
  portfolioId: number;
  from: string;
  to: string;
  benchmark:
    | { type: "Security"; symbol: string; exchange: string; name: string }
    | { type: "Portfolio"; portfolioId: number; name: string };
  portfolio: BenchmarkScope;
  benchmarkResult: BenchmarkScope;
  excessReturn: { timeWeightedPercent: number; moneyWeightedPercent: number | null };
  series: { date: string; portfolioCumulativePercent: number; benchmarkCumulativePercent: number }[];
}

interface Scope extends BenchmarkScope {
  /** Cumulative TWR (percent) of each day from `from`. */
  daily: Float64Array;
}

export async function getBenchmark(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<BenchmarkReport> {
  const request = parseInput(BenchmarkQuery, query ?? {}, "The query");
  assertWithinLimits(ctx, request, true);
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const bySecurity = request.symbol !== undefined || request.exchange !== undefined;
  if (bySecurity && request.benchmarkPortfolioId !== undefined) {
    throw validationFailed(
      "The query is invalid: name a benchmark security (symbol and exchange) or a benchmarkPortfolioId, not both.",
      [{ path: "benchmarkPortfolioId", message: "must not be given with symbol and exchange" }],
    );
  }
  if (!bySecurity && request.benchmarkPortfolioId === undefined) {
    throw validationFailed(
      "The query is invalid: name a benchmark, a security (symbol and exchange) or a benchmarkPortfolioId.",
      [{ path: "symbol", message: "is required (with exchange), or benchmarkPortfolioId" }],
    );
  }
  if (bySecurity && (request.symbol === undefined || request.exchange === undefined)) {
    const missing = request.symbol === undefined ? "symbol" : "exchange";
    throw validationFailed(
      `The query is invalid: ${missing} is required with ${missing === "symbol" ? "exchange" : "symbol"}.`,
      [{ path: missing, message: "is required" }],
    );
  }
  return heavyWork(ctx, () => benchmark(ctx, portfolio, request));
}

async function benchmark(
  ctx: Context,
  portfolio: Awaited<ReturnType<typeof scopedPortfolio>>,
  request: BenchmarkQuery,
): Promise<BenchmarkReport> {
  const other =
    request.benchmarkPortfolioId === undefined
      ? undefined
      : await scopedPortfolio(ctx, request.benchmarkPortfolioId, undefined, { ...PORTFOLIO_LEDGER_SELECT, name: true });
  const period = resolvePeriod(request, await firstEventDate(ctx, { portfolioId: portfolio.id }));
  assertWithinLimits(ctx, period, true);
  const { range, engine } = await portfolioSeries(ctx, portfolio, period.start, period.to);
  throwIfClosed(ctx.signal);
  const mine = scopeOf(range, engine, { ...period, start: range.from });

  let benchmark: BenchmarkReport["benchmark"];
  let theirs: Scope;
  if (other) {
    const loaded = await portfolioSeries(ctx, other, addDays(period.from, -1), period.to);
    throwIfClosed(ctx.signal);
    theirs = scopeOf(loaded.range, loaded.engine, { ...period, start: loaded.range.from });
    benchmark = { type: "Portfolio", portfolioId: other.id, name: other.name };
  } else {
    const security = await benchmarkSecurity(
      ctx,
      request.symbol!,
      request.exchange!,
      period,
      portfolio.baseCurrencyCode,
    );
    theirs = replay(security, range, engine, period);
    benchmark = { type: "Security", symbol: security.symbol, exchange: security.exchange, name: security.name };
  }
  // By day number: listing the days up to each point made a daily series quadratic.
  const offset = (date: string) => dayNumber(date) - dayNumber(period.from);
  const { daily: _mine, ...portfolioResult } = mine;
  const { daily: _theirs, ...benchmarkResult } = theirs;
  const excessXirr =
    mine.moneyWeightedReturn.annualisedPercent === null || theirs.moneyWeightedReturn.annualisedPercent === null
      ? null
      : mine.moneyWeightedReturn.annualisedPercent - theirs.moneyWeightedReturn.annualisedPercent;
  return {
    portfolioId: portfolio.id,
    from: period.from,
    to: period.to,
    benchmark,
    portfolio: portfolioResult,
    benchmarkResult,
    excessReturn: {
      timeWeightedPercent: mine.timeWeightedReturn.cumulativePercent - theirs.timeWeightedReturn.cumulativePercent,
      moneyWeightedPercent: excessXirr,
    },
    series: pointDates(period.from, period.to, period.interval).map((date) => ({
      date,
      portfolioCumulativePercent: mine.daily[offset(date)],
      benchmarkCumulativePercent: theirs.daily[offset(date)],
    })),
  };
}

/** A portfolio's own figures over the period. */
function scopeOf(range: ValuationRange, engine: DailyValuation, period: Pick<Period, "from" | "to" | "start">): Scope {
  const totals = portfolioTotals(engine, period);
  const part = { opening: totals.openingValue.toNumber(), closing: totals.totalValue.toNumber(), flows: totals.flows };
  return {
    ...returnMethods({ value: engine.total, flowIn: engine.flowIn, flowOut: engine.flowOut }, part, period),
    totalReturnValue: totals.totalValue.minus(totals.openingValue).minus(totals.netFlows),
    daily: chain(period, engine.total, engine.flowIn, engine.flowOut).daily,
  };
}

interface BenchmarkSecurity {
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  /** Closing prices: the latest on or before the day before `from`, and every one to `to`. */
  prices: DatedSeries<Decimal>;
}

/**
 * The benchmark security: its name and currency from the security list (the account's, else the
 * master list), else from a holding of it, else the exchange's currency; its prices from the
 * account's imported prices. Two statements.
 */
async function benchmarkSecurity(
  ctx: Context,
  symbol: string,
  exchange: string,
  period: Period,
  base: string,
): Promise<BenchmarkSecurity> {
  const [known, prices] = await Promise.all([
    ctx.db.$queryRaw<{ name: string; currency_code: string }[]>`
      SELECT name, currency_code FROM (
        SELECT name, currency_code, 0 AS rank FROM security WHERE account_id = ${ctx.account.id} AND symbol = ${symbol} AND exchange = ${exchange}
        UNION ALL SELECT name, currency_code, 1 FROM security WHERE account_id IS NULL AND symbol = ${symbol} AND exchange = ${exchange}
        UNION ALL SELECT h.name, h.currency_code, 2 FROM holding h JOIN portfolio p ON p.id = h.portfolio_id WHERE p.account_id = ${ctx.account.id} AND h.symbol = ${symbol} AND h.exchange = ${exchange}
      ) s ORDER BY rank LIMIT 1`,
    marketPrices(ctx.db, ctx.account.id, [{ symbol, exchange }], { from: addDays(period.from, -1), to: period.to }),
  ]);
  const series = prices.get(securityKey({ symbol, exchange }));
  if (!series) {
    throw new DomainError(
      "BUSINESS_RULE",
      `The benchmark ${symbol}.${exchange} has no imported price on or before ${period.to}.`,
      [{ path: "symbol", message: `${symbol}.${exchange} has no prices for the period` }],
    );
  }
  return {
    symbol,
    exchange,
    name: known[0]?.name ?? symbol,
    currencyCode: known[0]?.currency_code.trim() ?? EXCHANGE_CURRENCY[exchange] ?? base,
    prices: DatedSeries.sorted(
      [...series.dates],
      series.values.map((v) => new Decimal(v)),
    ),
  };
}

/**
 * The security benchmark's series: the portfolio's opening value and flows replayed as buys and
 * sells of it, in Decimal (units, money); values in Float64 for the daily chain, like the engine's.
 * The benchmark holds only what was bought: an outflow larger than its value sells all of it and
 * pays out no more (its own flows are the ones it could make, and Dietz and XIRR read those).
 */
function replay(security: BenchmarkSecurity, range: ValuationRange, engine: DailyValuation, period: Period): Scope {
  const base = range.baseCurrencyCode;
  const openDay = addDays(period.from, -1);
  const days = calendarDays(openDay, period.to);
  const unitPrice = (date: string): Decimal => {
    const hit = security.prices.on(date);
    const price = hit?.value;
    const rate = range.fx.rateOn(security.currencyCode, base, date)?.rate;
    // A close of 0 (imported before prices had to be positive) buys infinitely many units: no price.
    if (!price || !price.gt(0)) {
      const what = price ? `a price of ${price.toFixed()} on ${hit!.date}` : `no price on or before ${date}`;
      throw new DomainError(
        "BUSINESS_RULE",
        `The benchmark ${security.symbol}.${security.exchange} has ${what}, when the portfolio had money in it: import a positive close.`,
        [{ path: "symbol", message: `${security.symbol}.${security.exchange} has ${what}` }],
      );
    }
    if (!rate || !rate.gt(0))
      throw new DomainError(
        "BUSINESS_RULE",
        `No ${security.currencyCode} to ${base} exchange rate on or before ${date} for the benchmark ${security.symbol}.${security.exchange}.`,
        [{ path: "symbol", message: `no ${security.currencyCode}/${base} rate on or before ${date}` }],
      );
    return price.times(rate);
  };
  const flowsOn = new Map<string, Decimal[]>();
  for (const f of engine.portfolioFlows) {
    const value = f.date >= period.from && f.date <= period.to ? engine.flowValue(f) : null;
    if (value && !value.exact.isZero()) flowsOn.set(f.date, [...(flowsOn.get(f.date) ?? []), value.exact]);
  }

  const opening = engine.exactOn(openDay).totalInBaseCurrency;
  let units = opening.isZero() ? ZERO : opening.div(unitPrice(openDay));
  let netFlows = ZERO;
  const flows: { date: string; amount: number }[] = [];
  const value = new Float64Array(days.length);
  const flowIn = new Float64Array(days.length);
  const flowOut = new Float64Array(days.length);
  value[0] = opening.toNumber();
  for (let d = 1; d < days.length; d++) {
    const date = days[d];
    for (const amount of flowsOn.get(date) ?? []) {
      const p = unitPrice(date);
      let made = amount;
      if (amount.isPositive()) units = units.plus(amount.div(p));
      else {
        const held = roundMoney(units.times(p));
        if (amount.negated().gte(held)) {
          made = held.negated();
          units = ZERO;
        } else units = units.plus(amount.div(p));
      }
      if (made.isZero()) continue;
      netFlows = netFlows.plus(made);
      flows.push({ date, amount: made.toNumber() });
      if (made.isPositive()) flowIn[d] += made.toNumber();
      else flowOut[d] -= made.toNumber();
    }
    // Before money is in it, the benchmark is worth nothing and needs no price.
    value[d] = units.isZero() ? 0 : units.toNumber() * unitPrice(date).toNumber();
  }
  const closing = units.isZero() ? ZERO : roundMoney(units.times(unitPrice(period.to)));
  const scope = { from: period.from, to: period.to, start: openDay };
  return {
    ...returnMethods(
      { value, flowIn, flowOut },
      { opening: opening.toNumber(), closing: closing.toNumber(), flows },
      scope,
    ),
    totalReturnValue: closing.minus(opening).minus(netFlows),
    daily: chain(scope, value, flowIn, flowOut).daily,
  };
}
