import type { Context } from "../../context";
import { addDays } from "../../lib/dates";
import { DomainError } from "../../lib/errors";
import { Decimal, ZERO } from "../../lib/money";
import { inSlices, type Steps } from "../../lib/slices";
import { parseInput } from "../../lib/validation";
import { customGroupIdOf } from "../allocation-models/allocation-models.schemas";
import { dimensionValue, UNCLASSIFIED } from "../holdings/dimension";
import { PORTFOLIO_TAX_SELECT } from "../holdings/holding-values";
import {
  dayNumber,
  receivableAmount,
  receivablesOn,
  roundMoney,
  type DailyValuation,
  type ExactDay,
  type Receivable,
  type ValuationRange,
} from "../ledger";
import { scopedPortfolio } from "../portfolios/scoped";
import { PerformanceQuery } from "./analytics.schemas";
import {
  decompose,
  decomposeCash,
  decomposeLocal,
  sumComponents,
  type Amount,
  type ReturnComponents,
} from "./decomposition";
import { portfolioEngine } from "./engine-cache";
import { heavyWork } from "../../lib/heavy-work";
import { assertWithinLimits } from "./limits";
import { modifiedDietz, type Flow as DatedAmount } from "./modified-dietz";
import { chain, firstEventDate, resolvePeriod, type Period } from "./period";
import { xirr } from "./xirr";

/**
 * GET /v1/portfolios/{p}/performance, GraphQL `performance` and `Portfolio.performance`
 * (REPORTS.md §2): how the portfolio did over a period by every method of DOMAIN.md §3, where the
 * return came from, per holding and per group. Money figures are exact (the daily engine's Decimal
 * figures on the period's two ends and each flow at its day's rate); rates are Float64.
 *
 * The portfolio's totalReturn components are the sums of its holdings' and its cash accounts'
 * (interest to dividends, a foreign balance's rate moves to currency), so they add up to
 * EMV − BMV − external flows: a synced trade's cash leaving the account is the holding's flow in,
 * and the two cancel.
 */
export interface ReturnSummary {
  totalReturnValue: Decimal;
  totalReturnPercent: number | null;
  capitalGainValue: Decimal;
  capitalGainPercent: number | null;
  dividendReturnValue: Decimal;
  dividendReturnPercent: number | null;
  currencyGainValue: Decimal;
  currencyGainPercent: number | null;
  isAnnualized: boolean;
}

/** The three return methods of a scope over a period (REPORTS.md §2, §3). */
export interface ReturnMethods {
  timeWeightedReturn: { cumulativePercent: number; annualisedPercent: number | null };
  moneyWeightedReturn: { annualisedPercent: number | null };
  modifiedDietz: { cumulativePercent: number | null; annualisedPercent: number | null };
}

export interface PerformanceHolding {
  id: number;
  symbol: string;
  name: string;
  exchange: string;
  currencyCode: string;
  quantity: Decimal;
  currentPrice: Decimal | null;
  marketValue: Decimal;
  holdingWeight: number;
  totalReturn: ReturnSummary;
  groupedByValue: string;
}

export interface PerformanceGroup {
  label: string;
  marketValue: Decimal;
  weight: number;
  totalReturn: ReturnSummary;
}

export interface PerformanceReport extends ReturnMethods {
  portfolioId: number;
  portfolioName: string;
  baseCurrencyCode: string;
  from: string;
  to: string;
  generatedDate: Date;
  hasHoldings: boolean;
  openingValue: Decimal;
  totalValue: Decimal;
  netFlows: Decimal;
  totalReturn: ReturnSummary;
  holdings: PerformanceHolding[];
  groups?: PerformanceGroup[];
}

/** The group of the cash accounts (by currency, their currency). */
export const CASH_GROUP = "Cash";

