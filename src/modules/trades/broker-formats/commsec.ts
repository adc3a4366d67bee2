import { Decimal } from "../../../lib/money";
import { asxTrade } from "./asx-trade";
import { detector, eachRow, parseAmount, type BrokerFormat, type ColumnOf, type RowReader } from "./format";
import { businessDaysBefore } from "./broker-dates";

/**
 * CommSec's Transactions export (`Transactions_<account>_<from>_<to>.csv`, the cash-account view
 * of the trading account; docs/data.md §4). It has no trade columns: a trade is a row whose
 * `Details` reads `B 1,000 CBA @ 94.500000` or `S …`, and its `Date` is the day the money moved,
 * the settlement date. Every other row (interest, dividends, deposits, withdrawals, transfers) is
 * cash, not a trade.
 */

const HEADER = ["Date", "Reference", "Details", "Debit($)", "Credit($)", "Balance($)"] as const;

/** The trade a `Details` cell describes; units may carry thousands commas (`B 1,000 CBA @ 94.50`). */
const TRADE = /^([BS])\s+(\d{1,3}(?:,\d{3})+|\d+)\s+([A-Z0-9]{2,6})\s+@\s+(\d[\d,]*(?:\.\d+)?)$/;
/** A `Details` that starts as a trade does: one that does not then read as TRADE is an error, not cash. */
const LOOKS_LIKE_TRADE = /^[BS]\s/;

/** ASX trades settle T+2 (since March 2016). */
const SETTLEMENT_DAYS = 2;

export const DERIVED_TRADE_DATES =
  "CommSec's Transactions export dates a trade on its settlement day: each trade date is the Date " +
  "less 2 business days (Monday to Friday). Public holidays are not known, so a trade that settled " +
  "after one is dated a business day late; the Transaction Summary or Confirmations export gives the trade dates.";

/** The columns of the trade fields (the import names these in its errors). */
const COLUMN_OF: ColumnOf = {
  tradeDate: "Date",
  tradeType: "Details",
  symbol: "Details",
  quantity: "Details",
  price: "Details",
  reference: "Reference",
};

export const commsec: BrokerFormat = {
  columnOf: () => COLUMN_OF,
  id: "commsec",
  name: "CommSec Transactions",
  ...detector("csv", HEADER),
  read(columns, records) {
    const out = eachRow(columns, records, (row, out) => {
      const details = row.text("Details").replace(/\s+/g, " ");
      if (!LOOKS_LIKE_TRADE.test(details)) {
        out.ignored.push({ line: row.line, reason: `Details "${details}" is not a trade` });
        return;
      }
      const m = TRADE.exec(details);
      if (!m) {
        row.fail("Details", `reads as a trade but not as "B|S <units> <code> @ <price>": ${details}`);
        return;
      }
      const [, side, unitsText, symbol, priceText] = m;
      const settlementDate = row.date("Date", "dd/mm/yyyy");
      const quantity = parseAmount(unitsText) ?? "0";
      const price = parseAmount(priceText) ?? "0";
      const brokerage = brokerageOf(row, side === "B", new Decimal(quantity).times(price));
      out.trades.push(
        asxTrade(row, {
          date: businessDaysBefore(settlementDate, SETTLEMENT_DAYS),
          side: side === "B" ? "Buy" : "Sell",
          symbol,
          units: quantity,
          price,
          brokerage,
          reference: row.text("Reference"),
        }),
      );
    });
    if (out.trades.length > 0) out.warnings.push(DERIVED_TRADE_DATES);
    return out;
  },
};

/**
 * The brokerage of a trade row: a buy is money out (Debit), its value plus the brokerage; a sale
 * money in (Credit), its value less the brokerage. The column says which way the money went: a
 * total written negative or in parentheses, as a spreadsheet may re-save it, is the same amount.
 * A total on the wrong side of the value (a brokerage below zero), or money both ways, contradicts
 * the row and is refused naming the column: the row's money would otherwise be stored wrong.
 */
function brokerageOf(row: RowReader, buy: boolean, value: Decimal): string {
  const [paid, other] = buy ? ["Debit($)", "Credit($)"] : ["Credit($)", "Debit($)"];
  const otherAmount = parseAmount(row.text(other));
  if (otherAmount !== undefined && !new Decimal(otherAmount).isZero())
    row.fail(other, `holds ${row.text(other)}, but a ${buy ? "buy" : "sale"}'s money is in ${paid} alone`);
  const total = new Decimal(row.amount(paid)).abs();
  const brokerage = (buy ? total.minus(value) : value.minus(total)).toDecimalPlaces(2);
  if (brokerage.isNegative())
    row.fail(
      paid,
      `is ${total.toFixed(2)}, ${buy ? "less" : "more"} than the units × price (${value.toFixed(2)}): a ${buy ? "buy's debit is its value plus" : "sale's credit is its value less"} the brokerage`,
    );
  return brokerage.abs().toFixed();
}
