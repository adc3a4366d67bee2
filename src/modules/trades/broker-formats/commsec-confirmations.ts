import { tabularAsxTrade, type AsxColumns, type AsxLayout } from "./asx-trade";
import { detector, eachRow, type BrokerFormat } from "./format";

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

/** Each trade field's column: read by these names, and named in the import's errors. */
const COLUMNS: AsxColumns = {
  tradeDate: "Trade Date",
  tradeType: "Buy/ Sell",
  symbol: "Security",
  quantity: "Units",
  price: "Average Price ($)",
  brokerage: "Brokerage (inc GST.)",
  reference: "Confirmation Number",
};
const LAYOUT: AsxLayout = { columns: COLUMNS, date: "dd/mm/yyyy" };

export const commsecConfirmations: BrokerFormat = {
  columnOf: () => COLUMNS,
  id: "commsec-confirmations",
  name: "CommSec Confirmations",
  ...detector("csv", HEADER),
  read: (columns, records) =>
    eachRow(columns, records, (row, out) => {
      const status = row.text("Confirmation Status");
      if (CANCELLED.test(status)) {
        const number = row.text(COLUMNS.reference);
        out.ignored.push({
          line: row.line,
          reason: `Confirmation ${number ? `${number} ` : ""}is "${status}": a cancelled confirmation is not a trade`,
        });
        return;
      }
      const written = row.text(COLUMNS.tradeType);
      const side = written.toUpperCase();
      if (side !== "B" && side !== "S") row.fail(COLUMNS.tradeType, `is not B or S: ${written || "(empty)"}`);
      out.trades.push(tabularAsxTrade(row, LAYOUT, side === "S" ? "Sell" : "Buy"));
    }),
};