export async function getPerformance(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<PerformanceReport> {
  const request = parseInput(PerformanceQuery, query ?? {}, "The query");
  assertWithinLimits(ctx, request, false);
  return heavyWork(ctx, () => performance(ctx, portfolioId, request));
}

async function performance(ctx: Context, portfolioId: unknown, request: PerformanceQuery): Promise<PerformanceReport> {
  const portfolio = await scopedPortfolio(ctx, portfolioId, undefined, { ...PORTFOLIO_TAX_SELECT, name: true });
  const period = resolvePeriod(request, await firstEventDate(ctx, { portfolioId: portfolio.id }));
  assertWithinLimits(ctx, period, false);
  const labels = await customLabels(ctx, portfolio.id, request.groupBy);
  const { range, engine } = await portfolioEngine(ctx, portfolio, period.start, period.to);
  return {
    portfolioId: portfolio.id,
    portfolioName: portfolio.name,
    baseCurrencyCode: portfolio.baseCurrencyCode,
    from: period.from,
    to: period.to,
    generatedDate: new Date(),
    ...(await inSlices(
      performanceSteps(range, engine, { ...period, start: range.from }, { ...request, labels }),
      ctx.signal,
    )),
  };
}

/** The labels of the custom group a `customGroup:{id}` groupBy names, by holding (404 when the account has no such group). */
async function customLabels(ctx: Context, portfolioId: number, groupBy: string): Promise<Map<number, string>> {
  const groupId = customGroupIdOf(groupBy);
  if (groupId === undefined) return new Map();
  const group = await ctx.db.customGroup.findFirst({
    where: { id: groupId, accountId: ctx.account.id },
    select: { assignments: { where: { holding: { portfolioId } }, select: { holdingId: true, label: true } } },
  });
  if (!group)
    throw new DomainError("NOT_FOUND", `Custom group ${groupId} was not found.`, [
      { path: "groupBy", message: `names custom group ${groupId}, which this account does not have` },
    ]);
  return new Map(group.assignments.map((a) => [a.holdingId, a.label]));
}

/** One scope's part of the return: a holding, a cash account, or their sum (a group, the portfolio). */
interface Part {
  components: ReturnComponents;
  opening: number;
  closing: number;
  flows: DatedAmount[];
}

interface Options {
  groupBy: string;
  showLocalCurrency: boolean;
  includeClosed: boolean;
  annualise: boolean;
  labels: ReadonlyMap<number, string>;
}

type PerformanceFigures = Omit<
  PerformanceReport,
  "portfolioId" | "portfolioName" | "baseCurrencyCode" | "from" | "to" | "generatedDate"
>;

/** The report over a loaded range (pure), as steps: it yields after each holding (lib/slices.ts). */
export function* performanceSteps(
  range: ValuationRange,
  engine: DailyValuation,
  period: Pick<Period, "from" | "to" | "start">,
  options: Options,
): Steps<PerformanceFigures> {
  const { from, to } = period;
  const base = range.baseCurrencyCode;
  const inPeriod = (date: string) => from <= date && date <= to;
  const openDay = addDays(from, -1);
  const open = engine.exactOn(openDay);
  const close = engine.exactOn(to);
  yield;
  const openReceivables = receivablesOn(range, openDay);
  const closeReceivables = receivablesOn(range, to);
  const days = dayCount(from, to);
  const isAnnualized = options.annualise && days >= 365;
  const summary = (part: Part) => returnSummary(part, period, isAnnualized);

  // Every flow converted once (the engine keeps them), a thousand at a time.
  let converted = 0;
  for (const f of engine.portfolioFlows) if (engine.flowValue(f) && ++converted % 1000 === 0) yield;
  const { openingValue, totalValue, netFlows, flows: portfolioFlows } = portfolioTotals(engine, period);

  // Each holding's part, in base and (for showLocalCurrency) in its own currency.
  const holdings: (PerformanceHolding & { part: Part; isOpen: boolean })[] = [];
  const parts: Part[] = [];
  const openBy = new Map(open.holdings.map((h) => [h.id, h]));
  const closeBy = new Map(close.holdings.map((h) => [h.id, h]));
  for (const h of range.holdings) {
    yield;
    const o = openBy.get(h.id)!;
    const c = closeBy.get(h.id)!;
    const flows = (engine.holdingFlows.get(h.id) ?? []).filter((f) => inPeriod(f.date));
    const income = range.income.filter((i) => i.holdingId === h.id && inPeriod(i.exDividendDate));
    // An amount in another currency than the holding's (a trade or income record may have its
    // own) counts in the holding's currency at the holding's rate of its day.
    const local = (amount: Decimal, currency: string, inBase: Decimal, date: string) => {
      if (currency === h.currencyCode) return amount;
      const rate = range.fx.rateOn(h.currencyCode, base, date)?.rate;
      // A Decimal is always truthy: the FX table keeps no rate ≤ 0, and this guard says so too.
      return rate?.gt(0) ? inBase.div(rate) : amount;
    };
    const opening = holdingValue(o, openReceivables, h.id, (r) =>
      local(r.amount, r.currencyCode, r.inBaseCurrency ?? ZERO, openDay),
    );
    const closing = holdingValue(c, closeReceivables, h.id, (r) =>
      local(r.amount, r.currencyCode, r.inBaseCurrency ?? ZERO, to),
    );
    if (
      o.units.isZero() &&
      c.units.isZero() &&
      flows.length === 0 &&
      income.length === 0 &&
      opening.base.isZero() &&
      closing.base.isZero()
    )
      continue;
    const flowAmounts = flows.map((f) => {
      const value = engine.flowValue(f);
      const inBase = value?.exact ?? ZERO;
      return {
        date: f.date,
        local: local(f.direction === "in" ? f.amount : f.amount.negated(), f.currencyCode, inBase, f.date),
        base: inBase,
        amount: value?.amount ?? 0,
      };
    });
    const incomeAmounts = income.map((i) => {
      const net = receivableAmount(i);
      const inBase = range.fx.convert(net, i.currencyCode, base, i.exDividendDate) ?? ZERO;
      return { local: local(net, i.currencyCode, inBase, i.exDividendDate), base: inBase };
    });
    const closingRate = c.rate ?? range.fx.rateOn(h.currencyCode, base, to)?.rate ?? ZERO;
    const holdingPeriod = { opening, closing, closingRate, flows: flowAmounts, income: incomeAmounts };
    const part: Part = {
      components: decompose(holdingPeriod),
      opening: opening.base.toNumber(),
      closing: closing.base.toNumber(),
      flows: flowAmounts.map((f) => ({ date: f.date, amount: f.amount })),
    };
    parts.push(part);
    const shown: Part = options.showLocalCurrency
      ? {
          components: decomposeLocal(holdingPeriod),
          opening: opening.local.toNumber(),
          closing: closing.local.toNumber(),
          flows: flowAmounts.map((f) => ({ date: f.date, amount: f.local.toNumber() })),
        }
      : part;
    const marketValue = c.valueInBaseCurrency ?? ZERO;
    holdings.push({
      id: h.id,
      symbol: h.symbol,
      name: h.name,
      exchange: h.exchange,
      currencyCode: h.currencyCode,
      quantity: c.units,
      currentPrice: c.price,
      marketValue: options.showLocalCurrency ? (c.price ? roundMoney(c.units.times(c.price)) : ZERO) : marketValue,
      holdingWeight: weight(marketValue, totalValue),
      totalReturn: summary(shown),
      groupedByValue: dimensionValue(h, options.groupBy, () => options.labels.get(h.id) ?? null) ?? UNCLASSIFIED,
      part,
      isOpen: !c.units.isZero(),
    });
  }

  // Each cash account's part: interest as dividends, its rate's moves as currency.
  const cashParts = range.cashAccounts.map((a) => {
    const movements = (engine.cashMovements.get(a.id) ?? []).filter((m) => inPeriod(m.date));
    const inBase = (m: { date: string; amount: Decimal }) =>
      range.fx.convert(m.amount, a.currencyCode, base, m.date) ?? ZERO;
    const transfers = movements.filter((m) => !m.isReturn).map((m) => ({ date: m.date, base: inBase(m) }));
    const openingBase = open.cash.find((x) => x.id === a.id)!.valueInBaseCurrency ?? ZERO;
    const closingBase = close.cash.find((x) => x.id === a.id)!.valueInBaseCurrency ?? ZERO;
    const components = decomposeCash({
      openingBase,
      closingBase,
      transfersBase: transfers.map((t) => t.base),
      interestBase: movements.filter((m) => m.isReturn).map(inBase),
    });
    return {
      currencyCode: a.currencyCode,
      marketValue: closingBase,
      part: { components, opening: openingBase.toNumber(), closing: closingBase.toNumber(), flows: dated(transfers) },
    };
  });

  // The portfolio's components are the sums; its total is EMV − BMV − net flows, which they equal
  // (the currency gain takes any difference, which only a flow without a rate could leave).
  const summed = sumComponents([...parts, ...cashParts.map((c) => c.part)].map((p) => p.components));
  const totalReturnValue = totalValue.minus(openingValue).minus(netFlows);
  const components = {
    ...summed,
    currencyGainValue: totalReturnValue.minus(summed.capitalGainValue).minus(summed.dividendReturnValue),
    totalReturnValue,
  };
  const portfolioPart: Part = {
    components,
    opening: openingValue.toNumber(),
    closing: totalValue.toNumber(),
    flows: portfolioFlows,
  };

  yield;
  const listed = holdings.filter((h) => options.includeClosed || h.isOpen);
  const report: PerformanceFigures = {
    hasHoldings: holdings.length > 0,
    openingValue,
    totalValue,
    netFlows,
    totalReturn: summary(portfolioPart),
    ...returnMethods({ value: engine.total, flowIn: engine.flowIn, flowOut: engine.flowOut }, portfolioPart, period),
    holdings: listed.map(({ part: _part, isOpen: _isOpen, ...h }) => h),
  };
  if (options.groupBy !== "holding") {
    const groups = new Map<string, { marketValue: Decimal; parts: Part[] }>();
    const add = (label: string, marketValue: Decimal, part: Part) => {
      const g = groups.get(label) ?? { marketValue: ZERO, parts: [] };
      groups.set(label, { marketValue: g.marketValue.plus(marketValue), parts: [...g.parts, part] });
    };
    for (const h of listed) add(h.groupedByValue, closeBy.get(h.id)!.valueInBaseCurrency ?? ZERO, h.part);
    for (const c of cashParts) add(options.groupBy === "currency" ? c.currencyCode : CASH_GROUP, c.marketValue, c.part);
    report.groups = [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([label, g]) => ({
        label,
        marketValue: g.marketValue,
        weight: weight(g.marketValue, totalValue),
        totalReturn: summary(mergeParts(g.parts)),
      }));
  }
  return report;
}

/**
 * The portfolio's exact ends and external flows over a period (DOMAIN §3): BMV at the close of the
 * day before `from`, EMV at the close of `to`, each flow at its day's rate.
 */
export function portfolioTotals(
  engine: DailyValuation,
  period: Pick<Period, "from" | "to">,
): { openingValue: Decimal; totalValue: Decimal; netFlows: Decimal; flows: DatedAmount[] } {
  let netFlows = ZERO;
  const flows: DatedAmount[] = [];
  for (const f of engine.portfolioFlows) {
    if (f.date < period.from || period.to < f.date) continue;
    const value = engine.flowValue(f);
    netFlows = netFlows.plus(value?.exact ?? 0);
    flows.push({ date: f.date, amount: value?.amount ?? 0 });
  }
  return {
    openingValue: engine.exactOn(addDays(period.from, -1)).totalInBaseCurrency,
    totalValue: engine.exactOn(period.to).totalInBaseCurrency,
    netFlows,
    flows,
  };
}

/** A holding's value (its units at the price and rate of the day) with the income receivable it is owed. */
function holdingValue(
  day: ExactDay["holdings"][number],
  receivables: Receivable[],
  holdingId: number,
  localOf: (r: Receivable) => Decimal,
): Amount {
  const own = receivables.filter((r) => r.holdingId === holdingId);
  const held = day.units.isZero() || !day.price ? ZERO : roundMoney(day.units.times(day.price));
  return {
    local: own.reduce((s, r) => s.plus(localOf(r)), held),
    base: own.reduce((s, r) => s.plus(r.inBaseCurrency ?? 0), day.valueInBaseCurrency ?? ZERO),
  };
}

function mergeParts(parts: Part[]): Part {
  return {
    components: sumComponents(parts.map((p) => p.components)),
    opening: parts.reduce((s, p) => s + p.opening, 0),
    closing: parts.reduce((s, p) => s + p.closing, 0),
    flows: parts.flatMap((p) => p.flows),
  };
}

function dated(amounts: { date: string; base: Decimal }[]): DatedAmount[] {
  return amounts.map((a) => ({ date: a.date, amount: a.base.toNumber() }));
}

const dayCount = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;

const weight = (value: Decimal, total: Decimal) => (total.isZero() ? 0 : value.div(total).toNumber() * 100);

/**
 * totalReturn: every component over the Modified Dietz denominator of the same scope, so they add
 * up to totalReturnPercent; annualised by average years invested (× 365 / days) when asked for and
 * the period has 365 days or more; null when the denominator is not positive (nothing invested).
 */
function returnSummary(part: Part, period: Pick<Period, "from" | "to">, isAnnualized: boolean): ReturnSummary {
  const md = modifiedDietz({
    openingValue: part.opening,
    closingValue: part.closing,
    flows: part.flows,
    from: period.from,
    to: period.to,
  });
  const scale = isAnnualized ? 365 / dayCount(period.from, period.to) : 1;
  const percent = (value: Decimal) =>
    md.averageCapital === null ? null : (value.toNumber() / md.averageCapital) * 100 * scale;
  const c = part.components;
  return {
    totalReturnValue: c.totalReturnValue,
    totalReturnPercent: percent(c.totalReturnValue),
    capitalGainValue: c.capitalGainValue,
    capitalGainPercent: percent(c.capitalGainValue),
    dividendReturnValue: c.dividendReturnValue,
    dividendReturnPercent: percent(c.dividendReturnValue),
    currencyGainValue: c.currencyGainValue,
    currencyGainPercent: percent(c.currencyGainValue),
    isAnnualized,
  };
}

/**
 * The three methods over a scope: TWR over its daily series (the whole portfolio's or a replayed
 * benchmark's), Modified Dietz and XIRR over its exact opening value, flows and closing value.
 * XIRR: the opening value is paid on the day before `from`, inflows paid, outflows received, the
 * closing value received on `to`.
 */
export function returnMethods(
  series: { value: ArrayLike<number>; flowIn: ArrayLike<number>; flowOut: ArrayLike<number> },
  part: Pick<Part, "opening" | "closing" | "flows">,
  period: Pick<Period, "from" | "to" | "start">,
): ReturnMethods {
  const twr = chain(period, series.value, series.flowIn, series.flowOut);
  const md = modifiedDietz({
    openingValue: part.opening,
    closingValue: part.closing,
    flows: part.flows,
    from: period.from,
    to: period.to,
  });
  const rate = xirr([
    { date: addDays(period.from, -1), amount: -part.opening },
    ...part.flows.map((f) => ({ date: f.date, amount: -f.amount })),
    { date: period.to, amount: part.closing },
  ]);
  return {
    timeWeightedReturn: { cumulativePercent: twr.cumulativePercent, annualisedPercent: twr.annualisedPercent },
    moneyWeightedReturn: { annualisedPercent: rate === null ? null : rate * 100 },
    modifiedDietz: { cumulativePercent: md.cumulativePercent, annualisedPercent: md.annualisedPercent },
  };
}
