import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { MarketDataStatusResponse, RefreshMarketDataInput, RefreshMarketDataResponse } from "./market-data.schemas";
import { marketDataStatus, refreshMarketData } from "./market-data.service";

const route = routeTable({ tag: "Market data" });

export const marketDataRoutes: Endpoint[] = [
  route.post("/market-data/refresh", refreshMarketData, "Fetch prices, rates, dividends and splits now", {
    description:
      "Starts a refresh of the account's securities (or those named) and the exchange rates its portfolios need, and answers 202 with the run's id at once; while a run is going (started by anyone, in any process) it answers that run's id. The run's outcome is in `GET /v1/market-data/status`: a provider that fails makes the run Partial or Failed, never an error here. Read client keys may not start one (403).",
    body: RefreshMarketDataInput,
    response: RefreshMarketDataResponse,
    status: 202,
  }),
  route.get("/market-data/status", marketDataStatus, "How market data is fetched, and how the last refresh went", {
    description:
      "The providers and schedule, the last run (status, counts of rows written, what failed) and, for each of the caller's securities, the provider's symbol, the latest close stored and the last error.",
    response: MarketDataStatusResponse,
  }),
];
