import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { CreatePortfolioInput, PortfolioResponse, UpdatePortfolioBody } from "./portfolios.schemas";
import { createPortfolio, deletePortfolio, getPortfolio, listPortfolios, updatePortfolio } from "./portfolios.service";

const route = routeTable({ tag: "Portfolios" });

export const portfolioRoutes: Endpoint[] = [
  route.get("/portfolios", listPortfolios, "List portfolios", { response: z.array(PortfolioResponse) }),
  route.create("/portfolios", createPortfolio, "Create a portfolio", {
    body: CreatePortfolioInput,
    response: PortfolioResponse,
  }),
  route.get("/portfolios/:portfolioId", getPortfolio, "Get a portfolio", { response: PortfolioResponse }),
  route.put("/portfolios/:portfolioId", updatePortfolio, "Update a portfolio", {
    description:
      "Renames the portfolio or changes its tax details. The base currency is fixed: a different value answers 422.",
    body: UpdatePortfolioBody,
    response: PortfolioResponse,
    errors: [422],
  }),
  route.delete("/portfolios/:portfolioId", deletePortfolio, "Delete a portfolio and everything under it"),
];
