import { Decimal } from "../../../lib/money";
import { tabularAsxTrade, type AsxColumns, type AsxLayout } from "./asx-trade";
import { detector, eachRow, type BrokerFormat, type BrokerTrade, type RowReader } from "./format";

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
      const errors = out.errors.length;
      const trade = tabularAsxTrade(row, LAYOUT, side === "buy" ? "Buy" : "Sell");
      // The money is checked against a trade whose cells all read: a cell that did not is its own error.
      if (out.errors.length === errors) checkMoney(row, trade);
      out.trades.push(trade);
    }),
};

/** Half a unit in the last decimal of each: Average Price has 6, Consideration 4, Total 2. */
const PRICE_ROUNDING = new Decimal("0.0000005");
const CONSIDERATION_ROUNDING = new Decimal("0.00005");
const CENT = new Decimal("0.005");

/**
 * A row's money must agree with its trade, as SelfWealth writes it: Consideration is the units
 * times the Average Price (rounded to 6 decimals, so to within half a millionth a unit), Total
 * the consideration plus the brokerage for a buy, less it for a sale. The import stores units,
 * price and brokerage: a row whose money says otherwise (a cell edited or shifted in a
 * spreadsheet) is refused naming the column, not stored as a trade the broker did not make. An
 * empty Consideration or Total is not checked.
 */
function checkMoney(row: RowReader, { raw }: BrokerTrade): void {
  const units = new Decimal(raw.quantity);
  const value = units.times(raw.price);
  const considerationCell = row.amount("Consideration", "");
  if (considerationCell === "") return;
  const consideration = new Decimal(considerationCell).abs();
  if (consideration.minus(value).abs().gt(units.times(PRICE_ROUNDING).plus(CONSIDERATION_ROUNDING)))
    row.fail(
      "Consideration",
      `is ${consideration.toFixed()}, but Units × Average Price is ${value.toFixed()} (${raw.quantity} × ${raw.price}): the row's money disagrees with its trade`,
    );
  const totalCell = row.amount("Total", "");
  if (totalCell === "") return;
  const total = new Decimal(totalCell).abs();
  const buy = raw.tradeType === "Buy";
  const expected = consideration[buy ? "plus" : "minus"](raw.brokerage);
  if (total.minus(expected).abs().gt(CENT))
    row.fail(
      "Total",
      `is ${total.toFixed()}, but Consideration ${buy ? "plus" : "less"} Brokerage is ${expected.toFixed()}: a ${buy ? "buy's" : "sale's"} total is its consideration ${buy ? "plus" : "less"} the brokerage`,
    );
}
