import { csvView } from "../../lib/csv-out";
import type { HoldingView } from "./holding-view";

/** The holdings list as a spreadsheet (`Accept: text/csv`): one row per holding, the JSON's fields flattened. */
export const HOLDINGS_CSV = csvView<HoldingView>("holdings.csv", [
  { header: "id", value: (h) => h.id },
  { header: "symbol", value: (h) => h.symbol },
  { header: "exchange", value: (h) => h.exchange },
  { header: "name", value: (h) => h.name },
  { header: "holdingType", value: (h) => h.holdingType },
  { header: "quantity", value: (h) => h.quantity },
  { header: "currencyCode", value: (h) => h.currencyCode },
  { header: "price", value: (h) => h.price },
  { header: "priceDate", value: (h) => h.priceDate },
  { header: "priceSource", value: (h) => h.priceSource },
  { header: "priceStale", value: (h) => h.priceStale },
  { header: "exchangeRate", value: (h) => h.exchangeRate },
  { header: "baseCurrencyCode", value: (h) => h.baseCurrencyCode },
  { header: "costBase", value: (h) => h.costBase },
  { header: "marketValue", value: (h) => h.marketValue },
  { header: "unrealisedGain", value: (h) => h.unrealisedGain },
  { header: "assetClass", value: (h) => h.classification.assetClass },
  { header: "sector", value: (h) => h.classification.sector },
  { header: "industry", value: (h) => h.classification.industry },
  { header: "pendingCorporateActions", value: (h) => h.pendingCorporateActions },
  { header: "notes", value: (h) => h.notes },
]);
