import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { TRANSACTIONS_CSV } from "./transactions.csv";
import { TransactionResponse, TransactionsQuery } from "./transactions.schemas";
import { listPortfolioTransactions } from "./transactions.service";

const route = routeTable({ tag: "PortfolioTransactions" });

export const transactionRoutes: Endpoint[] = [
  route.get(
    "/portfolios/:portfolioId/transactions",
    listPortfolioTransactions,
    "List a portfolio's trades, income and cash transactions, newest first",
    { query: TransactionsQuery, response: z.array(TransactionResponse), paged: true, csvAnswer: TRANSACTIONS_CSV },
  ),
];
