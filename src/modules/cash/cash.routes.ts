import type { Endpoint } from "../../http/endpoint";

export const cashRoutes: Endpoint[] = [];
