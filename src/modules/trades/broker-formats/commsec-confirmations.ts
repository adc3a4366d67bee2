import { asxTrade, detector, eachRow, type BrokerFormat, type ColumnOf } from "./format";

/**
 * CommSec's Confirmations export (Manage Orders → Confirmations → CSV; docs/data.md §4): one
 * confirmation (contract note) a row, on its trade date, `B`/`S`, the brokerage including GST.
 * The header writes `Buy/ Sell` with a stray space, which column matching does not see.
 */

const HEADER = [
  "Confirmation Number",
  "Order Number",
  "Trade Date",
  "Buy/ Sell",
  "Security",
  "Units",
  "Average Price ($)",
  "Brokerage (inc GST.)",
  "Net Proceeds ($)",
  "Settlement Date",
  "Confirmation Status",
] as const;

/**
 * Only `Confirmed` is documented (docs/research: one real file). A status that says the
 * confirmation was cancelled (`Cancelled`, `Canceled`, `Cancelled - Rebooked`...) is no trade; any
 * other status is read as a trade rather than guessed away.
 */
const CANCELLED = /cancel/i;

/** The columns of the trade fields (the import names these in its errors). */
const COLUMN_OF: ColumnOf = {
  tradeDate: "Trade Date",
  tradeType: "Buy/ Sell",
  symbol: "Security",
  quantity: "Units",
  price: "Average Price ($)",
  brokerage: "Brokerage (inc GST.)",
  reference: "Confirmation Number",
};

export const commsecConfirmations: BrokerFormat = {
  columnOf: () => COLUMN_OF,
  id: "commsec-confirmations",
  name: "CommSec Confirmations",
  ...detector("csv", HEADER),
  read: (columns, records) =>
    eachRow(columns, records, (row, out) => {
      const status = row.text("Confirmation Status");
      if (CANCELLED.test(status)) {
        const number = row.text("Confirmation Number");
        out.ignored.push({
          line: row.line,
          reason: `Confirmation ${number ? `${number} ` : ""}is "${status}": a cancelled confirmation is not a trade`,
        });
        return;
      }
      const side = row.text("Buy/ Sell").toUpperCase();
      if (side !== "B" && side !== "S") row.fail("Buy/ Sell", `is not B or S: ${row.text("Buy/ Sell") || "(empty)"}`);
      out.trades.push(
        asxTrade(row, {
          date: row.date("Trade Date", "dd/mm/yyyy"),
          side: side === "S" ? "Sell" : "Buy",
          symbol: row.required("Security"),
          units: row.amount("Units"),
          price: row.amount("Average Price ($)"),
          brokerage: row.amount("Brokerage (inc GST.)", "0"),
          reference: row.text("Confirmation Number"),
        }),
      );
    }),
};
