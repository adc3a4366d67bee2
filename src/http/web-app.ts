import fs from "node:fs";
import path from "node:path";
import express from "express";
import helmet from "helmet";
import { PROJECT_ROOT } from "../lib/paths";

/** Where `npm run build` puts the app (src/cli/web-bundle.ts) and /app serves it from. */
export const WEB_OUT = path.join(PROJECT_ROOT, "dist/web");

/**
 * The web app at /app (WEB.md): the files `npm run build` made (src/cli/web-bundle.ts), with a
 * strict content security policy of its own: scripts and styles from this origin only (no inline
 * script, no eval), requests to this origin only. The app holds no secret in its files: the key is
 * pasted in the browser and sent to /graphql.
 */
const appCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
});

export function webAppRouter(dir: string = WEB_OUT): express.Router {
  const router = express.Router();
  router.use(appCsp);
  // Read per request: a rebuild while the service runs (npm run build) is served without a restart.
  router.get("/", (_req, res) => {
    const index = path.join(dir, "index.html");
    if (!fs.existsSync(index)) {
      res.status(503).type("text").send("The web app is not built: run npm run build (npm start builds it).\n");
      return;
    }
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(fs.readFileSync(index));
  });
  // Content-hashed names: a new build is a new URL, so a file can be cached forever.
  router.use(
    "/assets",
    express.static(path.join(dir, "assets"), { immutable: true, maxAge: "365d", index: false, redirect: false }),
  );
  return router;
}
