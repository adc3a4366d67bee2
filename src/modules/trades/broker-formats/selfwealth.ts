import { emptyRead, findHeaderRow, isBlankRecord, RowReader, withReference, type BrokerFormat } from "./format";

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

export const selfwealth: BrokerFormat = {
  id: "selfwealth",
  name: "SelfWealth Movements",
  header: HEADER,
  media: "csv",
  findHeader: (records) => findHeaderRow(records, HEADER),
  read(columns, records) {
    const out = emptyRead();
    for (const record of records) {
      if (isBlankRecord(record)) continue;
      const row = new RowReader(columns, record, out.errors);
      const action = row.text("Action");
      const side = action.toLowerCase();
      if (side === "in") {
        // No price: a DRP allotment's cost base is in the DRP statement, a transfer's in the old broker's records.
        out.ignored.push({
          line: row.line,
          reason: `Action In (${row.text("Units") || "?"} ${row.text("Code")}) is a DRP allotment or a transfer in and has no price: record a DRP on its income record, a transfer as a TransferIn`,
        });
        continue;
      }
      if (side !== "buy" && side !== "sell") {
        out.ignored.push({
          line: row.line,
          reason: `Action ${action ? `"${action}"` : "(empty)"} is not a trade`,
        });
        continue;
      }
      out.trades.push({
        line: row.line,
        raw: {
          tradeDate: row.date("Trade Date", "yyyy-mm-dd"),
          tradeType: side === "buy" ? "Buy" : "Sell",
          symbol: row.required("Code").toUpperCase(),
          exchange: "ASX",
          quantity: row.amount("Units").replace(/^-/, ""),
          price: row.amount("Average Price"),
          brokerage: row.amount("Brokerage", "0").replace(/^-/, ""),
          currencyCode: "AUD",
          ...withReference(row.text("Reference")),
        },
      });
    }
    return out;
  },
};
