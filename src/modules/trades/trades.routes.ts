import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { ListQuery, TradeInput, TradeResponse } from "./trades.schemas";
import { createTrade, deleteTrade, getTrade, listHoldingTrades, updateTrade } from "./trades.service";

const tag = "Trades";

export const tradeRoutes: Endpoint[] = [
  {
    method: "post",
    path: "/trades",
    operationId: "createTrade",
    tag,
    summary: "Add a trade",
    description:
      "Creates the holding on its first trade (by symbol and exchange). A trade in another currency than the portfolio's carries an exchange rate, given or from the FX table; a sell beyond the units held, or a parcel pick that does not exist, answers 422.",
    body: TradeInput,
    response: TradeResponse,
    status: 201,
    errors: [403, 422],
    handler: (ctx, req) => createTrade(ctx, req.body),
  },
  {
    method: "get",
    path: "/trades/:tradeId",
    operationId: "getTrade",
    tag,
    summary: "Get a trade",
    response: TradeResponse,
    handler: (ctx, req) => getTrade(ctx, req.params.tradeId),
  },
  {
    method: "put",
    path: "/trades/:tradeId",
    operationId: "updateTrade",
    tag,
    summary: "Update a trade",
    description: "Same body as create. Refused (422) when it would leave a later sell without units.",
    body: TradeInput,
    response: TradeResponse,
    errors: [403, 422],
    handler: (ctx, req) => updateTrade(ctx, req.params.tradeId, req.body),
  },
  {
    method: "delete",
    path: "/trades/:tradeId",
    operationId: "deleteTrade",
    tag,
    summary: "Delete a trade",
    description: "Refused (422) when it would leave a later sell without units.",
    status: 204,
    errors: [403, 422],
    handler: (ctx, req) => deleteTrade(ctx, req.params.tradeId),
  },
  {
    method: "get",
    path: "/holdings/:holdingId/trades",
    operationId: "listHoldingTrades",
    tag: "Holdings",
    summary: "List a holding's trades, oldest first",
    query: ListQuery,
    response: z.array(TradeResponse),
    handler: (ctx, req) => listHoldingTrades(ctx, req.params.holdingId, req.query),
  },
];
