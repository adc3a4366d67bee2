import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { Request, Response } from "express";
import type { Registry } from "prom-client";
import { DomainError } from "../lib/domain-errors";
import { problem } from "../http/error-responses";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * GET /metrics on the service's port: only with `Authorization: Bearer <METRICS_TOKEN>`, else 401
 * problem+json. Both sides are hashed first, so the comparison takes the same time whatever the
 * length or the first differing byte of what was sent.
 */
export function metricsRoute(registry: Registry, token: string) {
  const expected = digest(token);
  return async (req: Request, res: Response): Promise<void> => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    if (!timingSafeEqual(digest(given), expected)) {
      const refusal = new DomainError(
        "UNAUTHENTICATED",
        "The metrics need 'Authorization: Bearer <METRICS_TOKEN>'.",
        undefined,
        { "WWW-Authenticate": 'Bearer realm="metrics"' },
      );
      return problem(res, refusal, req.id);
    }
    await sendMetrics(registry, res);
  };
}

async function sendMetrics(registry: Registry, res: http.ServerResponse): Promise<void> {
  const text = await registry.metrics();
  res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  res.end(text);
}

/**
 * METRICS_PORT: a server of its own answering GET /metrics, without a token (the port is for a
 * private network) and without the API's middleware; anything else is 404. Resolves once listening.
 */
export function startMetricsServer(registry: Registry, port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: GET /metrics\n");
      return;
    }
    sendMetrics(registry, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("The metrics could not be collected.\n");
    });
  });
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(new Error(`Cannot serve the metrics on ${host}:${port} (METRICS_PORT): ${error.code ?? error.message}.`));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve(server);
    });
  });
}
