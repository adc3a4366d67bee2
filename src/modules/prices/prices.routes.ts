import type { Endpoint } from "../../http/endpoint";

export const priceRoutes: Endpoint[] = [];
