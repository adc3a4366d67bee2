import { addDays } from "../../lib/dates";
import { Decimal, ZERO } from "../../lib/money";
import { dayNumber, type DailyValuation } from "../ledger";
import { sumComponents, type ReturnComponents } from "./decomposition";
import { modifiedDietz, type DatedAmount } from "./modified-dietz";
import { chain, type Period } from "./period";
import { xirr } from "./xirr";
import type { ReturnMethods, ReturnSummary } from "./performance.views";

/**
 * The return of a scope (a holding, a cash account, a group, the portfolio) by each method, over
 * the exact figures of its two ends and its flows: pure, shared by the performance report and the
 * benchmark.
 */

/** One scope's part of the return: a holding, a cash account, or their sum (a group, the portfolio). */
export interface Part {
  components: ReturnComponents;
  opening: number;
  closing: number;
  flows: DatedAmount[];
}

/**
 * The portfolio's exact ends and external flows over a period (docs/rules.md §10): BMV at the close of the
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

export function mergeParts(parts: Part[]): Part {
  return {
    components: sumComponents(parts.map((p) => p.components)),
    opening: parts.reduce((s, p) => s + p.opening, 0),
    closing: parts.reduce((s, p) => s + p.closing, 0),
    flows: parts.flatMap((p) => p.flows),
  };
}

export function dated(amounts: { date: string; base: Decimal }[]): DatedAmount[] {
  return amounts.map((a) => ({ date: a.date, amount: a.base.toNumber() }));
}

/** Modified Dietz over a scope's exact ends and flows. */
const dietzOf = (part: Pick<Part, "opening" | "closing" | "flows">, period: Pick<Period, "from" | "to">) =>
  modifiedDietz({
    openingValue: part.opening,
    closingValue: part.closing,
    flows: part.flows,
    from: period.from,
    to: period.to,
  });

export const dayCount = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;

export const weight = (value: Decimal, total: Decimal) => (total.isZero() ? 0 : value.div(total).toNumber() * 100);

/**
 * totalReturn: every component over the Modified Dietz denominator of the same scope, so they add
 * up to totalReturnPercent; annualised by average years invested (× 365 / days) when asked for and
 * the period has 365 days or more; null when the denominator is not positive (nothing invested).
 */
export function returnSummary(part: Part, period: Pick<Period, "from" | "to">, isAnnualized: boolean): ReturnSummary {
  const md = dietzOf(part, period);
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
  const md = dietzOf(part, period);
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
