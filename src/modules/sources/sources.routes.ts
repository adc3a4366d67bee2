import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { SourceResponse } from "./sources.schemas";
import { listSources } from "./sources.service";

const route = routeTable({ tag: "Sources" });

export const sourceRoutes: Endpoint[] = [
  route.get("/sources", listSources, "List broker and data source identifiers", {
    description: "Every broker and data source; use an id as the sourceId of a trade. Ids are stable across installs.",
    response: z.array(SourceResponse),
  }),
];
