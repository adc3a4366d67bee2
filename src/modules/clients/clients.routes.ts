import type { Endpoint } from "../../http/endpoint";

export const clientRoutes: Endpoint[] = [];
