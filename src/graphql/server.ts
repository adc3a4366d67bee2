import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import type http from "node:http";
import type { Request } from "express";
import type { Logger } from "pino";
import type { GraphQLLimits } from "../config";
import { buildContext, presentedKey, unauthenticated, type Context } from "../context";
import type { PrismaClient } from "../db";
import { DomainError } from "../lib/errors";
import { formatError, refusedBeforeExecution } from "./errors";
import { guarded, guardPlugin, limitRules, parseOptions, type GuardedContext } from "./limits";
import { buildSchema } from "./schema";

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

export function createApolloServer(opts: { httpServer?: http.Server; log: Logger; limits: GraphQLLimits }) {
  return new ApolloServer<GuardedContext>({
    schema: buildSchema(),
    introspection: true,
    // Shutdown has one owner, src/index.ts: Apollo's own SIGINT/SIGTERM handlers would stop it a
    // second time, concurrently, and that second stop() never settles.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: formatError(opts.log),
    parseOptions: parseOptions(opts.limits),
    validationRules: limitRules(opts.limits),
    plugins: [
      guardPlugin(opts.limits),
      // Apollo Sandbox in a browser at GET /graphql, whatever NODE_ENV says.
      ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      ...(opts.httpServer ? [ApolloServerPluginDrainHttpServer({ httpServer: opts.httpServer })] : []),
    ],
  });
}

/**
 * The Apollo context function: the same buildContext as REST; 401 with an unknown key. Without
 * any key the request goes on with a context that holds no account, and the guard plugin lets it
 * run only when, parsed and within the limits, it turns out to be introspection.
 */
export function graphqlContext(db: PrismaClient, log: Logger) {
  return async ({ req }: { req: Request }): Promise<GuardedContext> => {
    if (!req.auth && !presentedKey(req.headers)) return guarded(anonymousContext(req.log ?? log), { keyless: true, bucket: req.rateLimit });
    try {
      const ctx = buildContext({ db, auth: req.auth, log: req.log ?? log, requestId: req.id as string });
      return guarded(ctx, { keyless: false, bucket: req.rateLimit });
    } catch (error) {
      if (error instanceof DomainError && error.code === "UNAUTHENTICATED") {
        throw refusedBeforeExecution(error);
      }
      throw error;
    }
  };
}
