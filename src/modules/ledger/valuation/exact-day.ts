import { Decimal, ZERO } from "../../../lib/money";
import { incomeCashEffect, tradeCashEffect } from "../cash-effects";
import type { ExactDay, ExactHolding, ValuationInput } from "./input";
import { DatedSeries } from "../dated-series";
import { flowInBaseCurrency, type Flow, type FlowIncome } from "../flows";
import { roundMoney } from "../rounding";

/**
 * The daily engine's rules in Decimal: the cash each account holds (trade-date accounting), the
 * receivable amount of an income record, and one day valued exactly, the figures a report prints
 * (daily-series.ts runs the same rules in Float64 over every day).
 */
export interface CashMovement {
  date: string;
  /** Signed, in the account's currency. */
  amount: Decimal;
  /**
   * Interest, fees and interest charged: what the account earned or paid (a return). Deposits,
   * withdrawals and synced trades and income move money in or out of it (not a return).
   */
  isReturn: boolean;
}

const CASH_SIGN: Record<string, 1 | -1> = {
  Deposit: 1,
  Withdrawal: -1,
  InterestPayment: 1,
  Fee: -1,
  InterestCharged: -1,
};
const CASH_RETURNS = new Set(["InterestPayment", "Fee", "InterestCharged"]);

/** The movements of each cash account (its own transactions, synced trades on their trade date, synced income on its paid date). */
export function cashMovements(input: ValuationInput): Map<number, CashMovement[]> {
  const out = new Map<number, CashMovement[]>();
  for (const a of input.cashAccounts) {
    const list = a.transactions.map((c) => ({
      date: c.date,
      amount: new Decimal(c.amount).times(CASH_SIGN[c.type] ?? 0),
      isReturn: CASH_RETURNS.has(c.type),
    }));
    // Trade-date accounting (docs/rules.md §9.2): for valuation a synced trade moves cash on the trade date.
    if (a.syncTrades)
      for (const t of input.trades)
        if (t.currencyCode === a.currencyCode) {
          const amount = tradeCashEffect(t);
          if (!amount.isZero()) list.push({ date: t.date, amount, isReturn: false });
        }
    if (a.syncIncome)
      for (const i of input.income)
        if (i.currencyCode === a.currencyCode) {
          const { amount } = incomeCashEffect(i);
          if (!amount.isZero()) list.push({ date: i.paidDate, amount, isReturn: false });
        }
    out.set(a.id, list);
  }
  return out;
}

/** The net amount an income record is receivable at: what will arrive (DRP: the reinvested amount too). */
export function receivableAmount(i: FlowIncome): Decimal {
  return incomeCashEffect({ ...i, isReinvested: false }).amount;
}

export interface Receivable {
  holdingId: number;
  /** The record's currency. */
  currencyCode: string;
  amount: Decimal;
  /** Rounded at the day's rate; null without one (the total counts it 0). */
  inBaseCurrency: Decimal | null;
}

/** The income receivable at the close of a day (docs/rules.md §10): each record from its ex-date to the day before it is paid. */
export function receivablesOn(
  input: Pick<ValuationInput, "income" | "fx" | "baseCurrencyCode">,
  date: string,
): Receivable[] {
  const out: Receivable[] = [];
  for (const i of input.income) {
    if (!(i.exDividendDate <= date && date < i.paidDate)) continue;
    const amount = receivableAmount(i);
    out.push({
      holdingId: i.holdingId,
      currencyCode: i.currencyCode,
      amount,
      inBaseCurrency: input.fx.convert(amount, i.currencyCode, input.baseCurrencyCode, date),
    });
  }
  return out;
}

/** One holding valued at the close of a day in Decimal (docs/rules.md §7): its units × price × rate, rounded; null value when units are held without a price or rate. */
export function exactHolding(
  h: ValuationInput["holdings"][number],
  fx: ValuationInput["fx"],
  base: string,
  date: string,
): ExactHolding {
  const units = h.timeline.on(date).units;
  const price = h.prices.priceOn(date).price;
  const rate = fx.rateOn(h.currencyCode, base, date)?.rate ?? null;
  const value = units.isZero() ? ZERO : price && rate ? roundMoney(units.times(price).times(rate)) : null;
  return { id: h.id, units, price, rate, valueInBaseCurrency: value };
}

/** What exactDay reads besides the input, indexed once per engine: the day's flows, and each cash account's balance on a day. */
export interface ExactIndex {
  flowsOn(date: string): readonly Flow[];
  balanceOn(cashAccountId: number, date: string): Decimal;
}

export function exactIndex(
  flows: readonly Flow[],
  movements: ReadonlyMap<number, readonly CashMovement[]>,
): ExactIndex {
  const byDate = new Map<string, Flow[]>();
  for (const f of flows) {
    const list = byDate.get(f.date);
    if (list) list.push(f);
    else byDate.set(f.date, [f]);
  }
  // Per account: the movements' dates in order and the balance after each date's movements.
  const balances = new Map<number, DatedSeries<Decimal>>();
  for (const [id, list] of movements) {
    const sorted = [...list].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const dates: string[] = [];
    const values: Decimal[] = [];
    let running = ZERO;
    for (const m of sorted) {
      running = running.plus(m.amount);
      if (dates.at(-1) === m.date) values[values.length - 1] = running;
      else {
        dates.push(m.date);
        values.push(running);
      }
    }
    balances.set(id, DatedSeries.sorted(dates, values));
  }
  return {
    flowsOn: (date) => byDate.get(date) ?? [],
    balanceOn: (id, date) => balances.get(id)?.on(date)?.value ?? ZERO,
  };
}

/** The same rules in Decimal for one day: the figures a report prints. */
export function exactDay(input: ValuationInput, date: string, index: ExactIndex): ExactDay {
  const base = input.baseCurrencyCode;
  let total = ZERO;
  const unvalued: number[] = [];
  const holdings = input.holdings.map((h) => {
    const exact = exactHolding(h, input.fx, base, date);
    if (exact.valueInBaseCurrency) total = total.plus(exact.valueInBaseCurrency);
    else unvalued.push(h.id);
    return exact;
  });
  const cash = input.cashAccounts.map((a) => {
    const balance = index.balanceOn(a.id, date);
    const value = balance.isZero() ? ZERO : input.fx.convert(balance, a.currencyCode, base, date);
    if (value) total = total.plus(value);
    return { id: a.id, balance, valueInBaseCurrency: value };
  });
  const receivable = receivablesOn(input, date).reduce((s, r) => s.plus(r.inBaseCurrency ?? 0), ZERO);
  total = total.plus(receivable);
  let inflows = ZERO;
  let outflows = ZERO;
  for (const f of index.flowsOn(date)) {
    const v = flowInBaseCurrency(f, input.fx, base);
    if (!v) continue;
    if (f.direction === "in") inflows = inflows.plus(v);
    else outflows = outflows.minus(v);
  }
  return {
    date,
    holdings,
    cash,
    incomeReceivableInBaseCurrency: receivable,
    inflowsInBaseCurrency: inflows,
    outflowsInBaseCurrency: outflows,
    totalInBaseCurrency: total,
    unvalued,
  };
}
