import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { SearchSecuritiesQuery, SecurityResponse } from "./securities.schemas";
import { searchSecurities } from "./securities.service";

const route = routeTable({ tag: "Securities" });

export const securityRoutes: Endpoint[] = [
  route.get("/securities/search", searchSecurities, "Search securities", {
    description:
      "Matches the exact symbol first, then symbol prefixes, then words of the name. Covers the master list and the securities this account's trades added.",
    query: SearchSecuritiesQuery,
    response: z.array(SecurityResponse),
  }),
];
