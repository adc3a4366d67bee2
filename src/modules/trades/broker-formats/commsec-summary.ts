import { tabularAsxTrade, type AsxColumns, type AsxLayout } from "./asx-trade";
import { detector, eachRow, parseAmount, type BrokerFormat } from "./format";

/**
 * CommSec's Transaction Summary (the older, richer export; docs/data.md §4): a preamble (title,
 * period, account, name), the header, one quoted row a trade sorted by code, then a `GLOSSARY`
 * block. A sale is written with a negative Quantity, Trade Value and Total Value; the brokerage
 * column includes GST (`GST ($)` is its share, not an extra).
 */

const HEADER = [
  "Code",
  "Company",
  "Date",
  "Type",
  "Quantity",
  "Unit Price ($)",
  "Trade Value ($)",
  "Brokerage+GST ($)",
  "GST ($)",
  "Contract Note",
  "Total Value ($)",
] as const;

/** The first cell of the row that starts the trailer: everything from it on explains the columns. */
const TRAILER = "GLOSSARY";

/** Each trade field's column: read by these names, and named in the import's errors. */
const COLUMNS: AsxColumns = {
  tradeDate: "Date",
  tradeType: "Type",
  symbol: "Code",
  quantity: "Quantity",
  price: "Unit Price ($)",
  brokerage: "Brokerage+GST ($)",
  reference: "Contract Note",
};
/** A sale's values carry its side as a sign (a negative Quantity): its price is stored positive too. */
const LAYOUT: AsxLayout = { columns: COLUMNS, date: "dd/mm/yyyy", signedPrice: true };

export const commsecSummary: BrokerFormat = {
  columnOf: () => COLUMNS,
  id: "commsec-summary",
  name: "CommSec Transaction Summary",
  ...detector("csv", HEADER),
  read(columns, records) {
    const trailer = records.findIndex((r) => (r.cells[0] ?? "").trim().toUpperCase() === TRAILER);
    const out = eachRow(columns, trailer < 0 ? records : records.slice(0, trailer), (row, out) => {
      const type = row.text(COLUMNS.tradeType);
      const side = type.toLowerCase();
      if (side !== "buy" && side !== "sell") {
        const what = [row.text(COLUMNS.symbol), row.text("Company")].filter(Boolean).join(" ") || "(no code)";
        out.ignored.push({ line: row.line, reason: `Type ${type ? `"${type}"` : "(empty)"} is not a trade: ${what}` });
        return;
      }
      // A sale's values carry its side as a sign: a Buy's may not.
      const quantity = parseAmount(row.text(COLUMNS.quantity));
      if (side === "buy" && quantity?.startsWith("-")) row.fail(COLUMNS.quantity, `is negative for a Buy: ${quantity}`);
      out.trades.push(tabularAsxTrade(row, LAYOUT, side === "buy" ? "Buy" : "Sell"));
    });
    if (trailer >= 0) {
      // The glossary's lines are prose in the columns' places: read as rows they would be errors.
      const after = records.length - trailer - 1;
      out.ignored.push({
        line: records[trailer].line,
        reason: `${TRAILER}: the export's trailer starts here (this row and the ${after} after it explain the columns; they are not trades)`,
      });
    }
    return out;
  },
};
