import type { Endpoint } from "../http/endpoint";
import { byFirstSegment, templateMatcher } from "../http/path-groups";

/** The label of a request no route answers (a 404 of the fallback), so no raw path is ever a label. */
export const UNMATCHED = "unmatched";

/** Paths outside the REST table, each its own template; the prefixes stand for everything under them. */
const FIXED = ["/", "/health", "/ready", "/metrics", "/graphql", "/v1/openapi.json", "/api/v1/openapi.json"];
const PREFIXES = ["/graphiql", "/docs"];
const REST_PREFIXES = ["/v1", "/api/v1"];

type Matcher = { template: string; matches: (path: string) => boolean };

/**
 * The route template of a request path (`/v1/portfolios/:portfolioId/holdings`), matched against
 * the REST endpoint table as Express's router matches it (case-insensitive, optional trailing
 * slash), whatever the method: a 405 on a known path is still that path. It is worked out from the
 * path, not from `req.route`, so that a request refused before its route ran (401, 429, 415) is
 * labelled by the route it asked for too. A request tries only the templates of its first segment
 * (http/path-groups.ts).
 */
export function routeTemplates(endpoints: readonly Pick<Endpoint, "path">[]): (path: string) => string {
  const matchers = [...new Set(endpoints.map((e) => e.path))].map((path): Matcher => ({
    template: path,
    matches: templateMatcher(path),
  }));
  const candidates = byFirstSegment(matchers, (m) => m.template);
  const fixed = new Set(FIXED);
  return (rawPath) => {
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "").toLowerCase() : rawPath;
    if (fixed.has(path)) return path;
    for (const prefix of PREFIXES) if (path === prefix || path.startsWith(prefix + "/")) return prefix;
    const prefix = REST_PREFIXES.find((p) => path.startsWith(p + "/"));
    if (!prefix) return UNMATCHED;
    const rest = rawPath.slice(prefix.length);
    const found = candidates(rest).find((m) => m.matches(rest));
    return found ? prefix + found.template : UNMATCHED;
  };
}
