import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { DriftOverviewQuery, DriftOverviewResponse, RebalanceRequest, RebalanceResponse } from "./rebalancing.schemas";
import { computeRebalance, getDriftOverview } from "./rebalancing.service";

const route = routeTable({ tag: "AllocationModels" });

export const rebalancingRoutes: Endpoint[] = [
  route.post(
    "/portfolios/:portfolioId/rebalance",
    computeRebalance,
    "Compute the trades that bring a portfolio back to its model",
    {
      description:
        "The drift report against the active model (or modelPublicId), the legs, the post-trade drift, the cash remaining and warnings (docs/reports.md §4.3). Deterministic arithmetic, not advice; writes nothing, so a Read client key may call it. No model and no active one: 422; a model of another portfolio: 404.",
      body: RebalanceRequest,
      response: RebalanceResponse,
      status: 200,
      readsOnly: true,
    },
  ),
  route.get("/drift", getDriftOverview, "The drift of every portfolio with an active model, most drifted first", {
    description:
      "For each portfolio of the caller's book with an active model (a client key: its own portfolios; `clientId`: one client of an adviser's account), its drift today as computeRebalance reports it: totalValue, maxDriftPct, outOfBandCount. Sorted by maxDriftPct descending, then portfolio id. A fixed number of SQL statements whatever the number of portfolios.",
    query: DriftOverviewQuery,
    response: DriftOverviewResponse,
  }),
];
