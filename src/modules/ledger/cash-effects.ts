import { fromDate, toDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import type { TradeType } from "./events";
import { roundMoney } from "./rounding";

/**
 * The cash effect of a trade and of an income record (docs/rules.md §9.1): the one definition both
 * cash ledgers read (the cash account's derived movements and the portfolio transaction ledger).
 * Pure: no Prisma, no clock. Signs: + money in, − money out, in the record's own currency.
 */

export { MONEY_DP, roundMoney } from "./rounding";

export interface TradeCashInput {
  tradeType: string;
  /** Units; the sign is ignored (a Sell may be entered with negative units). */
  quantity: Decimal.Value;
  /** Per unit in the trade's currency; for ReturnOfCapital the amount paid per unit. */
  price: Decimal.Value;
  brokerage: Decimal.Value;
}

/** The trade types that move cash; the rest move none (see tradeCashEffect). */
export const CASH_TRADE_TYPES = ["Buy", "Sell", "ReturnOfCapital"] as const satisfies readonly TradeType[];

/**
 * Signed cash amount of a trade in its currency. The value |units| × price is rounded to 4 dp
 * first (half-up), as the cash it settles is stored with 4 decimals; brokerage is already 4 dp.
 *
 * - Buy: −(value + brokerage): the investor pays the price and the broker, as the
 *   cost base and the external flow count it (docs/rules.md §2, §10).
 * - Sell: value − brokerage, as the external flow counts it (docs/rules.md §10).
 * - ReturnOfCapital: +value, the cash paid back per unit × units (docs/rules.md §10:
 *   the cash paid is the flow). Brokerage is not part of it: the parcel fold ignores brokerage on a capital
 *   return too, and a company paying capital back charges none.
 * - OpeningBalance, TransferIn, TransferOut: 0. Units cross the portfolio's boundary, not money;
 *   that is why docs/rules.md §10 counts them as external flows at units × price even when a synced cash
 *   account exists, and why the price on them is a valuation, never a payment.
 * - Split, Consolidation, Bonus, CostBaseIncrease, CostBaseDecrease, Cancellation: 0. They change
 *   units or cost base only (docs/rules.md §2); they are not flows but returns (§10).
 *   A CostBaseIncrease/Decrease records a tax adjustment (e.g. AMIT), not a payment; a
 *   Cancellation disposes of the units "for nothing".
 * Any other (unknown) type moves no cash.
 */
export function tradeCashEffect(t: TradeCashInput): Decimal {
  const value = () => roundMoney(new Decimal(t.quantity).abs().times(t.price));
  switch (t.tradeType) {
    case "Buy":
      return value().plus(t.brokerage).neg();
    case "Sell":
      return value().minus(t.brokerage);
    case "ReturnOfCapital":
      return value();
    default:
      return new Decimal(0);
  }
}

/** Whether a trade type moves cash at all (a synced cash account lists only these). */
export function movesCash(tradeType: string): boolean {
  return (CASH_TRADE_TYPES as readonly string[]).includes(tradeType);
}

export interface IncomeAmountsInput {
  frankedAmount: Decimal.Value;
  unfrankedAmount: Decimal.Value;
  foreignIncome: Decimal.Value;
  withholdingTax: Decimal.Value;
  foreignTaxPaid: Decimal.Value;
}

/**
 * Gross = franked + unfranked + foreign income; net = gross − withholding tax − foreign tax paid,
 * the cash that arrives (docs/rules.md §6.1).
 */
export function incomeAmounts(i: IncomeAmountsInput): { grossAmount: Decimal; netAmount: Decimal } {
  const grossAmount = new Decimal(i.frankedAmount).plus(i.unfrankedAmount).plus(i.foreignIncome);
  return { grossAmount, netAmount: grossAmount.minus(i.withholdingTax).minus(i.foreignTaxPaid) };
}

/**
 * Cash effect of an income record: its net amount, in its currency, on its paid date. Reinvested
 * (DRP) income moves no cash: the DRP units replace the receivable, with no flow
 * (docs/rules.md §6.2, §10). Every part is stored with 4
 * decimals, so the net needs no rounding; it is rounded anyway so the rule holds for any input.
 */
export function incomeCashEffect<D>(i: IncomeAmountsInput & { paidDate: D; isReinvested: boolean }): {
  date: D;
  amount: Decimal;
} {
  return { date: i.paidDate, amount: i.isReinvested ? new Decimal(0) : roundMoney(incomeAmounts(i).netAmount) };
}

/**
 * When a synced Buy or Sell moves a cash account's money: the trade date plus `businessDays` days,
 * counting Monday to Friday only (no public holidays). The account's own ledger uses it; for
 * valuation a synced trade moves cash on the trade date (docs/rules.md §9.2 trade-date accounting).
 */
export function settlementDate(tradeDate: string, businessDays: number): string {
  const d = toDate(tradeDate);
  for (let left = businessDays; left > 0;) {
    d.setUTCDate(d.getUTCDate() + 1);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return fromDate(d);
}
