import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import {
  ChangeSymbolInput,
  CreateHoldingInput,
  HoldingResponse,
  ListHoldingsQuery,
  UpdateHoldingInput,
  UpdateHoldingBody,
} from "./holdings.schemas";
import {
  changeHoldingSymbol,
  createHolding,
  deleteHolding,
  getHolding,
  listHoldings,
  listSymbolChanges,
  updateHolding,
} from "./holdings.service";

const tag = "Holdings";

export const holdingRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/portfolios/:portfolioId/holdings",
    operationId: "listHoldings",
    tag: "Portfolios",
    summary: "List the holdings of a portfolio",
    description:
      "Quantity, cost base, market value and unrealised gain in the portfolio's base currency, valued on `date` (default today). Closed holdings only with includeClosed=true.",
    query: ListHoldingsQuery,
    response: z.array(HoldingResponse),
    handler: (ctx, req) => listHoldings(ctx, req.params.portfolioId, req.query),
  },
  {
    method: "post",
    path: "/portfolios/:portfolioId/holdings",
    operationId: "createHolding",
    tag,
    summary: "Create a custom investment holding",
    description:
      "Listed securities get their holding from their first trade; a custom investment (exchange CUSTOM by default) can be created first, then priced with /v1/holdings/{h}/prices.",
    body: CreateHoldingInput,
    response: HoldingResponse,
    status: 201,
    location: (c) => `/holdings/${c.id}`,
    errors: [403, 409],
    handler: (ctx, req) => createHolding(ctx, req.params.portfolioId, req.body),
  },
  {
    method: "get",
    path: "/holdings/:holdingId",
    operationId: "getHolding",
    tag,
    summary: "Get a holding",
    response: HoldingResponse,
    handler: (ctx, req) => getHolding(ctx, req.params.holdingId),
  },
  {
    method: "put",
    path: "/holdings/:holdingId",
    operationId: "updateHolding",
    tag,
    summary: "Update a holding's notes, classification and DRP setting",
    body: UpdateHoldingBody,
    response: HoldingResponse,
    errors: [403],
    handler: (ctx, req) => updateHolding(ctx, req.params.holdingId, req.body),
  },
  {
    method: "delete",
    path: "/holdings/:holdingId",
    operationId: "deleteHolding",
    tag,
    summary: "Delete a holding with its trades and income",
    status: 204,
    errors: [403],
    handler: (ctx, req) => deleteHolding(ctx, req.params.holdingId),
  },
  {
    method: "put",
    path: "/holdings/:holdingId/symbol",
    operationId: "changeHoldingSymbol",
    tag,
    summary: "Change a holding's symbol and exchange (ticker change)",
    description:
      "The holding keeps its trades and income; the change is recorded (GET /v1/holdings/{h}/symbol-changes).",
    body: ChangeSymbolInput,
    response: HoldingResponse,
    errors: [403, 409],
    handler: (ctx, req) => changeHoldingSymbol(ctx, req.params.holdingId, req.body),
  },
  {
    method: "get",
    path: "/holdings/:holdingId/symbol-changes",
    operationId: "listSymbolChanges",
    tag,
    summary: "List a holding's ticker changes",
    response: z.array(
      z.object({
        fromSymbol: z.string(),
        fromExchange: z.string(),
        toSymbol: z.string(),
        toExchange: z.string(),
        changedAt: z.string(),
      }),
    ),
    handler: (ctx, req) => listSymbolChanges(ctx, req.params.holdingId),
  },
];
