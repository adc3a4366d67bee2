import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import {
  CustomPriceInput,
  CustomPriceResponse,
  CustomPricesInput,
  FX_RATE_COLUMNS,
  FxRateResponse,
  FxRatesBulkInput,
  FxRatesQuery,
  MARKET_PRICE_COLUMNS,
  MarketPriceResponse,
  MarketPricesBulkInput,
  MarketPricesQuery,
  MarketPricesUpsertResponse,
  UpsertResponse,
  UpdateCustomPriceBody,
} from "./prices.schemas";
import { listFxRates, listMarketPrices, upsertFxRates, upsertMarketPrices } from "./imported-prices.service";
import {
  addCustomPrice,
  addCustomPrices,
  deleteCustomPrice,
  getCustomPrice,
  listCustomPrices,
  updateCustomPrice,
} from "./prices.service";

const route = routeTable({ tag: "Prices" });

export const priceRoutes: Endpoint[] = [
  route.get("/holdings/:holdingId/prices", listCustomPrices, "List a holding's custom prices, oldest first", {
    tag: "Holdings",
    response: z.array(CustomPriceResponse),
  }),
  route.create("/holdings/:holdingId/prices", addCustomPrice, "Add a custom price", {
    tag: "Holdings",
    description: "One price per holding per date: a second one on a date answers 409.",
    body: CustomPriceInput,
    response: CustomPriceResponse,
    location: (price) => `/prices/${price.id}`,
  }),
  route.post("/holdings/:holdingId/prices/bulk", addCustomPrices, "Add custom prices, all or nothing", {
    tag: "Holdings",
    description:
      "1 to 10,000 rows (also text/csv with header date,price, in any order and case). Bad rows answer 400 naming `line N.price` (CSV: the header is line 1; JSON: the array position + 1); a date repeated in the body or already priced answers 409 naming the dates and the rows' lines. Nothing is written on any error. Answers the new prices, oldest first.",
    body: CustomPricesInput,
    csv: { columns: ["date", "price"], required: ["date", "price"] },
    response: z.array(CustomPriceResponse),
    status: 201,
  }),
  route.get("/prices/:priceId", getCustomPrice, "Get a custom price", { response: CustomPriceResponse }),
  route.put("/prices/:priceId", updateCustomPrice, "Update a custom price", {
    description: "Absent fields stay; a date another price of the holding has answers 409.",
    body: UpdateCustomPriceBody,
    response: CustomPriceResponse,
  }),
  route.delete("/prices/:priceId", deleteCustomPrice, "Delete a custom price"),
  route.post("/market-prices/bulk", upsertMarketPrices, "Import closing prices (insert or replace), all or nothing", {
    description:
      "A JSON array, or text/csv with header symbol,exchange,date,close (in any order and case); symbols and exchanges are upper-cased, exchanges known ones (ASX, NYSE, NASDAQ… or CUSTOM; others answer 400); up to 50,000 rows. Bad rows answer 400 naming `line N.close` (CSV: the header being line 1; JSON: the array position + 1); nothing is written on any error. Client keys may not import (403). " +
      "A price of a security no holding of the account has is stored too (trades may come later), and counted in `unheld` with the first 20 such securities in `unheldSecurities`: check them for a typo.",
    body: MarketPricesBulkInput,
    csv: { columns: [...MARKET_PRICE_COLUMNS], required: [...MARKET_PRICE_COLUMNS] },
    response: MarketPricesUpsertResponse,
  }),
  route.get("/market-prices", listMarketPrices, "Closing prices of a security, oldest first", {
    description:
      "The account's imported closes (source=Account, the default), the market-data provider's (Provider), or both as the price rule reads them (All: the account's wins on a date both have); each row says whose it is.",
    query: MarketPricesQuery,
    response: z.array(MarketPriceResponse),
  }),
  route.post("/fx-rates/bulk", upsertFxRates, "Import exchange rates (insert or replace), all or nothing", {
    description:
      "One base buys rate units of quote on that date. A JSON array, or text/csv with header base,quote,date,rate (in any order and case; currency codes in any case); up to 50,000 rows, with the same error rules as market prices. Client keys may not import (403).",
    body: FxRatesBulkInput,
    csv: { columns: [...FX_RATE_COLUMNS], required: [...FX_RATE_COLUMNS] },
    response: UpsertResponse,
  }),
  route.get("/fx-rates", listFxRates, "Exchange rates of a currency pair, oldest first", {
    description:
      "As stored, the pair as given (the FX rule also derives inverses and crosses): the account's imported rates (source=Account, the default), the provider's (Provider: RBA rates are AUD-based, e.g. base AUD quote USD), or both (All: the account's wins on a date both have).",
    query: FxRatesQuery,
    response: z.array(FxRateResponse),
  }),
];
