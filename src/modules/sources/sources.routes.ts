import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { SourceResponse } from "./sources.schemas";
import { listSources } from "./sources.service";

export const sourceRoutes: Endpoint[] = [
  {
    method: "get",
    path: "/sources",
    operationId: "listSources",
    tag: "Sources",
    summary: "List broker and data source identifiers",
    description: "Every broker and data source; use an id as the sourceId of a trade. Ids are stable across installs.",
    response: z.array(SourceResponse),
    handler: (ctx) => listSources(ctx),
  },
];
