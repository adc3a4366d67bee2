import type { Endpoint } from "../../http/endpoint";
import { HoldingTimeseriesResponse, PortfolioTimeseriesResponse, TimeseriesQuery } from "./analytics.schemas";
import { getHoldingTimeseries, getPortfolioTimeseries } from "./timeseries.service";

const tag = "Analytics";

export const analyticsRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/portfolios/:portfolioId/timeseries",
    operationId: "getPortfolioTimeseries",
    tag,
    summary: "The portfolio's value over a period",
    description:
      "Points of marketValue, cashValue, incomeReceivable, totalValue, netInvested and the cumulative time-weighted return, the first on `from` and the last on `to` (REPORTS.md §1). `from` after `to`: 400.",
    query: TimeseriesQuery,
    response: PortfolioTimeseriesResponse,
    handler: (ctx, req) => getPortfolioTimeseries(ctx, req.params.portfolioId, req.query),
  },
  {
    method: "get",
    path: "/holdings/:holdingId/timeseries",
    operationId: "getHoldingTimeseries",
    tag,
    summary: "A holding's value over a period",
    description:
      "Points of quantity, price (holding currency), exchangeRate, marketValue and costBase (base currency), netInvested (the holding's own flows) and its cumulative time-weighted return, the first on `from` and the last on `to` (REPORTS.md §1). `from` after `to`: 400.",
    query: TimeseriesQuery,
    response: HoldingTimeseriesResponse,
    handler: (ctx, req) => getHoldingTimeseries(ctx, req.params.holdingId, req.query),
  },
];
