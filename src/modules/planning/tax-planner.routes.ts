import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { taxPlannerOverview } from "./tax-planner-overview.service";
import { taxPlannerWhatIf } from "./tax-planner-what-if.service";
import {
  TaxPlannerOverviewQuery,
  TaxPlannerOverviewResponse,
  TaxPlannerQuery,
  TaxPlannerResponse,
  TaxPlannerWhatIfRequest,
  TaxPlannerWhatIfResponse,
} from "./tax-planner.schemas";
import { taxPlanner } from "./tax-planner.service";

const route = routeTable({ tag: "Planning" });
const AU_ONLY = "For portfolios in AUD with Australian tax residency (422 otherwise).";

export const taxPlannerRoutes: Endpoint[] = [
  route.get("/portfolios/:portfolioId/tax-planner", taxPlanner, "The end-of-year tax planner of a portfolio", {
    description: `The year's capital gains realised up to asOf, the losses worth harvesting before the year ends (each open parcel at a loss, ranked by how much selling it on asOf would reduce the year's net capital gain, with the wash-sale risk), and the gains worth waiting for (parcels not yet discountable, with the first discountable date) (docs/reports.md §6.1). asOf outside financialYear: 400. Writes nothing. ${AU_ONLY}`,
    query: TaxPlannerQuery,
    response: TaxPlannerResponse,
  }),
  route.post(
    "/portfolios/:portfolioId/tax-planner/what-if",
    taxPlannerWhatIf,
    "The year's capital gains with some sells that are not made",
    {
      description: `The whole year's capital gains summary before and after the sells together (each takes its parcels after the ones before it), the difference, and each sell's parcels and gain (docs/reports.md §6.1). Writes nothing, so a Read client key may call it. More units than held: 422 naming the sell. ${AU_ONLY}`,
      body: TaxPlannerWhatIfRequest,
      response: TaxPlannerWhatIfResponse,
      status: 200,
      readsOnly: true,
    },
  ),
  route.get("/tax-planner", taxPlannerOverview, "The tax planner of every portfolio of a book", {
    description:
      "One row per portfolio the key sees with AUD base and AU residency (a client key: its own; `clientId`: one client of an adviser's account): its realised net capital gain of the year to asOf, its unrealised losses and its largest harvest reduction, as its own tax planner reports them; sorted by realisedNetCapitalGain descending, then portfolio id. A fixed number of SQL statements whatever the number of portfolios.",
    query: TaxPlannerOverviewQuery,
    response: TaxPlannerOverviewResponse,
  }),
];
