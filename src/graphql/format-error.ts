import { HeaderMap } from "@apollo/server";
import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import type { Logger } from "pino";
import { DomainError } from "../lib/domain-errors";
import { toDomainError } from "../lib/to-domain-error";

/**
 * The GraphQL side of the error mapping: a DomainError keeps its message and puts its stable code
 * in `extensions.code` (with the bad fields in `extensions.errors`). GraphQL's own parse and
 * validation errors keep Apollo's codes. Anything else is INTERNAL, logged, and told nothing.
 */
export function formatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const apolloCode = formatted.extensions?.code;
    const isOwnGraphQLError =
      !(original instanceof DomainError) &&
      original === error &&
      typeof apolloCode === "string" &&
      apolloCode !== "INTERNAL_SERVER_ERROR";
    if (isOwnGraphQLError) return formatted;
    const domain = toDomainError(original);
    if (domain.code === "INTERNAL") log.error({ err: original, path: formatted.path }, "GraphQL resolver failed");
    else if (domain.code === "CLIENT_CLOSED")
      log.info(
        { statusCode: domain.status, code: domain.code, path: formatted.path },
        "client closed the request; its work was stopped",
      );
    return {
      message: domain.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: errorExtensions(domain),
    };
  };
}

/** A DomainError's stable code and bad fields, as a GraphQL error carries them in `extensions`. */
export function errorExtensions(error: DomainError) {
  return {
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.errorCount ? { errorCount: error.errorCount } : {}),
  };
}

/**
 * A DomainError raised before execution (the context function, a plugin's didResolveOperation) as
 * the GraphQLError Apollo answers with: Apollo reads the HTTP status and headers (Retry-After) on
 * the error itself, before formatError sees it and keeps the code.
 */
export function refusedBeforeExecution(error: DomainError): GraphQLError {
  const http = { status: error.status, headers: new HeaderMap(Object.entries(error.headers ?? {})) };
  return new GraphQLError(error.message, { extensions: { code: error.code, http } });
}
