import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { HOLDINGS_CSV } from "./holdings.csv";
import {
  ChangeSymbolInput,
  CreateHoldingInput,
  HoldingResponse,
  ListHoldingsQuery,
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

const route = routeTable({ tag: "Holdings" });

export const holdingRoutes: Endpoint[] = [
  route.get("/portfolios/:portfolioId/holdings", listHoldings, "List the holdings of a portfolio", {
    tag: "Portfolios",
    description:
      "Quantity, cost base, market value and unrealised gain in the portfolio's base currency, valued on `date` (default today). Closed holdings only with includeClosed=true.",
    query: ListHoldingsQuery,
    response: z.array(HoldingResponse),
    csvAnswer: HOLDINGS_CSV,
  }),
  route.create("/portfolios/:portfolioId/holdings", createHolding, "Create a custom investment holding", {
    description:
      "Listed securities get their holding from their first trade; a custom investment (exchange CUSTOM by default) can be created first, then priced with /v1/holdings/{h}/prices.",
    body: CreateHoldingInput,
    response: HoldingResponse,
    location: (c) => `/holdings/${c.id}`,
  }),
  route.get("/holdings/:holdingId", getHolding, "Get a holding", { response: HoldingResponse }),
  route.put("/holdings/:holdingId", updateHolding, "Update a holding's notes, classification and DRP setting", {
    body: UpdateHoldingBody,
    response: HoldingResponse,
  }),
  route.delete("/holdings/:holdingId", deleteHolding, "Delete a holding with its trades and income"),
  route.put(
    "/holdings/:holdingId/symbol",
    changeHoldingSymbol,
    "Change a holding's symbol and exchange (ticker change)",
    {
      description:
        "The holding keeps its trades and income; the change is recorded (GET /v1/holdings/{h}/symbol-changes).",
      body: ChangeSymbolInput,
      response: HoldingResponse,
    },
  ),
  route.get("/holdings/:holdingId/symbol-changes", listSymbolChanges, "List a holding's ticker changes", {
    response: z.array(
      z.object({
        fromSymbol: z.string(),
        fromExchange: z.string(),
        toSymbol: z.string(),
        toExchange: z.string(),
        changedAt: z.string(),
      }),
    ),
  }),
];
