import { Decimal } from "../../lib/money";
import { atOnce, type Steps } from "../../lib/slices";
import { incomeCashEffect, tradeCashEffect, type IncomeAmountsInput } from "./cash-effects";
import type { FxTable } from "./fx";
import { roundMoney } from "./rounding";

/**
 * External flows (docs/rules.md §10): money crossing the boundary of a portfolio or of one holding, in
 * the currency of the record; the daily engine converts each at its day's rate. Pure.
 *
 * Portfolio: a cash account's Deposit (in) and Withdrawal (out); every trade or income not settled
 * through a synced cash account: Buy in (units × price + brokerage), OpeningBalance and TransferIn
 * in (units × price), Sell out (units × price − brokerage), TransferOut out (units × price),
 * ReturnOfCapital out (the cash paid), income out on its paid date (net; reinvested: none). Units
 * that cross the boundary (OpeningBalance, TransferIn, TransferOut) are flows even when a cash
 * account is synced: no money moved through it. Interest, fees, splits, bonuses, cost base
 * adjustments and cancellations are returns, not flows.
 *
 * Holding: its acquiring trades in, its disposing trades and capital returns out, its income out
 * on the paid date (DRP excepted), whatever the cash accounts do.
 */
export interface Flow {
  date: string;
  /** Positive; `direction` says which way. */
  amount: Decimal;
  direction: "in" | "out";
  currencyCode: string;
  /** The holding the flow belongs to; absent for cash account deposits and withdrawals. */
  holdingId?: number;
}

export interface FlowTrade {
  holdingId: number;
  tradeType: string;
  date: string;
  quantity: Decimal.Value;
  price: Decimal.Value;
  brokerage: Decimal.Value;
  currencyCode: string;
}

export interface FlowIncome extends IncomeAmountsInput {
  holdingId: number;
  paidDate: string;
  isReinvested: boolean;
  currencyCode: string;
}

export interface FlowCashTransaction {
  type: string;
  date: string;
  /** Positive, as stored. */
  amount: Decimal.Value;
  currencyCode: string;
}

/** The units × price of a trade that moves units across the boundary without cash. */
const unitsValue = (t: FlowTrade) => roundMoney(new Decimal(t.quantity).abs().times(t.price));

/** A holding's flows from one trade (none for splits, bonuses, adjustments, cancellations). */
export function holdingTradeFlow(t: FlowTrade): Flow | undefined {
  const at = (amount: Decimal, direction: "in" | "out"): Flow => ({
    date: t.date,
    amount,
    direction,
    currencyCode: t.currencyCode,
    holdingId: t.holdingId,
  });
  switch (t.tradeType) {
    case "Buy":
    case "Sell":
    case "ReturnOfCapital": {
      // The cash the trade moves, seen from the holding: paid in on a buy, taken out otherwise.
      const cash = tradeCashEffect(t);
      return at(cash.abs(), cash.isNegative() ? "in" : "out");
    }
    case "OpeningBalance":
    case "TransferIn":
      return at(unitsValue(t), "in");
    case "TransferOut":
      return at(unitsValue(t), "out");
    default:
      return undefined;
  }
}

/** A holding's flow from one income record: its net amount out on the paid date, DRP excepted. */
export function holdingIncomeFlow(i: FlowIncome): Flow | undefined {
  if (i.isReinvested) return undefined;
  const { amount } = incomeCashEffect(i);
  return amount.isZero()
    ? undefined
    : {
        date: i.paidDate,
        amount: amount.abs(),
        direction: amount.isNegative() ? "in" : "out",
        currencyCode: i.currencyCode,
        holdingId: i.holdingId,
      };
}

export interface PortfolioFlowInput {
  trades: FlowTrade[];
  income: FlowIncome[];
  cashTransactions: FlowCashTransaction[];
  /** Currencies in which a cash account syncs trades / income (they settle there: no flow). */
  tradeSyncedCurrencies: ReadonlySet<string>;
  incomeSyncedCurrencies: ReadonlySet<string>;
}

