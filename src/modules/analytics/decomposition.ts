import { Decimal, ZERO } from "../../lib/money";
import { roundMoney } from "../ledger";

/**
 * Where a return came from (docs/rules.md §11.4), pure and exact. Over a period, a holding's total gain in
 * the base currency is EMV − BMV − its flows (each flow at its own day's rate); the dividend return
 * is the net income with an ex-date in the period, each at its own rate; the capital gain is the
 * same sum in the holding's own currency with that income taken out, at the closing rate; the
 * currency gain is what is left. So the three add up to the total exactly, by construction, and a
 * base-currency holding (every rate 1) has no currency gain. Values include income receivable.
 *
 * Every amount comes in both currencies, converted by the caller at its own day's rate and rounded
 * as the portfolio's totals are: summed over holdings and cash accounts, the components add up to
 * the portfolio's EMV − BMV − external flows to the cent.
 */
export interface Amount {
  /** In the holding's (or cash account's) currency. */
  local: Decimal;
  /** In the base currency at the day's rate. */
  base: Decimal;
}

export interface HoldingPeriod {
  /** Value at the close of the day before the period (BMV). */
  opening: Amount;
  /** Value at the close of the period's last day (EMV), and the rate it was converted at. */
  closing: Amount;
  closingRate: Decimal;
  /** The holding's flows (+ in, − out). */
  flows: readonly Amount[];
  /** Net income with an ex-date in the period. */
  income: readonly Amount[];
}

export interface ReturnComponents {
  totalReturnValue: Decimal;
  capitalGainValue: Decimal;
  dividendReturnValue: Decimal;
  currencyGainValue: Decimal;
}

const sumOf = (amounts: readonly Amount[], pick: "local" | "base") => amounts.reduce((s, a) => s.plus(a[pick]), ZERO);

export function decompose(h: HoldingPeriod): ReturnComponents {
  const totalReturnValue = h.closing.base.minus(h.opening.base).minus(sumOf(h.flows, "base"));
  const dividendReturnValue = sumOf(h.income, "base");
  const capitalLocal = h.closing.local
    .minus(h.opening.local)
    .minus(sumOf(h.flows, "local"))
    .minus(sumOf(h.income, "local"));
  const capitalGainValue = roundMoney(capitalLocal.times(h.closingRate));
  return {
    totalReturnValue,
    capitalGainValue,
    dividendReturnValue,
    currencyGainValue: totalReturnValue.minus(capitalGainValue).minus(dividendReturnValue),
  };
}

/**
 * The same components in the holding's own currency (showLocalCurrency): no currency gain, the
 * capital gain is the rest after income.
 */
export function decomposeLocal(h: HoldingPeriod): ReturnComponents {
  const totalReturnValue = h.closing.local.minus(h.opening.local).minus(sumOf(h.flows, "local"));
  const dividendReturnValue = sumOf(h.income, "local");
  return {
    totalReturnValue,
    capitalGainValue: totalReturnValue.minus(dividendReturnValue),
    dividendReturnValue,
    currencyGainValue: ZERO,
  };
}

/**
 * A cash account's part (docs/rules.md §11.4): its interest less fees and interest charged is dividend
 * return; what its balance gained or lost in the base currency beyond its movements is currency
 * gain; it has no capital gain. Its transfers are deposits, withdrawals and the cash of synced
 * trades and income (+ into the account, − out of it), each in the base currency at its day's
 * rate: a synced buy's cash out of the account is the holding's flow in, so the two cancel in the
 * portfolio's sum.
 */
export interface CashPeriod {
  openingBase: Decimal;
  closingBase: Decimal;
  transfersBase: readonly Decimal[];
  interestBase: readonly Decimal[];
}

export function decomposeCash(c: CashPeriod): ReturnComponents {
  const totalReturnValue = c.transfersBase.reduce((s, t) => s.minus(t), c.closingBase.minus(c.openingBase));
  const dividendReturnValue = c.interestBase.reduce((s, i) => s.plus(i), ZERO);
  return {
    totalReturnValue,
    capitalGainValue: ZERO,
    dividendReturnValue,
    currencyGainValue: totalReturnValue.minus(dividendReturnValue),
  };
}

/** The components of several parts together: the sums, so they still add up. */
export function sumComponents(parts: readonly ReturnComponents[]): ReturnComponents {
  const sum = (pick: (c: ReturnComponents) => Decimal) => parts.reduce((s, c) => s.plus(pick(c)), ZERO);
  return {
    totalReturnValue: sum((c) => c.totalReturnValue),
    capitalGainValue: sum((c) => c.capitalGainValue),
    dividendReturnValue: sum((c) => c.dividendReturnValue),
    currencyGainValue: sum((c) => c.currencyGainValue),
  };
}
