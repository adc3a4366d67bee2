import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { CorporateActionResponse, CorporateActionsQuery } from "./corporate-actions.schemas";
import { applyCorporateAction, dismissCorporateAction, listCorporateActions } from "./corporate-actions.service";

const route = routeTable({ tag: "Market data" });

export const corporateActionRoutes: Endpoint[] = [
  route.get(
    "/portfolios/:portfolioId/corporate-actions",
    listCorporateActions,
    "List a portfolio's corporate actions",
    {
      description:
        "Splits and consolidations from the market-data provider, offered to each holding with units at the start of their date, by date. A pending one changes nothing until it is applied.",
      query: CorporateActionsQuery,
      response: z.array(CorporateActionResponse),
    },
  ),
  route.create("/corporate-actions/:corporateActionId/apply", applyCorporateAction, "Apply a corporate action", {
    description:
      "Records the ledger's Split or Consolidation trade for the units held at the start of the action's date (units after = units × numerator ÷ denominator, to 8 decimals) and marks the action Applied, both or neither; Location is the trade. An action already applied or dismissed: 409. A change the ledger refuses (a later sell left without units): 422.",
    response: CorporateActionResponse,
    location: (applied) => `/trades/${applied.tradeId}`,
  }),
  route.post("/corporate-actions/:corporateActionId/dismiss", dismissCorporateAction, "Dismiss a corporate action", {
    description:
      "The action is not applied and never offered again. Dismissing a dismissed one answers it unchanged; an applied one: 409 (delete its trade to take it out of the ledger).",
    response: CorporateActionResponse,
  }),
];
