import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { incomeForecast } from "./income-forecast.service";
import { IncomeForecastQuery, IncomeForecastResponse } from "./income-forecast.schemas";

const route = routeTable({ tag: "Planning" });

export const incomeForecastRoutes: Endpoint[] = [
  route.get("/portfolios/:portfolioId/income-forecast", incomeForecast, "The income of the coming months", {
    description:
      "Each income record of the twelve months before `from` (confirmed or not) repeated twelve months on, at its net cash and franking per unit entitled × the units held at the start of `from`; a provider's announced dividend replaces the repeat nearest to it within 45 days. Base currency at `from`'s rate, by month of payment, with the yield on the market value at the start of `from` (docs/reports.md §6.2). Writes nothing.",
    query: IncomeForecastQuery,
    response: IncomeForecastResponse,
  }),
];
