import { Decimal } from "../../../lib/money";
import { atOnce, inSlices, type Steps } from "../../../lib/slices";
import type { DatedSeries } from "../dated-series";
import { allFlowsSteps, flowInBaseCurrency, type Flow } from "../flows";
import { cashMovements, exactDay, exactIndex, receivableAmount, type CashMovement, type ExactIndex } from "./exact-day";
import type { ExactDay, ValuationInput } from "./input";

export type { ValuationHolding, ValuationCashAccount, ValuationInput, ExactHolding, ExactDay } from "./input";

/**
 * The daily valuation engine (docs/rules.md §7–10): for every calendar day of a period, per holding its
 * units, price, rate and value; the cash accounts' balances; income receivable; the day's
 * external flows. The one series that timeseries, performance, benchmark, rebalancing and
 * unrealised gains read. Pure: everything comes from the range load.
 *
 * The inner loop over days × holdings runs in Float64 (decimal arithmetic is ~1,000× slower
 * there): every input is read once into typed arrays and walked with one pointer per series.
 * Money figures that are reported come from `exactOn(date)`, which applies the same rules in
 * Decimal for one day; a test holds the two to the cent over ten years.
 */
export interface HoldingSeries {
  id: number;
  currencyCode: string;
  units: Float64Array;
  /** NaN where the holding has no price yet. */
  price: Float64Array;
  /** NaN where no rate exists. */
  rate: Float64Array;
  /** Base currency; NaN where units are held but price or rate is missing. */
  value: Float64Array;
  /** The income it is owed (from each record's ex-date to the day before it is paid), base currency. */
  receivable: Float64Array;
  flowIn: Float64Array;
  flowOut: Float64Array;
}

export interface CashSeries {
  id: number;
  currencyCode: string;
  /** In the account's currency. */
  balance: Float64Array;
  /** Base currency. */
  value: Float64Array;
}

export interface FlowValue {
  exact: Decimal;
  amount: number;
}

export interface DailyValuation {
  days: string[];
  holdings: HoldingSeries[];
  cash: CashSeries[];
  incomeReceivable: Float64Array;
  /** The portfolio's external flows of each day, base currency (docs/rules.md §10). */
  flowIn: Float64Array;
  flowOut: Float64Array;
  /** Holdings + cash + receivable, base currency (unvalued holdings count 0). */
  total: Float64Array;
  /** The portfolio's external flows in the record's currency, exact (net invested sums them). */
  portfolioFlows: readonly Flow[];
  /** Each holding's flows, the same way. */
  holdingFlows: ReadonlyMap<number, readonly Flow[]>;
  /** Each cash account's movements, exact (exact-day.ts). */
  cashMovements: ReadonlyMap<number, readonly CashMovement[]>;
  /**
   * A flow of this engine in the base currency at its day's rate (flowInBaseCurrency), signed, exact
   * and as a number; null without a rate. Memoised: a cached engine converts each flow once.
   */
  flowValue(flow: Flow): FlowValue | null;
  exactOn(date: string): ExactDay;
}

const DAY_MS = 86_400_000;
const dayNumbers = new Map<string, number>();
/** Days since 1970-01-01 of a YYYY-MM-DD date; memoised, as the same dates recur across every series of a portfolio. */
export function dayNumber(date: string): number {
  let n = dayNumbers.get(date);
  if (n === undefined) {
    n = Date.parse(date + "T00:00:00Z") / DAY_MS;
    if (dayNumbers.size < 200_000) dayNumbers.set(date, n);
  }
  return n;
}

/** Every calendar day from `from` to `to`, inclusive. */
export function calendarDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let n = dayNumber(from), end = dayNumber(to); n <= end; n++)
    days.push(new Date(n * DAY_MS).toISOString().slice(0, 10));
  return days;
}

