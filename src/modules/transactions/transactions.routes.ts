import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { TransactionResponse, TransactionsQuery } from "./transactions.schemas";
import { listPortfolioTransactions } from "./transactions.service";

export const transactionRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/portfolios/:portfolioId/transactions",
    operationId: "listPortfolioTransactions",
    tag: "PortfolioTransactions",
    summary: "List a portfolio's trades, income and cash transactions, newest first",
    query: TransactionsQuery,
    response: z.array(TransactionResponse),
    paged: true,
    handler: (ctx, req) => listPortfolioTransactions(ctx, req.params.portfolioId, req.query),
  },
];
