import type { DatePattern } from "./broker-dates";
import { withReference, type BrokerTrade, type BrokerTradeBody, type ColumnOf, type RowReader } from "./format";

/**
 * The trades of the Australian brokers' exports (CommSec, SelfWealth): AUD on the ASX, and for the
 * tabular ones (a trade field a column) the columns named once, read and named in errors alike.
 */

/** An ASX trade's cells as read, in the order their errors are listed. */
export interface AsxTradeCells {
  date: string;
  side: BrokerTradeBody["tradeType"];
  symbol: string;
  /** Written negative for a sale by some exports: stored positive, the side says sell. */
  units: string;
  price: string;
  /** As written: a negative one is refused by the trade's rules, naming the column (columnOf). */
  brokerage: string;
  reference: string;
}

/** The trade on `row` of an Australian broker's export: AUD on the ASX, the code upper-cased. */
export const asxTrade = (row: RowReader, cells: AsxTradeCells): BrokerTrade => ({
  line: row.line,
  raw: {
    tradeDate: cells.date,
    tradeType: cells.side,
    symbol: cells.symbol.toUpperCase(),
    exchange: "ASX",
    quantity: cells.units.replace(/^-/, ""),
    price: cells.price,
    brokerage: cells.brokerage,
    currencyCode: "AUD",
    ...withReference(cells.reference),
  },
});

/** The columns of a tabular ASX export (one trade field a column): read by these names, and named in errors. */
export type AsxColumns = Required<
  Pick<ColumnOf, "tradeDate" | "tradeType" | "symbol" | "quantity" | "price" | "brokerage" | "reference">
>;

/** How a tabular ASX export writes its dates, and whether a sale's price is written negative. */
export interface AsxLayout {
  columns: AsxColumns;
  date: DatePattern;
  /** d/mm/yyyy too, as a spreadsheet re-saves the dates (RowReader.date). */
  dayFirst?: boolean;
  /** A sale's price is written negative (its side as a sign): stored positive. */
  signedPrice?: boolean;
}

/**
 * The trade on `row` of a tabular ASX export, each cell read from the column `layout` names: the
 * same map the format gives as its columnOf, so the column read and the column an error names are
 * one name, written once.
 */
export function tabularAsxTrade(row: RowReader, layout: AsxLayout, side: BrokerTradeBody["tradeType"]): BrokerTrade {
  const { columns } = layout;
  return asxTrade(row, {
    date: row.date(columns.tradeDate, layout.date, layout.dayFirst),
    side,
    symbol: row.required(columns.symbol),
    units: row.amount(columns.quantity),
    price: layout.signedPrice ? row.amount(columns.price).replace(/^-/, "") : row.amount(columns.price),
    brokerage: row.amount(columns.brokerage, "0"),
    reference: row.text(columns.reference),
  });
}
