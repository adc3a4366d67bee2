import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { TaxSettingsInput, TaxSettingsResponse } from "./tax-settings.schemas";
import { getPortfolioTaxSettings, listTaxSettings, updateTaxSettings } from "./tax-settings.service";

const tag = "TaxSettings";

export const taxSettingsRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/tax-settings",
    operationId: "listTaxSettings",
    tag,
    summary: "List the tax settings of every portfolio",
    response: z.array(TaxSettingsResponse),
    handler: (ctx) => listTaxSettings(ctx),
  },
  {
    method: "get",
    path: "/portfolios/:portfolioId/tax-settings",
    operationId: "getPortfolioTaxSettings",
    tag,
    summary: "Get a portfolio's tax settings",
    response: TaxSettingsResponse,
    handler: (ctx, req) => getPortfolioTaxSettings(ctx, req.params.portfolioId),
  },
  {
    method: "put",
    path: "/portfolios/:portfolioId/tax-settings",
    operationId: "updateTaxSettings",
    tag,
    summary: "Change a portfolio's tax settings",
    description:
      "Absent fields stay as they are; a list given replaces the old one (an empty list clears it). Override holdings must be holdings of this portfolio (404). A change of parcel methods that would leave a recorded manual parcel pick without its units answers 422 and writes nothing.",
    body: TaxSettingsInput,
    response: TaxSettingsResponse,
    errors: [403, 422],
    handler: (ctx, req) => updateTaxSettings(ctx, req.params.portfolioId, req.body),
  },
];
