import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { lowDisk } from "../http/low-disk-writes";
import type { DiskSpace } from "../lib/storage";
import { refusedBeforeExecution } from "./format-error";

/**
 * The GraphQL side of the low-disk guard: a mutation is refused once the operation is resolved,
 * before anything runs, while queries go on (they are POSTs too, so the REST rule cannot tell).
 */
export function diskGuardPlugin<T extends BaseContext>(disk: () => DiskSpace): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== "mutation" || !disk().low) return;
          throw refusedBeforeExecution(lowDisk());
        },
      };
    },
  };
}
