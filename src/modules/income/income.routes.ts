import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { IncomeInput, IncomeResponse, ProRataInput, UpdateIncomeBody } from "./income.schemas";
import {
  confirmIncome,
  createIncome,
  deleteIncome,
  getIncome,
  listHoldingIncome,
  updateIncome,
  updateProRataDistributions,
} from "./income.service";

const tag = "StocksIncome";

export const incomeRoutes: Endpoint[] = [
  {
    method: "post",
    path: "/income",
    operationId: "createIncome",
    tag,
    summary: "Add an income record (unconfirmed)",
    description:
      "The franking credit is computed from the franked amount when not given (30% company rate by default). A reinvested record creates a parcel of drpQuantity units.",
    body: IncomeInput,
    response: IncomeResponse,
    status: 201,
    location: (c) => `/income/${c.id}`,
    errors: [403, 422],
    handler: (ctx, req) => createIncome(ctx, req.body),
  },
  {
    method: "get",
    path: "/income/:incomeId",
    operationId: "getIncome",
    tag,
    summary: "Get an income record",
    response: IncomeResponse,
    handler: (ctx, req) => getIncome(ctx, req.params.incomeId),
  },
  {
    method: "put",
    path: "/income/:incomeId",
    operationId: "updateIncome",
    tag,
    summary: "Update an income record",
    body: UpdateIncomeBody,
    response: IncomeResponse,
    errors: [403, 422],
    handler: (ctx, req) => updateIncome(ctx, req.params.incomeId, req.body),
  },
  {
    method: "put",
    path: "/income/:incomeId/confirm",
    operationId: "confirmIncome",
    tag,
    summary: "Confirm an income record",
    description: "Only confirmed income enters tax reports.",
    response: IncomeResponse,
    errors: [403],
    handler: (ctx, req) => confirmIncome(ctx, req.params.incomeId),
  },
  {
    method: "delete",
    path: "/income/:incomeId",
    operationId: "deleteIncome",
    tag,
    summary: "Delete an income record",
    status: 204,
    errors: [403, 422],
    handler: (ctx, req) => deleteIncome(ctx, req.params.incomeId),
  },
  {
    method: "get",
    path: "/holdings/:holdingId/income",
    operationId: "listHoldingIncome",
    tag: "Holdings",
    summary: "List a holding's income records",
    response: z.array(IncomeResponse),
    handler: (ctx, req) => listHoldingIncome(ctx, req.params.holdingId),
  },
  {
    method: "put",
    path: "/holdings/:holdingId/pro-rata-distributions",
    operationId: "updateProRataDistributions",
    tag: "ProRataDistributions",
    summary: "Spread a year's AMIT statement totals over the year's distributions",
    description:
      "In proportion to each distribution's gross amount; the last one takes the rounding remainder so the parts add up exactly.",
    body: ProRataInput,
    response: z.array(IncomeResponse),
    errors: [403, 422],
    handler: (ctx, req) => updateProRataDistributions(ctx, req.params.holdingId, req.body),
  },
];
