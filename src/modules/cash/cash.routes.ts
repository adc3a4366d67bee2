import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import {
  CashAccountResponse,
  CashMovementResponse,
  CashTransactionInput,
  CashTransactionResponse,
  CreateCashAccountInput,
  LedgerQuery,
  UpdateCashAccountBody,
  UpdateCashTransactionBody,
} from "./cash.schemas";
import {
  createCashAccount,
  createCashTransaction,
  deleteCashAccount,
  deleteCashTransaction,
  getCashAccount,
  getCashTransaction,
  listCashAccounts,
  listCashMovements,
  updateCashAccount,
  updateCashTransaction,
} from "./cash.service";

const route = routeTable({ tag: "Cash accounts" });

export const cashRoutes: Endpoint[] = [
  route.get("/portfolios/:portfolioId/cash-accounts", listCashAccounts, "List the cash accounts of a portfolio", {
    tag: "Portfolios",
    description: "Each account with its balance as of today.",
    response: z.array(CashAccountResponse),
  }),
  route.create("/cash-accounts", createCashAccount, "Create a cash account", {
    description:
      "With syncTrades, settled Buy and Sell trades and capital returns (ReturnOfCapital) of the portfolio in the account's currency move its cash; with syncIncome, paid income that is not reinvested does.",
    body: CreateCashAccountInput,
    response: CashAccountResponse,
  }),
  route.get("/cash-accounts/:cashAccountId", getCashAccount, "Get a cash account with its balance", {
    response: CashAccountResponse,
  }),
  route.put("/cash-accounts/:cashAccountId", updateCashAccount, "Update a cash account", {
    description:
      "Absent fields stay. The account stays in its portfolio, and its currency is fixed once it has cash transactions (422).",
    body: UpdateCashAccountBody,
    response: CashAccountResponse,
    errors: [422],
  }),
  route.delete("/cash-accounts/:cashAccountId", deleteCashAccount, "Delete a cash account with its transactions"),
  route.get(
    "/cash-accounts/:cashAccountId/transactions",
    listCashMovements,
    "The ledger of a cash account with its running balance, oldest first",
    {
      description:
        "Cash transactions, plus settled trades (syncTrades) and paid income (syncIncome) as derived rows with a null id. Same day: cash transactions, then trades, then income, each by id. The balance runs over the whole ledger whatever the page or dates asked for.",
      query: LedgerQuery,
      response: z.array(CashMovementResponse),
      paged: true,
    },
  ),
  route.create("/cash-transactions", createCashTransaction, "Enter a cash transaction", {
    body: CashTransactionInput,
    response: CashTransactionResponse,
  }),
  route.get("/cash-transactions/:cashTransactionId", getCashTransaction, "Get a cash transaction", {
    response: CashTransactionResponse,
  }),
  route.put("/cash-transactions/:cashTransactionId", updateCashTransaction, "Update a cash transaction", {
    description: "Absent fields stay. A move to another cash account must keep the currency (422).",
    body: UpdateCashTransactionBody,
    response: CashTransactionResponse,
    errors: [422],
  }),
  route.delete("/cash-transactions/:cashTransactionId", deleteCashTransaction, "Delete a cash transaction"),
];
