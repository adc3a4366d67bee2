import { emptyRead, findHeaderRow, isBlankRecord, RowReader, withReference, type BrokerFormat } from "./format";

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

export const commsecConfirmations: BrokerFormat = {
  id: "commsec-confirmations",
  name: "CommSec Confirmations",
  header: HEADER,
  media: "csv",
  findHeader: (records) => findHeaderRow(records, HEADER),
  read(columns, records) {
    const out = emptyRead();
    for (const record of records) {
      if (isBlankRecord(record)) continue;
      const row = new RowReader(columns, record, out.errors);
      const status = row.text("Confirmation Status");
      if (CANCELLED.test(status)) {
        const number = row.text("Confirmation Number");
        out.ignored.push({
          line: row.line,
          reason: `Confirmation ${number ? `${number} ` : ""}is "${status}": a cancelled confirmation is not a trade`,
        });
        continue;
      }
      const side = row.text("Buy/ Sell").toUpperCase();
      if (side !== "B" && side !== "S") row.fail("Buy/ Sell", `is not B or S: ${row.text("Buy/ Sell") || "(empty)"}`);
      out.trades.push({
        line: row.line,
        raw: {
          tradeDate: row.date("Trade Date", "dd/mm/yyyy"),
          tradeType: side === "S" ? "Sell" : "Buy",
          symbol: row.required("Security").toUpperCase(),
          exchange: "ASX",
          quantity: row.amount("Units").replace(/^-/, ""),
          price: row.amount("Average Price ($)"),
          brokerage: row.amount("Brokerage (inc GST.)", "0").replace(/^-/, ""),
          currencyCode: "AUD",
          ...withReference(row.text("Confirmation Number")),
        },
      });
    }
    return out;
  },
};