/** Whether a holding's flow is also the portfolio's: not when it settled through a synced cash account. */
function crossesPortfolio(
  kind: "trade" | "income",
  tradeType: string | undefined,
  currencyCode: string,
  input: Pick<PortfolioFlowInput, "tradeSyncedCurrencies" | "incomeSyncedCurrencies">,
): boolean {
  if (kind === "income") return !input.incomeSyncedCurrencies.has(currencyCode);
  const crossesWithUnits = tradeType === "OpeningBalance" || tradeType === "TransferIn" || tradeType === "TransferOut";
  return crossesWithUnits || !input.tradeSyncedCurrencies.has(currencyCode);
}

/** A cash account's deposit or withdrawal as a flow; other transactions are returns. */
export function cashTransactionFlow(c: FlowCashTransaction): Flow | undefined {
  if (c.type !== "Deposit" && c.type !== "Withdrawal") return undefined;
  return {
    date: c.date,
    amount: new Decimal(c.amount),
    direction: c.type === "Deposit" ? "in" : "out",
    currencyCode: c.currencyCode,
  };
}

/**
 * Every flow of the portfolio and of each of its holdings, each record's flow computed once: the
 * holding flows are all trade and income flows; the portfolio's are those that did not settle
 * through a synced cash account, plus deposits and withdrawals.
 */
export function allFlows(input: PortfolioFlowInput): { portfolio: Flow[]; byHolding: Map<number, Flow[]> } {
  return atOnce(allFlowsSteps(input));
}

/** allFlows as steps: it yields every hundred records (lib/slices.ts). */
export function* allFlowsSteps(
  input: PortfolioFlowInput,
): Steps<{ portfolio: Flow[]; byHolding: Map<number, Flow[]> }> {
  const portfolio: Flow[] = [];
  const byHolding = new Map<number, Flow[]>();
  const add = (flow: Flow | undefined, toPortfolio: boolean) => {
    if (!flow) return;
    if (toPortfolio) portfolio.push(flow);
    const list = byHolding.get(flow.holdingId!);
    if (list) list.push(flow);
    else byHolding.set(flow.holdingId!, [flow]);
  };
  for (const c of input.cashTransactions) {
    const flow = cashTransactionFlow(c);
    if (flow) portfolio.push(flow);
  }
  let n = 0;
  for (const t of input.trades) {
    add(holdingTradeFlow(t), crossesPortfolio("trade", t.tradeType, t.currencyCode, input));
    if (++n % 100 === 0) yield;
  }
  for (const i of input.income) add(holdingIncomeFlow(i), crossesPortfolio("income", undefined, i.currencyCode, input));
  return { portfolio, byHolding };
}

/** Every external flow of a portfolio. */
export function portfolioFlows(input: PortfolioFlowInput): Flow[] {
  return allFlows(input).portfolio;
}

/** Every flow of one holding. */
export function holdingFlows(holdingId: number, trades: FlowTrade[], income: FlowIncome[]): Flow[] {
  const none = new Set<string>();
  return (
    allFlows({
      trades: trades.filter((t) => t.holdingId === holdingId),
      income: income.filter((i) => i.holdingId === holdingId),
      cashTransactions: [],
      tradeSyncedCurrencies: none,
      incomeSyncedCurrencies: none,
    }).byHolding.get(holdingId) ?? []
  );
}

/**
 * A flow in the base currency at its day's rate (docs/rules.md §10), rounded as every reported figure is,
 * signed + in and − out; null when no rate exists that day (the daily engine counts it 0 too).
 */
export function flowInBaseCurrency(f: Flow, fx: FxTable, base: string): Decimal | null {
  const amount = fx.convert(f.amount, f.currencyCode, base, f.date);
  return amount && f.direction === "out" ? amount.negated() : amount;
}
