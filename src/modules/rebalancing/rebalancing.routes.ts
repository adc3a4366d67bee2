import type { Endpoint } from "../../http/endpoint";
import { DriftOverviewQuery, DriftOverviewResponse, RebalanceRequest, RebalanceResponse } from "./rebalancing.schemas";
import { computeRebalance, getDriftOverview } from "./rebalancing.service";

export const rebalancingRoutes: Endpoint[] = [
  {
    method: "post",
    path: "/portfolios/:portfolioId/rebalance",
    operationId: "computeRebalance",
    tag: "AllocationModels",
    summary: "Compute the trades that bring a portfolio back to its model",
    description:
      "The drift report against the active model (or modelPublicId), the legs, the post-trade drift, the cash remaining and warnings (REPORTS.md §4). Deterministic arithmetic, not advice; writes nothing, so a Read client key may call it. No model and no active one: 422; a model of another portfolio: 404.",
    body: RebalanceRequest,
    response: RebalanceResponse,
    status: 200,
    readsOnly: true,
    handler: (ctx, req) => computeRebalance(ctx, req.params.portfolioId, req.body),
  },
  {
    method: "get",
    path: "/drift",
    operationId: "getDriftOverview",
    tag: "AllocationModels",
    summary: "The drift of every portfolio with an active model, most drifted first",
    description:
      "For each portfolio of the caller's book with an active model (a client key: its own portfolios; `clientId`: one client of an adviser's account), its drift today as computeRebalance reports it: totalValue, maxDriftPct, outOfBandCount. Sorted by maxDriftPct descending, then portfolio id. A fixed number of SQL statements whatever the number of portfolios.",
    query: DriftOverviewQuery,
    response: DriftOverviewResponse,
    handler: (ctx, req) => getDriftOverview(ctx, req.query),
  },
];
