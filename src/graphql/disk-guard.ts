import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { GraphQLError } from "graphql";
import { lowDisk } from "../http/disk-guard";
import type { DiskSpace } from "../lib/storage";

/**
 * The GraphQL side of the low-disk guard: a mutation is refused once the operation is resolved,
 * before anything runs, while queries go on (they are POSTs too, so the REST rule cannot tell).
 * The refusal carries its HTTP status on the error, which Apollo reads before formatError
 * (src/graphql/errors.ts) passes the code through.
 */
export function diskGuardPlugin<T extends BaseContext>(disk: () => DiskSpace): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== "mutation" || !disk().low) return;
          const error = lowDisk();
          throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: error.status } } });
        },
      };
    },
  };
}
