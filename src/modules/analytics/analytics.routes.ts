import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
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
import { PERFORMANCE_CSV } from "./performance.csv";
import { getPerformance } from "./performance.service";
import { getHoldingTimeseries, getPortfolioTimeseries } from "./timeseries.service";

const route = routeTable({ tag: "Analytics" });

export const analyticsRoutes: Endpoint[] = [
  route.get("/portfolios/:portfolioId/performance", getPerformance, "How the portfolio did over a period", {
    description:
      "Navexa's performance shape plus our return methods (docs/reports.md §2, docs/rules.md §11): totalReturn split into capital, dividend and currency (adding up to EMV − BMV − net flows, every percentage over the Modified Dietz denominator), the time-weighted, money-weighted (XIRR) and Modified Dietz returns, each holding's return and, unless groupBy is holding, each group's. Unknown groupBy, malformed dates or from after to: 400; a customGroup the account does not have: 404.",
    query: PerformanceQuery,
    response: PerformanceResponse,
    csvAnswer: PERFORMANCE_CSV,
  }),
  route.get(
    "/portfolios/:portfolioId/benchmark",
    getBenchmark,
    "The portfolio against a security or another portfolio",
    {
      description:
        "By the same methods over the same dates (docs/reports.md §3). A security (symbol and exchange, with imported prices) replays the portfolio's opening value and external flows as buys and sells of it at its price on their days, fractional units, no costs; benchmarkPortfolioId is another portfolio of the account, its own returns. A security without prices for the period: 422.",
      query: BenchmarkQuery,
      response: BenchmarkResponse,
      errors: [422],
    },
  ),
  route.get("/portfolios/:portfolioId/timeseries", getPortfolioTimeseries, "The portfolio's value over a period", {
    description:
      "Points of marketValue, cashValue, incomeReceivable, totalValue, netInvested and the cumulative time-weighted return, the first on `from` and the last on `to` (docs/reports.md §1). `from` after `to`: 400.",
    query: TimeseriesQuery,
    response: PortfolioTimeseriesResponse,
  }),
  route.get("/holdings/:holdingId/timeseries", getHoldingTimeseries, "A holding's value over a period", {
    description:
      "Points of quantity, price (holding currency), exchangeRate, marketValue and costBase (base currency), netInvested (the holding's own flows) and its cumulative time-weighted return, the first on `from` and the last on `to` (docs/reports.md §1). `from` after `to`: 400.",
    query: TimeseriesQuery,
    response: HoldingTimeseriesResponse,
  }),
];
