import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import {
  CreatePortfolioInput,
  PortfolioResponse,
  UpdatePortfolioInput,
  UpdatePortfolioBody,
} from "./portfolios.schemas";
import { createPortfolio, deletePortfolio, getPortfolio, listPortfolios, updatePortfolio } from "./portfolios.service";

const tag = "Portfolios";

export const portfolioRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/portfolios",
    operationId: "listPortfolios",
    tag,
    summary: "List portfolios",
    response: z.array(PortfolioResponse),
    handler: (ctx) => listPortfolios(ctx),
  },
  {
    method: "post",
    path: "/portfolios",
    operationId: "createPortfolio",
    tag,
    summary: "Create a portfolio",
    body: CreatePortfolioInput,
    response: PortfolioResponse,
    status: 201,
    location: (c) => `/portfolios/${c.id}`,
    handler: (ctx, req) => createPortfolio(ctx, req.body),
  },
  {
    method: "get",
    path: "/portfolios/:portfolioId",
    operationId: "getPortfolio",
    tag,
    summary: "Get a portfolio",
    response: PortfolioResponse,
    handler: (ctx, req) => getPortfolio(ctx, req.params.portfolioId),
  },
  {
    method: "put",
    path: "/portfolios/:portfolioId",
    operationId: "updatePortfolio",
    tag,
    summary: "Update a portfolio",
    description:
      "Renames the portfolio or changes its tax details. The base currency is fixed: a different value answers 422.",
    body: UpdatePortfolioBody,
    response: PortfolioResponse,
    errors: [422],
    handler: (ctx, req) => updatePortfolio(ctx, req.params.portfolioId, req.body),
  },
  {
    method: "delete",
    path: "/portfolios/:portfolioId",
    operationId: "deletePortfolio",
    tag,
    summary: "Delete a portfolio and everything under it",
    status: 204,
    handler: (ctx, req) => deletePortfolio(ctx, req.params.portfolioId),
  },
];
