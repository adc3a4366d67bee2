import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import type { ApolloServerPlugin } from "@apollo/server";
import type http from "node:http";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { GraphQLLimits } from "../config";
import { presentedKey, unauthenticated, type AnalyticsBudget } from "../context";
import { withLoaders, type GraphQLContext } from "./loaders";
import { requestContext, type ContextDeps } from "../http/request-context";
import type { SeriesCache } from "../modules/ledger/valuation/series-cache";
import type { PrismaClient } from "../db";
import { DomainError } from "../lib/domain-errors";
import { formatError, refusedBeforeExecution } from "./format-error";
import { guarded, guardPlugin, limitRules, parseOptions, type GuardedContext } from "./limits";
import { buildSchema } from "./schema";
import { compiledExecution } from "./compiled-execution";
import { noSubscriptions } from "./subscriptions";
import { bindGraphQLContext as observed } from "../observability/request-state";

/** A context for key-less introspection: any resolver that reaches for the account is refused. */
function anonymousContext(log: Logger): GraphQLContext {
  const refuse = () => {
    throw unauthenticated();
  };
  return Object.defineProperties({ log, requestId: "" } as Partial<GraphQLContext>, {
    db: { get: refuse },
    account: { get: refuse },
    principal: { get: refuse },
    loaders: { get: refuse },
    series: { get: refuse },
  }) as GraphQLContext;
}

/** Where the service serves GraphiQL from its own files (src/http/graphiql.ts). */
const OFFLINE_IDE = "/graphiql";

const OFFLINE_NOTE = `<p class="offline-ide">No internet, or Apollo's CDN blocked? This service has its own GraphQL IDE that works offline: <a href="${OFFLINE_IDE}">open GraphiQL at ${OFFLINE_IDE}</a>.</p>`;

/**
 * Apollo Sandbox in a browser at GET /graphql, whatever NODE_ENV says. Sandbox loads from Apollo's
 * CDN; where that cannot be reached the page shows Apollo's "you might be offline" fallback, and
 * this adds a link to the offline IDE there (plain HTML, so it shows with every script blocked).
 * Online, Sandbox covers the fallback; its first document names /graphiql instead.
 */
function sandboxLandingPage(): ApolloServerPlugin<GuardedContext> {
  const sandbox = ApolloServerPluginLandingPageLocalDefault({
    embed: true,
    includeCookies: false,
    document: `# Offline, or Apollo's CDN blocked? This service also serves GraphiQL at ${OFFLINE_IDE}\n# (no internet needed). Put your API key in an Authorization header (Headers tab).\n\n{\n  portfolios {\n    id\n    name\n  }\n}\n`,
  });
  return {
    async serverWillStart(service) {
      const listener = await sandbox.serverWillStart!(service);
      const render = listener?.renderLandingPage;
      if (!render) return listener;
      return {
        ...listener,
        async renderLandingPage() {
          const { html } = await render.call(listener);
          const text = typeof html === "string" ? html : await html();
          // Into Apollo's fallback block; at the top of the body should a new version drop it.
          const inFallback = text.replace(/(<div class="fallback">[\s\S]*?)(<\/div>)/, `$1${OFFLINE_NOTE}$2`);
          const noted = inFallback !== text ? inFallback : text.replace("<body>", `<body>${OFFLINE_NOTE}`);
          // Sandbox's container lies over the fallback even when no Sandbox loaded into it: let
          // clicks through to the link while it is empty (in Apollo's own nonce'd style block).
          return {
            html: noted.replace(
              "#embeddableSandbox {",
              "#embeddableSandbox:empty { pointer-events: none; }\n  #embeddableSandbox {",
            ),
          };
        },
      };
    },
  };
}

export function createApolloServer(opts: { httpServer?: http.Server; log: Logger; limits: GraphQLLimits }) {
  return new ApolloServer<GuardedContext>({
    // The schema reaches Apollo through the executor that runs compiled operations.
    gateway: compiledExecution(buildSchema()),
    introspection: true,
    // Shutdown has one owner, src/index.ts: Apollo's own SIGINT/SIGTERM handlers would stop it a
    // second time, concurrently, and that second stop() never settles.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: formatError(opts.log),
    parseOptions: parseOptions(opts.limits),
    validationRules: [...limitRules(opts.limits), noSubscriptions],
    plugins: [
      guardPlugin(opts.limits),
      sandboxLandingPage(),
      // Installed by default, it computes cache hints in a hook on every resolved field (a
      // profile of B4's 500-field answer put 2-3 % of the process there); the schema sets none,
      // and answers are private to their key anyway (no Cache-Control: public to compute).
      ApolloServerPluginCacheControlDisabled(),
      ...(opts.httpServer ? [ApolloServerPluginDrainHttpServer({ httpServer: opts.httpServer })] : []),
    ],
  });
}

/**
 * The Apollo context function: the same buildContext as REST; 401 with an unknown key. Without
 * any key the request goes on with a context that holds no account, and the guard plugin lets it
 * run only when, parsed and within the limits, it turns out to be introspection. Either carries
 * its response, for the observability plugin (src/observability/graphql.ts).
 */
export function graphqlContext(deps: ContextDeps) {
  const { log } = deps;
  return async ({ req, res }: { req: Request; res: Response }): Promise<GuardedContext> => {
    if (!req.auth && !presentedKey(req.headers))
      return observed(guarded(anonymousContext(req.log ?? log), { keyless: true, bucket: req.rateLimit }), res);
    try {
      const ctx = withLoaders(requestContext(deps, req, res));
      return observed(guarded(ctx, { keyless: false, bucket: req.rateLimit }), res);
    } catch (error) {
      if (error instanceof DomainError && error.code === "UNAUTHENTICATED") {
        throw refusedBeforeExecution(error);
      }
      throw error;
    }
  };
}
