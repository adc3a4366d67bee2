import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { SearchSecuritiesQuery, SecurityResponse } from "./securities.schemas";
import { searchSecurities } from "./securities.service";

export const securityRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/securities/search",
    operationId: "searchSecurities",
    tag: "Securities",
    summary: "Search securities",
    description:
      "Matches the exact symbol first, then symbol prefixes, then words of the name. Covers the master list and the securities this account's trades added.",
    query: SearchSecuritiesQuery,
    response: z.array(SecurityResponse),
    handler: (ctx, req) => searchSecurities(ctx, req.query),
  },
];
