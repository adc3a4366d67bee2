import type { Context } from "../context";
import type { Endpoint } from "./endpoint";

/** A service use case as a route calls it: the Context, then the request's parts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type UseCase = (ctx: Context, ...args: any[]) => Promise<unknown>;

/**
 * What a route states besides its method, path, service function and summary; a `handler` only
 * when the call is not the usual one.
 */
type RouteDocs = Omit<Endpoint, "method" | "path" | "operationId" | "summary" | "handler" | "tag"> &
  Partial<Pick<Endpoint, "handler" | "tag">>;

/**
 * The operations of one module's route table, each stating its path, its service function and a
 * summary, then the rest of its documentation (Endpoint). The operationId is the function's name
 * (one word from route to service, docs/conventions.md §9.1), and the handler calls it with the
 * path's id (when the path has one), then the body (when the route takes one), then the query
 * (when it takes one), e.g. `updateTrade(ctx, req.params.tradeId, req.body)`. A route whose
 * call differs gives its own `handler`. `defaults` hold what every route of the table states
 * alike (its tag, errors every route answers); a route's own docs win. DELETE answers 204.
 */
export function routeTable(defaults: { tag: string; errors?: number[] }) {
  const route =
    (method: Endpoint["method"], implied: Partial<Endpoint> = {}) =>
    (path: string, useCase: UseCase, summary: string, docs: RouteDocs = {}): Endpoint => {
      const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      if (!useCase.name || (params.length > 1 && !docs.handler))
        throw new Error(
          `${method.toUpperCase()} ${path}: name the service function, and give a handler for two path ids`,
        );
      const [param] = params;
      const handler: Endpoint["handler"] = (ctx, req) =>
        useCase(
          ctx,
          ...(param ? [req.params[param]] : []),
          ...(docs.body ? [req.body] : []),
          ...(docs.query ? [req.query] : []),
        );
      return { method, path, operationId: useCase.name, summary, ...defaults, ...implied, handler, ...docs };
    };
  return {
    get: route("get"),
    post: route("post"),
    put: route("put"),
    delete: route("delete", { status: 204 }),
    /**
     * A POST that creates a resource: 201, with the new resource's Location. The resource lives
     * under the path it is posted to (`/clients` → `/clients/{id}`); a path with an id in it
     * (`/portfolios/:portfolioId/holdings`) states its `location`.
     */
    create: (path: string, useCase: UseCase, summary: string, docs: RouteDocs = {}): Endpoint => {
      if (!docs.location && path.includes(":"))
        throw new Error(`POST ${path}: a resource created under a path with an id states its location`);
      const location: Endpoint["location"] = (created) => `${path}/${String(created.id)}`;
      return route("post", { status: 201, location })(path, useCase, summary, docs);
    },
  };
}
