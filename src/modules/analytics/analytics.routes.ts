import type { Endpoint } from "../../http/endpoint";
import {
  BenchmarkQuery,
  BenchmarkResponse,
  HoldingTimeseriesResponse,
  PerformanceQuery,
  PerformanceResponse,
  PortfolioTimeseriesResponse,
  TimeseriesQuery,
} from "./analytics.schemas";
import { getBenchmark } from "./benchmark.service";
import { getPerformance } from "./performance.service";
import { getHoldingTimeseries, getPortfolioTimeseries } from "./timeseries.service";

const tag = "Analytics";

export const analyticsRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/portfolios/:portfolioId/performance",
    operationId: "getPerformance",
    tag,
    summary: "How the portfolio did over a period",
    description:
      "Navexa's performance shape plus our return methods (REPORTS.md §2): totalReturn split into capital, dividend and currency (adding up to EMV − BMV − net flows, every percentage over the Modified Dietz denominator), the time-weighted, money-weighted (XIRR) and Modified Dietz returns, each holding's return and, unless groupBy is holding, each group's. Unknown groupBy, malformed dates or from after to: 400; a customGroup the account does not have: 404.",
    query: PerformanceQuery,
    response: PerformanceResponse,
    handler: (ctx, req) => getPerformance(ctx, req.params.portfolioId, req.query),
  },
  {
    method: "get",
    path: "/portfolios/:portfolioId/benchmark",
    operationId: "getBenchmark",
    tag,
    summary: "The portfolio against a security or another portfolio",
    description:
      "By the same methods over the same dates (REPORTS.md §3). A security (symbol and exchange, with imported prices) replays the portfolio's opening value and external flows as buys and sells of it at its price on their days, fractional units, no costs; benchmarkPortfolioId is another portfolio of the account, its own returns. A security without prices for the period: 422.",
    query: BenchmarkQuery,
    response: BenchmarkResponse,
    errors: [422],
    handler: (ctx, req) => getBenchmark(ctx, req.params.portfolioId, req.query),
  },
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
