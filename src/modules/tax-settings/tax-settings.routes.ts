import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { TaxSettingsInput, TaxSettingsResponse } from "./tax-settings.schemas";
import { getPortfolioTaxSettings, listTaxSettings, updateTaxSettings } from "./tax-settings.service";

const route = routeTable({ tag: "TaxSettings" });

export const taxSettingsRoutes: Endpoint[] = [
  route.get("/tax-settings", listTaxSettings, "List the tax settings of every portfolio", {
    response: z.array(TaxSettingsResponse),
  }),
  route.get("/portfolios/:portfolioId/tax-settings", getPortfolioTaxSettings, "Get a portfolio's tax settings", {
    response: TaxSettingsResponse,
  }),
  route.put("/portfolios/:portfolioId/tax-settings", updateTaxSettings, "Change a portfolio's tax settings", {
    description:
      "Absent fields stay as they are; a list given replaces the old one (an empty list clears it). Override holdings must be holdings of this portfolio (404). A change of parcel methods that would leave a recorded manual parcel pick without its units answers 422 and writes nothing.",
    body: TaxSettingsInput,
    response: TaxSettingsResponse,
    errors: [422],
  }),
];
