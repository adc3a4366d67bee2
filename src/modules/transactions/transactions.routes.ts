import type { Endpoint } from "../../http/endpoint";

export const transactionRoutes: Endpoint[] = [];
