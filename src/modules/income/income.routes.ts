import { z } from "zod";
import { WithStatus, type Endpoint } from "../../http/endpoint";
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
import { INCOME_CSV, IncomeImportResponse, IncomeImportRow } from "./income-import.rows";
import { IncomeImportQuery, importIncome } from "./income-import.service";

const route = routeTable({ tag: "StocksIncome" });

export const incomeRoutes: Endpoint[] = [
  route.create("/income", createIncome, "Add an income record", {
    description:
      "Unconfirmed unless isConfirmed is true (only confirmed income enters the tax reports). The franking credit is computed from the franked amount when not given (30% company rate by default). A reinvested record creates a parcel of drpQuantity units.",
    body: IncomeInput,
    response: IncomeResponse,
  }),
  route.post(
    "/portfolios/:portfolioId/income/import",
    importIncome,
    "Import income records in bulk (JSON array or CSV)",
    {
      description:
        "All or nothing. JSON: an array of income bodies (POST /v1/income), each naming its holding by holdingId or by symbol and exchange (a holding of the portfolio). CSV (text/csv): a header of the same field names in any order and case (components only in JSON; booleans true or false). Rows may carry isConfirmed. Each row is checked as POST /v1/income checks it (a reinvested row's parcel with the ledger); every rejected row is listed in `errors` with its `line` (CSV: the header is line 1; JSON: the array position + 1) and field, and nothing is written. " +
        "dryRun=true runs every check and answers 200 without writing anything; a real import answers 201. Up to 50,000 rows and 20 MiB.",
      tag: "StocksIncome",
      query: IncomeImportQuery,
      body: z.array(IncomeImportRow),
      csv: INCOME_CSV,
      response: IncomeImportResponse,
      status: 201,
      errors: [422],
      handler: async (ctx, req) => {
        const result = await importIncome(ctx, req.params.portfolioId, req.body, req.query);
        return new WithStatus(result.dryRun ? 200 : 201, result);
      },
    },
  ),
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
