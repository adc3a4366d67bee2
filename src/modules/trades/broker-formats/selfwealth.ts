import { tabularAsxTrade, type AsxColumns, type AsxLayout } from "./asx-trade";
import { detector, eachRow, type BrokerFormat } from "./format";

/**
 * SelfWealth's Movements export (docs/data.md §4): one movement a row, dates as
 * `yyyy-mm-dd 00:00:00`, `Action` Buy, Sell or In. The price is `Average Price` (Consideration is
 * units × price; Total adds or takes off the brokerage). Another layout circulates
 * (`…,Code,Company,Units,Average Price,Brokerage,Total Value`, dd/mm/yyyy) but no real export
 * confirms it, so the header is matched strictly.
 */

const HEADER = [
  "Trade Date",
  "Settlement Date",
  "Action",
  "Reference",
  "Code",
  "Name",
  "Units",
  "Average Price",
  "Consideration",
  "Brokerage",
  "Total",
] as const;

/** Each trade field's column: read by these names, and named in the import's errors. */
const COLUMNS: AsxColumns = {
  tradeDate: "Trade Date",
  tradeType: "Action",
  symbol: "Code",
  quantity: "Units",
  price: "Average Price",
  brokerage: "Brokerage",
  reference: "Reference",
};
const LAYOUT: AsxLayout = { columns: COLUMNS, date: "yyyy-mm-dd", dayFirst: true };

export const selfwealth: BrokerFormat = {
  columnOf: () => COLUMNS,
  id: "selfwealth",
  name: "SelfWealth Movements",
  ...detector("csv", HEADER),
  read: (columns, records) =>
    eachRow(columns, records, (row, out) => {
      const action = row.text(COLUMNS.tradeType);
      const side = action.toLowerCase();
      if (side === "in") {
        // No price: a DRP allotment's cost base is in the DRP statement, a transfer's in the old broker's records.
        out.ignored.push({
          line: row.line,
          reason: `Action In (${row.text(COLUMNS.quantity) || "?"} ${row.text(COLUMNS.symbol)}) is a DRP allotment or a transfer in and has no price: record a DRP on its income record, a transfer as a TransferIn`,
        });
        return;
      }
      if (side !== "buy" && side !== "sell") {
        out.ignored.push({
          line: row.line,
          reason: `Action ${action ? `"${action}"` : "(empty)"} is not a trade`,
        });
        return;
      }
      out.trades.push(tabularAsxTrade(row, LAYOUT, side === "buy" ? "Buy" : "Sell"));
    }),
};
