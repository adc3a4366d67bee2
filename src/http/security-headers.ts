import type { RequestHandler } from "express";
import helmet, { type HelmetOptions } from "helmet";

/**
 * Helmet's headers, worked out once at start. With the content security policy off (the only
 * header whose directives may read the request), helmet sets the same headers on every response,
 * so its middleware runs once against a recording response, and each request then gets the
 * recorded headers in one pass: helmet's chain of a dozen middlewares per request was a twentieth
 * of a small read's time. A helmet that read the request, or answered asynchronously, fails here
 * at start rather than sending headers that were not worked out for the request.
 */
export function securityHeaders(options: HelmetOptions & { contentSecurityPolicy: false }): RequestHandler {
  const headers: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  const noRequest = new Proxy(
    {},
    {
      get: (_target, property) => {
        throw new Error(`helmet read the request (${String(property)}): its headers cannot be worked out once`);
      },
    },
  );
  let done = false;
  helmet(options)(noRequest as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error("helmet did not answer synchronously: its headers cannot be worked out once");
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
