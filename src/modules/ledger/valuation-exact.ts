import { Decimal } from "../../lib/money";
import { incomeCashEffect, tradeCashEffect } from "./cash-effects";
import type { ExactDay, ValuationInput } from "./daily-valuation";
import type { Flow, FlowIncome } from "./flows";
import { roundMoney } from "./rounding";

/**
 * The daily engine's rules in Decimal: the cash each account holds (trade-date accounting), the
 * receivable amount of an income record, and one day valued exactly, the figures a report prints
 * (daily-valuation.ts runs the same rules in Float64 over every day).
 */
/** The movements of each cash account (its own transactions, synced trades on their trade date, synced income on its paid date). */
export function cashMovements(input: ValuationInput): Map<number, { date: string; amount: Decimal }[]> {
  const sign: Record<string, 1 | -1> = { Deposit: 1, Withdrawal: -1, InterestPayment: 1, Fee: -1, InterestCharged: -1 };
  const out = new Map<number, { date: string; amount: Decimal }[]>();
  for (const a of input.cashAccounts) {
    const list = a.transactions.map((c) => ({ date: c.date, amount: new Decimal(c.amount).times(sign[c.type] ?? 0) }));
    // DOMAIN §3 trade-date accounting: for valuation a synced trade moves cash on the trade date.
    if (a.syncTrades) for (const t of input.trades) if (t.currencyCode === a.currencyCode) {
      const amount = tradeCashEffect(t);
      if (!amount.isZero()) list.push({ date: t.date, amount });
    }
    if (a.syncIncome) for (const i of input.income) if (i.currencyCode === a.currencyCode) {
      const { amount } = incomeCashEffect(i);
      if (!amount.isZero()) list.push({ date: i.paidDate, amount });
    }
    out.set(a.id, list);
  }
  return out;
}

/** The net amount an income record is receivable at: what will arrive (DRP: the reinvested amount too). */
export function receivableAmount(i: FlowIncome): Decimal {
  return incomeCashEffect({ ...i, isReinvested: false }).amount;
}

/** The same rules in Decimal for one day: the figures a report prints. */
export function exactDay(input: ValuationInput, date: string, flows: Flow[], movements: Map<number, { date: string; amount: Decimal }[]>): ExactDay {
  const base = input.baseCurrencyCode;
  const rateOn = (currency: string) => input.fx.rateOn(currency, base, date)?.rate ?? null;
  const zero = new Decimal(0);
  let total = zero;
  const unvalued: number[] = [];
  const holdings = input.holdings.map((h) => {
    const units = h.timeline.on(date).units;
    const price = h.prices.priceOn(date).price;
    const rate = rateOn(h.currencyCode);
    const value = units.isZero() ? zero : price && rate ? roundMoney(units.times(price).times(rate)) : null;
    if (value) total = total.plus(value);
    else unvalued.push(h.id);
    return { id: h.id, units, price, rate, valueInBaseCurrency: value };
  });
  const cash = input.cashAccounts.map((a) => {
    const balance = movements.get(a.id)!.reduce((s, m) => (m.date <= date ? s.plus(m.amount) : s), zero);
    const rate = rateOn(a.currencyCode);
    const value = balance.isZero() ? zero : rate ? roundMoney(balance.times(rate)) : null;
    if (value) total = total.plus(value);
    return { id: a.id, balance, valueInBaseCurrency: value };
  });
  let receivable = zero;
  for (const i of input.income) {
    if (!(i.exDividendDate <= date && date < i.paidDate)) continue;
    const rate = rateOn(i.currencyCode);
    if (rate) receivable = receivable.plus(roundMoney(receivableAmount(i).times(rate)));
  }
  total = total.plus(receivable);
  let inflows = zero;
  let outflows = zero;
  for (const f of flows) {
    if (f.date !== date) continue;
    const rate = rateOn(f.currencyCode);
    if (!rate) continue;
    const v = roundMoney(f.amount.times(rate));
    if (f.direction === "in") inflows = inflows.plus(v);
    else outflows = outflows.plus(v);
  }
  return { date, holdings, cash, incomeReceivableInBaseCurrency: receivable, inflowsInBaseCurrency: inflows, outflowsInBaseCurrency: outflows, totalInBaseCurrency: total, unvalued };
}
