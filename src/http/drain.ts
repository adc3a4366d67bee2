import type http from "node:http";
import type { Socket } from "node:net";

export interface Drain {
  /**
   * The process is leaving the load balancer's rotation but still serving: every response from
   * now on says `Connection: close`, so each keep-alive connection ends after its next answer
   * and its client opens the next one elsewhere. Idle connections are left alone here: closing
   * one a client is just writing a request to would lose that request.
   */
  leaveRotation(): void;
  /**
   * Stops accepting connections and resolves once every open one has closed: idle keep-alive
   * connections at once, busy ones right after their response.
   */
  close(): Promise<void>;
  /** The deadline has passed: every connection goes now, answered or not. */
  destroyAll(): void;
}

/**
 * Closing the HTTP server without losing an answer. Node's server.close() destroys idle keep-alive
 * connections but leaves busy ones open for reuse after their response, and Apollo's drain plugin
 * half-closes idle sockets: a request racing onto one was still read and run, it committed, and
 * its answer went nowhere (the client saw "other side closed" and would retry a write that had
 * happened). Here idle connections are destroyed, so a request racing onto one is dropped unread
 * and never runs; and every response still to be sent says `Connection: close`, so its connection
 * ends right after it. Attach before listening, so every connection is seen.
 */
export function drainOnClose(server: http.Server): Drain {
  const sockets = new Set<Socket>();
  const unanswered = new Set<http.ServerResponse>();
  let closing = false;
  let leaving = false;
  const closeAfter = (res: http.ServerResponse) => {
    if (!res.headersSent) res.setHeader("connection", "close");
  };

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // Prepended: the app may answer synchronously (/health), after which no header can be set.
  server.prependListener("request", (_req, res) => {
    if (closing) return closeAfter(res);
    if (leaving) closeAfter(res);
    unanswered.add(res);
    res.once("close", () => unanswered.delete(res));
  });

  return {
    leaveRotation() {
      leaving = true;
      for (const res of unanswered) closeAfter(res);
    },
    close() {
      closing = true;
      for (const res of unanswered) closeAfter(res);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      return closed;
    },
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
