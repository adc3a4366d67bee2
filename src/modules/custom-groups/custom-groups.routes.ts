import type { Endpoint } from "../../http/endpoint";

export const customGroupRoutes: Endpoint[] = [];
