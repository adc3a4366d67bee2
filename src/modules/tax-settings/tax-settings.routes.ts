import type { Endpoint } from "../../http/endpoint";

export const taxSettingsRoutes: Endpoint[] = [];
