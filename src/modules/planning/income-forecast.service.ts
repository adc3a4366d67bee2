import type { Context } from "../../context";
import { addDays, addMonthsClamped, fromDate, toDate, today } from "../../lib/dates";
import { businessRule } from "../../lib/domain-errors";
import { heavyWork } from "../../lib/heavy-work";
import { Decimal, ZERO } from "../../lib/money";
import { parseId, parseInput } from "../../lib/validation";
import { INCOME_SELECT, toIncomeView } from "../income/income-view";
import { atOneMoment, loadLedger, unitsTimeline, valueHoldingsOn } from "../ledger";
import { securityKey, securityTable } from "../ledger/market-data";
import { loadFxTable } from "../ledger/fx-load";
import { scopedPortfolio } from "../ledger/portfolio-access";
import { noRate, rateFromTable } from "../trades/trade-exchange-rate";
import {
  ANNOUNCED_WINDOW_DAYS,
  forecastEnd,
  incomeForecastOf,
  type AnnouncedDividend,
  type IncomeForecast,
  type TrailingIncome,
} from "./income-forecast";
import { IncomeForecastQuery } from "./income-forecast.schemas";

/**
 * GET /v1/portfolios/{p}/income-forecast, GraphQL `incomeForecast` (docs/reports.md §6.2): the
 * income of the next `months` months if the last twelve months' repeat on the units held now, the
 * provider's announced dividends in place of their twins. Reads the ledger as of one moment, like
 * the tax reports (ledger/moment.ts), and writes nothing.
 */
export function incomeForecast(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<IncomeForecast> {
  return heavyWork(ctx, async () => {
    const request = parseInput(IncomeForecastQuery, query ?? {}, "The query");
    const id = parseId(portfolioId, "portfolioId");
    const from = request.from ?? today();
    const months = request.months ?? 12;
    const { value } = await atOneMoment(ctx.db, { portfolioIds: [id], accountId: ctx.account.id }, () =>
      readForecast(ctx, id, from, months),
    );
    return value;
  });
}

/** Holdings a provider's dividends never concern (docs/data.md §3). */
const UNLISTED = new Set(["Custom", "Cash"]);

async function readForecast(ctx: Context, portfolioId: number, from: string, months: number): Promise<IncomeForecast> {
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const to = forecastEnd(from, months);
  // The start of `from` is the close of the day before: the ledger up to it holds every ex-date's units too.
  const dayBefore = addDays(from, -1);
  const [ledger, holdingRows, incomeRows, fx] = await Promise.all([
    loadLedger(ctx.db, portfolio, undefined, dayBefore),
    ctx.db.holding.findMany({
      where: { portfolioId: portfolio.id },
      select: { id: true, portfolioId: true, symbol: true, exchange: true, currencyCode: true, holdingType: true },
      orderBy: { id: "asc" },
    }),
    ctx.db.income.findMany({
      where: {
        portfolioId: portfolio.id,
        // The calculator keeps those whose ex-date a year on is on or after `from`.
        exDividendDate: { gte: toDate(addDays(addMonthsClamped(from, -12), -1)), lt: toDate(from) },
      },
      select: INCOME_SELECT,
      orderBy: [{ exDividendDate: "asc" }, { id: "asc" }],
    }),
    loadFxTable(ctx.db, portfolio, [from]),
  ]);
  const timelines = new Map([...ledger.eventsByHolding].map(([id, events]) => [id, unitsTimeline(events)]));
  const unitsAtStartOf = (holdingId: number, date: string) =>
    timelines.get(holdingId)?.on(addDays(date, -1)).units ?? ZERO;
  const held = holdingRows.filter((h) => unitsAtStartOf(h.id, from).gt(0));

  const listed = held.filter((h) => !UNLISTED.has(h.holdingType));
  const [positions, providerRows] = await Promise.all([
    valueHoldingsOn(ctx.db, [portfolio], held, dayBefore),
    listed.length
      ? ctx.db.$queryRaw<{ symbol: string; exchange: string; exDate: Date; amount: string; currencyCode: string }[]>`
          SELECT d.symbol, d.exchange, d.ex_date AS "exDate", d.amount::text AS amount, d.currency_code AS "currencyCode"
          FROM ${securityTable(listed, "w")}
          JOIN provider_dividend d ON d.symbol = w.symbol AND d.exchange = w.exchange
          WHERE d.ex_date BETWEEN ${toDate(from)} AND ${toDate(addDays(to, ANNOUNCED_WINDOW_DAYS))}
          ORDER BY d.symbol, d.exchange, d.ex_date`
      : Promise.resolve([]),
  ]);

  const heldIds = new Set(held.map((h) => h.id));
  const income: TrailingIncome[] = incomeRows
    .filter((r) => heldIds.has(r.holdingId))
    .map(toIncomeView)
    .map((r) => ({
      incomeId: r.id,
      holdingId: r.holdingId,
      exDividendDate: r.exDividendDate,
      paidDate: r.paidDate,
      currencyCode: r.currencyCode,
      grossAmount: r.grossAmount,
      netAmount: r.netAmount,
      frankingCredits: r.frankingCredits,
      unitsEntitled: unitsAtStartOf(r.holdingId, r.exDividendDate),
    }));
  // One holding a security in a portfolio (the holding table's key).
  const holdingOf = new Map(listed.map((h) => [securityKey(h), h]));
  const announced: AnnouncedDividend[] = providerRows.map((d) => ({
    holdingId: holdingOf.get(securityKey(d))!.id,
    exDate: fromDate(d.exDate),
    amountPerUnit: new Decimal(d.amount),
    currencyCode: d.currencyCode,
  }));

  // Base currency at `from`'s rate, by the one FX rule (docs/rules.md §8).
  const rates = new Map<string, Decimal>();
  for (const currency of new Set([...income.map((r) => r.currencyCode), ...announced.map((a) => a.currencyCode)])) {
    const rate =
      currency === portfolio.baseCurrencyCode ? new Decimal(1) : rateFromTable(fx, portfolio, currency, from);
    if (!rate) throw businessRule(`${noRate(portfolio, currency, from)}: import rates (POST /v1/fx-rates/bulk).`);
    rates.set(currency, rate);
  }

  return incomeForecastOf({
    portfolioId: portfolio.id,
    from,
    months,
    currency: portfolio.baseCurrencyCode,
    holdings: held.map((h) => ({
      holdingId: h.id,
      symbol: h.symbol,
      exchange: h.exchange,
      units: unitsAtStartOf(h.id, from),
    })),
    income,
    announced,
    rates,
    // A holding without a price or rate counts 0, as in the timeseries' marketValue (docs/reports.md §1).
    marketValue: held.reduce((s, h) => s.plus(positions.get(h.id)?.marketValueInBaseCurrency ?? ZERO), ZERO),
  });
}
