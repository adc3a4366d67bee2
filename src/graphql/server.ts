import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { GraphQLError, Kind, parse, type DocumentNode, type SelectionSetNode } from "graphql";
import type http from "node:http";
import type { Request } from "express";
import type { Logger } from "pino";
import { buildContext, presentedKey, unauthenticated, type Context } from "../context";
import type { PrismaClient } from "../db";
import { DomainError } from "../lib/errors";
import { formatError } from "./errors";
import { buildSchema } from "./schema";

/** True when the operation only asks for __schema / __type / __typename (schema exploration). */
export function isIntrospectionOnly(query: unknown, operationName?: unknown): boolean {
  if (typeof query !== "string") return false;
  let doc: DocumentNode;
  try {
    doc = parse(query);
  } catch {
    return false;
  }
  const ops = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const op = typeof operationName === "string" ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  if (!op || op.operation !== "query") return false;
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const seen = new Set<string>();
  const onlyMeta = (set: SelectionSetNode): boolean =>
    set.selections.every((s) => {
      if (s.kind === Kind.FIELD) return s.name.value.startsWith("__");
      if (s.kind === Kind.INLINE_FRAGMENT) return onlyMeta(s.selectionSet);
      const f = fragments.get(s.name.value);
      if (!f || seen.has(s.name.value)) return !!f;
      seen.add(s.name.value);
      return onlyMeta(f.selectionSet);
    });
  return onlyMeta(op.selectionSet);
}

/** A context for key-less introspection: any resolver that reaches for the account is refused. */
function anonymousContext(log: Logger): Context {
  const refuse = () => {
    throw unauthenticated();
  };
  return Object.defineProperties({ log, requestId: "" } as Partial<Context>, {
    db: { get: refuse },
    account: { get: refuse },
    principal: { get: refuse },
    loaders: { get: refuse },
  }) as Context;
}

export function createApolloServer(opts: { httpServer?: http.Server; log: Logger }) {
  return new ApolloServer<Context>({
    schema: buildSchema(),
    introspection: true,
    includeStacktraceInErrorResponses: false,
    formatError: formatError(opts.log),
    plugins: [
      // Apollo Sandbox in a browser at GET /graphql, whatever NODE_ENV says.
      ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      ...(opts.httpServer ? [ApolloServerPluginDrainHttpServer({ httpServer: opts.httpServer })] : []),
    ],
  });
}

/** The Apollo context function: the same buildContext as REST; 401 without a valid key. */
export function graphqlContext(db: PrismaClient, log: Logger) {
  return async ({ req }: { req: Request }): Promise<Context> => {
    const body = (req.method === "GET" ? req.query : req.body) as { query?: unknown; operationName?: unknown } | undefined;
    if (!req.auth && !presentedKey(req.headers) && isIntrospectionOnly(body?.query, body?.operationName)) return anonymousContext(req.log ?? log);
    try {
      return buildContext({ db, auth: req.auth, log: req.log ?? log, requestId: req.id as string });
    } catch (error) {
      if (error instanceof DomainError && error.code === "UNAUTHENTICATED") {
        throw new GraphQLError(error.message, { extensions: { code: "UNAUTHENTICATED", http: { status: 401 } } });
      }
      throw error;
    }
  };
}
