import { csvView } from "../../lib/csv-out";
import type { PerformanceHolding, PerformanceReport } from "./performance.views";

/**
 * The performance report by holding as a spreadsheet (`Accept: text/csv`): one row per holding
 * of the JSON's `holdings`, its return components flattened; values in the base currency.
 */
export const PERFORMANCE_CSV = csvView<PerformanceHolding, PerformanceReport>(
  "performance-by-holding.csv",
  [
    { header: "id", value: (h) => h.id },
    { header: "symbol", value: (h) => h.symbol },
    { header: "exchange", value: (h) => h.exchange },
    { header: "name", value: (h) => h.name },
    { header: "currencyCode", value: (h) => h.currencyCode },
    { header: "quantity", value: (h) => h.quantity },
    { header: "currentPrice", value: (h) => h.currentPrice },
    { header: "marketValue", value: (h) => h.marketValue },
    { header: "holdingWeight", value: (h) => h.holdingWeight },
    { header: "group", value: (h) => h.groupedByValue },
    { header: "capitalGainValue", value: (h) => h.totalReturn.capitalGainValue },
    { header: "capitalGainPercent", value: (h) => h.totalReturn.capitalGainPercent },
    { header: "dividendReturnValue", value: (h) => h.totalReturn.dividendReturnValue },
    { header: "dividendReturnPercent", value: (h) => h.totalReturn.dividendReturnPercent },
    { header: "currencyGainValue", value: (h) => h.totalReturn.currencyGainValue },
    { header: "currencyGainPercent", value: (h) => h.totalReturn.currencyGainPercent },
    { header: "totalReturnValue", value: (h) => h.totalReturn.totalReturnValue },
    { header: "totalReturnPercent", value: (h) => h.totalReturn.totalReturnPercent },
    { header: "isAnnualized", value: (h) => h.totalReturn.isAnnualized },
  ],
  (report) => report.holdings,
);
