import { addDays } from "../../lib/dates";
import { Decimal, ZERO } from "../../lib/money";
import { type Steps } from "../../lib/slices";
import { dimensionValue, UNCLASSIFIED } from "../holdings/dimension";
import {
  receivableAmount,
  receivablesOn,
  roundMoney,
  type DailyValuation,
  type ExactDay,
  type Receivable,
  type ValuationRange,
} from "../ledger";
import { decompose, decomposeCash, decomposeLocal, sumComponents, type Amount } from "./decomposition";
import { type Period } from "./period";
import type { PerformanceHolding, PerformanceReport } from "./performance.views";
import { CASH_GROUP } from "./performance.views";
import {
  dated,
  dayCount,
  mergeParts,
  portfolioTotals,
  returnMethods,
  returnSummary,
  weight,
  type Part,
} from "./returns";

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
