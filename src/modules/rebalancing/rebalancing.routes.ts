import type { Endpoint } from "../../http/endpoint";
import { RebalanceRequest, RebalanceResponse } from "./rebalancing.schemas";
import { computeRebalance } from "./rebalancing.service";

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
];
