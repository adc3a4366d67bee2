import { emptyRead, findHeaderRow, isBlankRecord, RowReader, withReference, type BrokerFormat } from "./format";

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

export const commsecSummary: BrokerFormat = {
  id: "commsec-summary",
  name: "CommSec Transaction Summary",
  header: HEADER,
  media: "csv",
  findHeader: (records) => findHeaderRow(records, HEADER),
  read(columns, records) {
    const out = emptyRead();
    for (const [i, record] of records.entries()) {
      if (isBlankRecord(record)) continue;
      const row = new RowReader(columns, record, out.errors);
      if ((record.cells[0] ?? "").trim().toUpperCase() === TRAILER) {
        // The glossary's lines are prose in the columns' places: read as rows they would be errors.
        const after = records.length - i - 1;
        out.ignored.push({
          line: row.line,
          reason: `${TRAILER}: the export's trailer starts here (this row and the ${after} after it explain the columns; they are not trades)`,
        });
        break;
      }
      const type = row.text("Type");
      const side = type.toLowerCase();
      if (side !== "buy" && side !== "sell") {
        const what = [row.text("Code"), row.text("Company")].filter(Boolean).join(" ") || "(no code)";
        out.ignored.push({ line: row.line, reason: `Type ${type ? `"${type}"` : "(empty)"} is not a trade: ${what}` });
        continue;
      }
      const quantity = row.amount("Quantity");
      if (side === "buy" && quantity.startsWith("-")) row.fail("Quantity", `is negative for a Buy: ${quantity}`);
      out.trades.push({
        line: row.line,
        raw: {
          tradeDate: row.date("Date", "dd/mm/yyyy"),
          tradeType: side === "buy" ? "Buy" : "Sell",
          symbol: row.required("Code").toUpperCase(),
          exchange: "ASX",
          quantity: quantity.replace(/^-/, ""),
          price: row.amount("Unit Price ($)").replace(/^-/, ""),
          brokerage: row.amount("Brokerage+GST ($)", "0").replace(/^-/, ""),
          currencyCode: "AUD",
          ...withReference(row.text("Contract Note")),
        },
      });
    }
    return out;
  },
};
