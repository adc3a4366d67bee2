import { Decimal } from "../../lib/money";
import { roundMoney } from "../ledger";

/**
 * Where a holding's return came from (DOMAIN.md §3), pure and exact: over a period, its total gain
 * in the base currency is EMV − BMV − its flows (each flow at its own day's rate); the dividend
 * return is the net income with an ex-date in the period, each at its own rate; the capital gain is
 * the same sum in the holding's own currency with that income taken out, at the closing rate; the
 * currency gain is what is left. So the three add up to the total exactly, by construction, and a
 * base-currency holding (every rate 1) has no currency gain. Values include income receivable.
 */
export interface HoldingPeriod {
  /** Value at the close of the day before the period (BMV), in the holding's currency, and its rate. */
  openingValueLocal: Decimal;
  openingRate: Decimal;
  /** Value at the close of the period's last day (EMV), in the holding's currency, and its rate. */
  closingValueLocal: Decimal;
  closingRate: Decimal;
  /** The holding's flows (+ in, − out), each in its currency with its day's rate. */
  flows: readonly { amountLocal: Decimal; rate: Decimal }[];
  /** Net income with an ex-date in the period, each with its own rate. */
  income: readonly { netLocal: Decimal; rate: Decimal }[];
}

export interface ReturnComponents {
  totalReturnValue: Decimal;
  capitalGainValue: Decimal;
  dividendReturnValue: Decimal;
  currencyGainValue: Decimal;
}

const ZERO = new Decimal(0);

export function decompose(h: HoldingPeriod): ReturnComponents {
  const flowsBase = h.flows.reduce((s, f) => s.plus(f.amountLocal.times(f.rate)), ZERO);
  const flowsLocal = h.flows.reduce((s, f) => s.plus(f.amountLocal), ZERO);
  const incomeLocal = h.income.reduce((s, i) => s.plus(i.netLocal), ZERO);
  const totalReturnValue = roundMoney(h.closingValueLocal.times(h.closingRate).minus(h.openingValueLocal.times(h.openingRate)).minus(flowsBase));
  const dividendReturnValue = roundMoney(h.income.reduce((s, i) => s.plus(i.netLocal.times(i.rate)), ZERO));
  const capitalGainValue = roundMoney(h.closingValueLocal.minus(h.openingValueLocal).minus(flowsLocal).minus(incomeLocal).times(h.closingRate));
  return { totalReturnValue, capitalGainValue, dividendReturnValue, currencyGainValue: totalReturnValue.minus(capitalGainValue).minus(dividendReturnValue) };
}

/** The portfolio's components: the sums of its holdings' (and cash accounts'), so they still add up. */
export function sumComponents(parts: readonly ReturnComponents[]): ReturnComponents {
  const sum = (pick: (c: ReturnComponents) => Decimal) => parts.reduce((s, c) => s.plus(pick(c)), ZERO);
  return {
    totalReturnValue: sum((c) => c.totalReturnValue),
    capitalGainValue: sum((c) => c.capitalGainValue),
    dividendReturnValue: sum((c) => c.dividendReturnValue),
    currencyGainValue: sum((c) => c.currencyGainValue),
  };
}
