import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Endpoint } from "./endpoint";
import { byFirstSegment, decodeParams, templateParams } from "./path-groups";
import { noteRoute } from "../observability/request-state";
import { endpoints, MEDIA, methodNotAllowed, unsupportedBody, type Media } from "./router";

interface Resource {
  path: string;
  /** The path's parameters, still percent-encoded, when it matches; else undefined. */
  match: (path: string) => Record<string, string> | undefined;
  /** Upper-case methods, HEAD wherever GET is. */
  methods: string[];
  /** The route per method (GET also answers HEAD), with the media its body may have. */
  routes: Map<string, { endpoint?: Endpoint; media?: Media }>;
}

/** `Allow` lists methods in this order. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The endpoint table as resources: every path with the methods it answers, matched as Express's
 * router matches (case-insensitive, optional trailing slash).
 */
function resources(table: Endpoint[], opts: { extraGets: string[] }): Resource[] {
  const byPath = new Map<string, Resource>();
  const resourceOf = (path: string) => {
    let r = byPath.get(path);
    if (!r) {
      r = { path, match: templateParams(path), methods: [], routes: new Map() };
      byPath.set(path, r);
    }
    return r;
  };
  for (const e of table) {
    const media = e.upload
      ? MEDIA.upload
      : e.workbook
        ? MEDIA.workbook
        : e.csv
          ? MEDIA.bulk
          : e.body
            ? MEDIA.json
            : undefined;
    const r = resourceOf(e.path);
    const method = e.method.toUpperCase();
    if (!r.routes.has(method)) r.routes.set(method, { endpoint: e, media });
  }
  for (const path of opts.extraGets) resourceOf(path).routes.set("GET", {});
  for (const r of byPath.values()) {
    if (r.routes.has("GET")) r.routes.set("HEAD", r.routes.get("GET")!);
    r.methods = METHOD_ORDER.filter((m) => r.routes.has(m));
  }
  return [...byPath.values()];
}

/** The endpoint a REST request was matched to, with its path's parameters (not yet decoded). */
interface Matched {
  endpoint: Endpoint;
  params: Record<string, string>;
}
/** Kept on the request, not in a WeakMap: an entry per request was garbage-collection work. */
const MATCHED = Symbol("matched REST route");
type Routed = Request & { [MATCHED]?: Matched };

/**
 * The REST routes, matched once per request. `guard` goes in front of authentication, for /v1
 * and /api/v1 (no key needed, no statement sent):
 * - a known path with a method it does not answer: 405 with `Allow` (OPTIONS: 204 with `Allow`);
 *   an unknown path goes on, to 401 or 404 as before;
 * - a body whose content type the route does not read: 415 naming the types it reads. A request
 *   without a body (none, or Content-Length: 0) is left to the route, as is a body on a route that
 *   reads none.
 * It notes the endpoint it found, and `dispatch`, after authentication, runs that endpoint's own
 * chain of handlers (`chainOf`, composed once per endpoint at start) with the path's parameters
 * decoded as Express decodes them; a request the guard found no endpoint for goes on. Matching a
 * path against the ~150 routes a second time, as a router in `dispatch`'s place did, was a tenth
 * of a small read's time.
 */
export function restRoutes(opts: { extraGets: string[]; chainOf: (e: Endpoint) => RequestHandler[] }): {
  guard: RequestHandler;
  dispatch: RequestHandler;
} {
  const candidates = byFirstSegment(resources(endpoints, opts), (r) => r.path);
  const chains = new Map(endpoints.map((e) => [e, opts.chainOf(e)]));
  const guard = (req: Request, res: Response, next: NextFunction) => {
    const found: { resource: Resource; params: Record<string, string> }[] = [];
    for (const resource of candidates(req.path)) {
      const params = resource.match(req.path);
      if (params) found.push({ resource, params });
    }
    if (found.length === 0) return next();
    const method = req.method.toUpperCase();
    const hit = found.find((f) => f.resource.routes.has(method));
    const route = hit?.resource.routes.get(method);
    if (!hit || !route) {
      const allow = METHOD_ORDER.filter((m) => found.some((f) => f.resource.methods.includes(m))).join(", ");
      if (method === "OPTIONS") {
        res.setHeader("Allow", allow);
        return void res.status(204).end();
      }
      return next(methodNotAllowed(method, req.baseUrl + req.path, allow));
    }
    if (route.media) {
      const refused = unsupportedBody(req, route.media);
      if (refused) return next(refused);
    }
    // The label the request's metrics and log line carry: /v1 or /api/v1, then the template.
    noteRoute(res, req.baseUrl.toLowerCase() + hit.resource.path);
    if (route.endpoint) (req as Routed)[MATCHED] = { endpoint: route.endpoint, params: hit.params };
    next();
  };
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const hit = (req as Routed)[MATCHED];
    if (!hit) return next();
    try {
      req.params = decodeParams(hit.params);
    } catch (error) {
      return next(error);
    }
    runChain(chains.get(hit.endpoint)!, req, res, next);
  };
  return { guard, dispatch };
}

/**
 * Runs Express handlers one after the other, as a router runs a route's: each calls `next()` to
 * go on, or `next(error)` (or throws, or rejects) to stop with the error, which goes to `done`;
 * there is no other route to try, so `next("route")` goes on past this one.
 */
function runChain(handlers: RequestHandler[], req: Request, res: Response, done: NextFunction): void {
  let i = 0;
  const next = (error?: unknown): void => {
    // `next("route")` and `next("router")` leave the route, as Express's router lets them.
    if (error === "route" || error === "router") return done();
    if (error) return done(error);
    const handler = handlers[i++];
    if (!handler) return done();
    try {
      const result = handler(req, res, next) as unknown;
      if (result instanceof Promise) result.catch((e: unknown) => done(e ?? new Error("A handler rejected")));
    } catch (e) {
      done(e);
    }
  };
  next();
}
