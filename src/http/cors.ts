import cors from "cors";
import type { RequestHandler } from "express";

/** What a browser on an allowed origin may send, and may read of the answer (README: CORS). */
const CORS_ALLOWED_HEADERS = [
  "Authorization",
  "x-api-key",
  "Content-Type",
  "Idempotency-Key",
  "x-request-id",
  "traceparent",
  "tracestate",
  "apollo-require-preflight",
  "x-apollo-operation-name",
  "apollographql-client-name",
  "apollographql-client-version",
];
const CORS_EXPOSED_HEADERS = [
  "Location",
  "Idempotent-Replayed",
  "X-Total-Count",
  "X-Trades-Left-Out",
  "Link",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
  "x-request-id",
  "traceresponse",
  "Allow",
  "Accept-Post",
  "WWW-Authenticate",
  "Content-Disposition",
];

/**
 * CORS for the origins in CORS_ORIGINS (exact matches, or `*`). A preflight is answered here, 204,
 * before authentication and the database; an origin not on the list gets no CORS header at all
 * (its preflight falls through to the method check), so the browser refuses it. Helmet's
 * Cross-Origin-Resource-Policy: same-origin stays: the Fetch standard applies it to no-cors
 * requests only, so it blocks <script>/<img> embedding, not an allowed origin's fetch().
 */
export function crossOrigin(origins: string[]): RequestHandler {
  const any = origins.includes("*");
  const allowed = new Set(origins);
  const handler = cors((req, callback) => {
    const origin = req.headers.origin;
    callback(null, {
      origin: any ? "*" : origin && allowed.has(origin) ? origin : false,
      methods: ["GET", "HEAD", "POST", "PUT", "DELETE"],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    });
  });
  return (req, res, next) => {
    // The answer depends on Origin whether or not it is allowed: caches must keep them apart.
    if (!any) res.vary("Origin");
    handler(req, res, next);
  };
}
