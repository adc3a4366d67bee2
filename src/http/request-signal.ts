import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * An AbortSignal that aborts when the client goes away before its answer is sent: the response
 * closes without having finished (a hang-up, a timeout, a reset). A finished answer never aborts it.
 * Services carry it on the context down to the slices of their computations (lib/slices.ts).
 */
export function requestSignal(_req: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort();
  else res.once("close", () => void (res.writableFinished || controller.abort()));
  return controller.signal;
}
