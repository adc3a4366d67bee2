import type { RequestHandler } from "express";
import { sendJson } from "./endpoint";

/** GET /: where things are, for a person with a browser (HTML) or a client (JSON). */
const INDEX_LINKS = [
  { rel: "docs", href: "/docs/", title: "REST API reference" },
  { rel: "openapi", href: "/v1/openapi.json", title: "OpenAPI 3.1 document" },
  { rel: "graphql", href: "/graphql", title: "GraphQL endpoint (POST; Apollo Sandbox in a browser)" },
  { rel: "graphiql", href: "/graphiql", title: "GraphiQL IDE (works offline)" },
  { rel: "health", href: "/health", title: "Liveness probe" },
  { rel: "ready", href: "/ready", title: "Readiness probe (database reachable)" },
];

export function indexPage(version: string): RequestHandler {
  const json = { service: "portfolio-service", version, rest: "/v1", graphql: "/graphql", links: INDEX_LINKS };
  const items = INDEX_LINKS.map((l) => `<li><a href="${l.href}">${l.href}</a> — ${l.title}</li>`).join("\n");
  // The web app is for a person with a browser: the HTML links it, the JSON's links stay the API's.
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Portfolio service</title></head><body><h1>Portfolio service ${version}</h1><p><a href="/app/">Open the web app</a> (paste your API key once).</p><p>REST under /v1 (alias /api/v1), GraphQL at /graphql. Every API call needs a key: <code>Authorization: &lt;key&gt;</code>.</p><ul>\n${items}\n</ul></body></html>\n`;
  return (req, res) => {
    res.vary("Accept");
    if (req.accepts(["json", "html"]) === "html") return void res.status(200).type("html").send(html);
    sendJson(res, 200, json);
  };
}
