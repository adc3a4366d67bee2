import type { Endpoint } from "../../http/endpoint";

export const incomeRoutes: Endpoint[] = [];