/** A dated series as day offsets from `from` and Float64 values, for the pointer walk. */
function walkable<T>(
  series: DatedSeries<T>,
  from: number,
  toNumber: (v: T) => number,
): { at: Int32Array; values: Float64Array } {
  const at = new Int32Array(series.length);
  const values = new Float64Array(series.length);
  for (let i = 0; i < series.length; i++) {
    at[i] = dayNumber(series.dates[i]) - from;
    values[i] = toNumber(series.values[i]);
  }
  return { at, values };
}

/** Fills `out[d]` with the latest value dated ≤ day d (NaN before the first). */
function fillDaily(series: { at: Int32Array; values: Float64Array }, out: Float64Array): void {
  let k = -1;
  for (let d = 0; d < out.length; d++) {
    while (k + 1 < series.at.length && series.at[k + 1] <= d) k++;
    out[d] = k < 0 ? NaN : series.values[k];
  }
}

/** The engine over a range, computed at once. */
export function dailyValuation(input: ValuationInput): DailyValuation {
  return atOnce(valuationSteps(input));
}

/** The same engine computed in slices that give the event loop a turn (lib/slices.ts); it stops when `signal` aborts. */
export function dailyValuationSliced(input: ValuationInput, signal?: AbortSignal): Promise<DailyValuation> {
  return inSlices(valuationSteps(input), signal);
}

