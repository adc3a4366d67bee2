import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { IncomeInput, IncomeResponse, ProRataInput, UpdateIncomeBody } from "./income.schemas";
import {
  confirmIncome,
  createIncome,
  deleteIncome,
  getIncome,
  listHoldingIncome,
  updateIncome,
} from "./income.service";
import { updateProRataDistributions } from "./pro-rata-distributions.service";

const route = routeTable({ tag: "StocksIncome" });

export const incomeRoutes: Endpoint[] = [
  route.post("/income", createIncome, "Add an income record (unconfirmed)", {
    description:
      "The franking credit is computed from the franked amount when not given (30% company rate by default). A reinvested record creates a parcel of drpQuantity units.",
    body: IncomeInput,
    response: IncomeResponse,
    status: 201,
    location: (c) => `/income/${c.id}`,
  }),
  route.get("/income/:incomeId", getIncome, "Get an income record", { response: IncomeResponse }),
  route.put("/income/:incomeId", updateIncome, "Update an income record", {
    body: UpdateIncomeBody,
    response: IncomeResponse,
    errors: [422],
  }),
  route.put("/income/:incomeId/confirm", confirmIncome, "Confirm an income record", {
    description: "Only confirmed income enters tax reports.",
    response: IncomeResponse,
  }),
  route.delete("/income/:incomeId", deleteIncome, "Delete an income record", { errors: [422] }),
  route.get("/holdings/:holdingId/income", listHoldingIncome, "List a holding's income records", {
    tag: "Holdings",
    response: z.array(IncomeResponse),
  }),
  route.put(
    "/holdings/:holdingId/pro-rata-distributions",
    updateProRataDistributions,
    "Spread a year's AMIT statement totals over the year's distributions",
    {
      tag: "ProRataDistributions",
      description:
        "In proportion to each distribution's gross amount; the last one takes the rounding remainder so the parts add up exactly.",
      body: ProRataInput,
      response: z.array(IncomeResponse),
      errors: [422],
    },
  ),
];
