import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import express from "express";
import { PROJECT_ROOT } from "../lib/paths";
import { escapeHtml } from "../lib/html";

/**
 * The offline GraphQL IDE at /graphiql: GraphiQL and React from their npm packages, served by
 * this service, so the page works where Apollo's CDN (Sandbox at /graphql) cannot be reached.
 * Nothing on the page comes from another host; the CSP below says so to the browser too.
 */

interface Asset {
  file: string;
  type: string;
  body: Buffer;
  /** Part of the URL: a new package version or a changed start.js is a new URL, so caching can be forever. */
  hash: string;
}

/** A file of an installed package; through its package.json, as the packages do not export these paths. */
const packageFile = (pkg: string, file: string) =>
  path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

const JS = "text/javascript; charset=utf-8";

/** URL name → file. Browser-ready builds: the UMD bundles put React, ReactDOM and GraphiQL on window. */
const FILES: Record<string, { file: () => string; type: string }> = {
  "react.js": { file: () => packageFile("react", "umd/react.production.min.js"), type: JS },
  "react-dom.js": { file: () => packageFile("react-dom", "umd/react-dom.production.min.js"), type: JS },
  "graphiql.js": { file: () => packageFile("graphiql", "graphiql.min.js"), type: JS },
  "graphiql.css": { file: () => packageFile("graphiql", "graphiql.min.css"), type: "text/css; charset=utf-8" },
  // Read from the source tree in both modes (tsx and dist/): tsc does not copy .js files.
  "start.js": { file: () => path.join(PROJECT_ROOT, "src/http/graphiql-assets/start.js"), type: JS },
};

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [name, { file, type }] of Object.entries(FILES)) {
    const resolved = file();
    const body = fs.readFileSync(resolved);
    assets.set(name, {
      file: resolved,
      type,
      body,
      hash: createHash("sha256").update(body).digest("hex").slice(0, 16),
    });
  }
  return assets;
}

/** Only this origin: scripts, styles, the GraphQL endpoint. Inline styles: CodeMirror and GraphiQL set them. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function page(base: string, assets: Map<string, Asset>): string {
  const url = (name: string) => escapeHtml(`${base}/assets/${assets.get(name)!.hash}/${name}`);
  // The page's settings travel as JSON data, not as script: the CSP allows no inline script.
  const settings = escapeHtml(JSON.stringify({ endpoint: "/graphql" }));
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Portfolio service GraphQL IDE</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${url("graphiql.css")}">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql" data-settings="${settings}">
    <noscript>The GraphQL IDE needs JavaScript. The API itself answers POST /graphql.</noscript>
    <p class="graphiql-loading">Loading the GraphQL IDE…</p>
  </div>
  <script src="${url("react.js")}"></script>
  <script src="${url("react-dom.js")}"></script>
  <script src="${url("graphiql.js")}"></script>
  <script src="${url("start.js")}"></script>
</body>
</html>
`;
}

export function graphiqlRouter(): express.Router {
  const assets = loadAssets();
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader("Content-Security-Policy", CSP);
    next();
  });
  // No key needed to load the IDE: the key goes in its Headers editor, and /graphql checks it.
  router.get("/", (req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(page(req.baseUrl, assets));
  });
  router.get("/assets/:hash/:name", (req, res, next) => {
    const asset = assets.get(req.params.name);
    // An old hash (a page cached before an upgrade) falls through to 404 rather than get new bytes forever.
    if (!asset || asset.hash !== req.params.hash) return next();
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Content-Type", asset.type);
    res.send(asset.body);
  });
  return router;
}
