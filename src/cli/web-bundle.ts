import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { WEB_OUT } from "../http/web-app";
import { PROJECT_ROOT } from "../lib/paths";
import { escapeHtml } from "../lib/html";

/**
 * Builds the web app (src/web) into `outDir`: one script and one stylesheet, bundled by esbuild
 * with Preact and Chart.js from node_modules (nothing loads from another host), named by their
 * content hash so they can be cached forever, and the index.html that loads them. No inline
 * script: the page's CSP (src/http/web-app.ts) allows scripts from the service's own files only.
 */

export const WEB_SOURCE = path.join(PROJECT_ROOT, "src/web");
/** The URL the assets are served under (src/http/web-app.ts mounts the app at /app). */
const ASSET_URL = "/app/assets";

export async function bundleWebApp(outDir: string = WEB_OUT): Promise<{ files: string[] }> {
  const staging = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await build({
    entryPoints: { app: path.join(WEB_SOURCE, "main.tsx") },
    bundle: true,
    minify: true,
    format: "iife",
    target: ["chrome109", "firefox115", "safari15"],
    jsx: "automatic",
    jsxImportSource: "preact",
    tsconfig: path.join(WEB_SOURCE, "tsconfig.json"),
    outdir: path.join(staging, "assets"),
    entryNames: "[name].[hash]",
    assetNames: "[name].[hash]",
    metafile: true,
    legalComments: "linked",
    logLevel: "warning",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  const script = outputs.find((f) => f.endsWith(".js"));
  const style = outputs.find((f) => f.endsWith(".css"));
  if (!script || !style) throw new Error(`web app: the bundle lacks a script or a stylesheet (${outputs.join(", ")})`);
  fs.writeFileSync(path.join(staging, "index.html"), indexHtml(`${ASSET_URL}/${script}`, `${ASSET_URL}/${style}`));
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(staging, outDir);
  return { files: outputs };
}

function indexHtml(script: string, style: string): string {
  return `<!DOCTYPE html>
<html lang="en-AU">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Portfolio service</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${escapeHtml(style)}">
  <script defer src="${escapeHtml(script)}"></script>
</head>
<body>
  <div id="app"><noscript>The web app needs JavaScript. The API itself answers at /graphql and /v1.</noscript></div>
</body>
</html>
`;
}
