import { csvView } from "../../lib/csv-out";
import type { PortfolioTransactionView } from "./transactions.service";

/** A page of the portfolio's transactions as a spreadsheet (`Accept: text/csv`): the JSON's fields, one row each. */
export const TRANSACTIONS_CSV = csvView<PortfolioTransactionView>("transactions.csv", [
  { header: "date", value: (t) => t.date },
  { header: "kind", value: (t) => t.kind },
  { header: "type", value: (t) => t.type },
  { header: "id", value: (t) => t.id },
  { header: "holdingId", value: (t) => t.holdingId },
  { header: "symbol", value: (t) => t.symbol },
  { header: "exchange", value: (t) => t.exchange },
  { header: "cashAccountId", value: (t) => t.cashAccountId },
  { header: "quantity", value: (t) => t.quantity },
  { header: "price", value: (t) => t.price },
  { header: "amount", value: (t) => t.amount },
  { header: "currencyCode", value: (t) => t.currencyCode },
  { header: "description", value: (t) => t.description },
]);