/** The engine as steps: it yields after the flows, after each holding and each cash account. */
function* valuationSteps(input: ValuationInput): Steps<DailyValuation> {
  const days = calendarDays(input.from, input.to);
  const n = days.length;
  const from = dayNumber(input.from);
  const base = input.baseCurrencyCode;

  // The rate of each currency on each day, by the one FX rule (a few currencies × n lookups).
  const rateCache = new Map<string, Float64Array>();
  const ratesOf = (currency: string) => {
    let r = rateCache.get(currency);
    if (!r) {
      r = new Float64Array(n);
      for (let d = 0; d < n; d++) {
        const hit = input.fx.rateOn(currency, base, days[d]);
        r[d] = hit ? hit.rate.toNumber() : NaN;
      }
      rateCache.set(currency, r);
    }
    return r;
  };
  const dayOf = (date: string) => dayNumber(date) - from;

  const flowIn = new Float64Array(n);
  const flowOut = new Float64Array(n);
  const addFlows = (flows: Flow[], into: Float64Array, out: Float64Array) => {
    for (const f of flows) {
      const d = dayOf(f.date);
      if (d < 0 || d >= n) continue;
      const v = f.amount.toNumber() * ratesOf(f.currencyCode)[d];
      // Without a rate the flow counts 0, as the exact figures count it (flowInBaseCurrency).
      if (!Number.isNaN(v)) (f.direction === "in" ? into : out)[d] += v;
    }
  };
  const tradeSynced = new Set(input.cashAccounts.filter((a) => a.syncTrades).map((a) => a.currencyCode));
  const incomeSynced = new Set(input.cashAccounts.filter((a) => a.syncIncome).map((a) => a.currencyCode));
  const cashTransactions = input.cashAccounts.flatMap((a) => a.transactions);
  const flows = yield* allFlowsSteps({
    trades: input.trades,
    income: input.income,
    cashTransactions,
    tradeSyncedCurrencies: tradeSynced,
    incomeSyncedCurrencies: incomeSynced,
  });
  yield;
  addFlows(flows.portfolio, flowIn, flowOut);
  yield;

  const total = new Float64Array(n);
  const holdings: HoldingSeries[] = [];
  for (const h of input.holdings) {
    yield;
    const units = new Float64Array(n);
    const positions = h.timeline.days;
    fillDaily(
      walkable(positions, from, (p) => p.units.toNumber()),
      units,
    );
    for (let d = 0; d < n; d++) if (Number.isNaN(units[d])) units[d] = 0;
    // Price on d: custom first, else market, else the last trade (docs/rules.md §7), each the latest ≤ d.
    const { custom, market, lastTrade } = h.prices.series;
    const price = new Float64Array(n).fill(NaN);
    const layer = new Float64Array(n);
    for (const s of [lastTrade, market, custom]) {
      fillDaily(
        walkable(s, from, (v) => Number(v)),
        layer,
      );
      for (let d = 0; d < n; d++) if (!Number.isNaN(layer[d])) price[d] = layer[d];
    }
    const rate = ratesOf(h.currencyCode);
    const value = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      const u = units[d];
      value[d] = u === 0 ? 0 : u * price[d] * rate[d];
      if (!Number.isNaN(value[d])) total[d] += value[d];
    }
    const hIn = new Float64Array(n);
    const hOut = new Float64Array(n);
    addFlows(flows.byHolding.get(h.id) ?? [], hIn, hOut);
    holdings.push({
      id: h.id,
      currencyCode: h.currencyCode,
      units,
      price,
      rate: rate.slice(),
      value,
      receivable: new Float64Array(n),
      flowIn: hIn,
      flowOut: hOut,
    });
  }

  const movements = cashMovements(input);
  const cash: CashSeries[] = [];
  for (const a of input.cashAccounts) {
    yield;
    const sorted = [...movements.get(a.id)!].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
    const balance = new Float64Array(n);
    let k = 0;
    let running = 0;
    for (; k < sorted.length && dayOf(sorted[k].date) < 0; k++) running += sorted[k].amount.toNumber();
    for (let d = 0; d < n; d++) {
      while (k < sorted.length && dayOf(sorted[k].date) <= d) running += sorted[k++].amount.toNumber();
      balance[d] = running;
    }
    const rate = ratesOf(a.currencyCode);
    const value = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      value[d] = balance[d] === 0 ? 0 : balance[d] * rate[d];
      if (!Number.isNaN(value[d])) total[d] += value[d];
    }
    cash.push({ id: a.id, currencyCode: a.currencyCode, balance, value });
  }

  // Income receivable (docs/rules.md §10): its net amount from the ex-dividend date to the day before it is paid.
  const incomeReceivable = new Float64Array(n);
  const holdingById = new Map(holdings.map((h) => [h.id, h]));
  for (const i of input.income) {
    const net = receivableAmount(i).toNumber();
    if (net === 0) continue;
    const rate = ratesOf(i.currencyCode);
    const owed = holdingById.get(i.holdingId)?.receivable;
    for (let d = Math.max(0, dayOf(i.exDividendDate)), end = Math.min(n, dayOf(i.paidDate)); d < end; d++) {
      const v = net * rate[d];
      if (Number.isNaN(v)) continue;
      incomeReceivable[d] += v;
      if (owed) owed[d] += v;
    }
  }
  for (let d = 0; d < n; d++) total[d] += incomeReceivable[d];

  const exact = new Map<string, ExactDay>();
  const flowValues = new Map<Flow, FlowValue | null>();
  let index: ExactIndex | undefined;
  return {
    days,
    holdings,
    cash,
    incomeReceivable,
    flowIn,
    flowOut,
    total,
    portfolioFlows: flows.portfolio,
    holdingFlows: flows.byHolding,
    cashMovements: movements,
    flowValue: (flow) => {
      let value = flowValues.get(flow);
      if (value === undefined) {
        const exact = flowInBaseCurrency(flow, input.fx, base);
        value = exact ? { exact, amount: exact.toNumber() } : null;
        flowValues.set(flow, value);
      }
      return value;
    },
    exactOn: (date) => {
      // Memoised (a report asks for the same ends more than once); bounded, as a cached engine lives on.
      let day = exact.get(date);
      if (!day) {
        if (exact.size >= 64) exact.clear();
        index ??= exactIndex(flows.portfolio, movements);
        day = exactDay(input, date, index);
        exact.set(date, day);
      }
      return day;
    },
  };
}
