import type { Endpoint } from "../../http/endpoint";
import { PortfolioTimeseriesResponse, TimeseriesQuery } from "./analytics.schemas";
import { getPortfolioTimeseries } from "./timeseries.service";

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
];
