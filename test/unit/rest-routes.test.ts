import http from "node:http";
import express, { type RequestHandler } from "express";
import request from "supertest";
import { endpoints } from "../../src/http/router";
import { restRoutes } from "../../src/http/rest-routes";

/**
 * The REST routes are matched once, by the guard, and dispatched to the endpoint it found
 * (src/http/rest-routes.ts): for every path and method of the table, that is the endpoint
 * Express's router picks for it (first registered wins, case-insensitive, trailing slash), with
 * the same decoded parameters; a malformed escape is Express's 400.
 */
const answer =
  (operationId: string): RequestHandler =>
  (req, res) =>
    void res.json({ operationId, params: req.params });

/** Express's own router over the table, as the service mounted it before the guard dispatched. */
function viaExpress(): http.Server {
  const app = express();
  const router = express.Router();
  for (const e of endpoints) router[e.method](e.path, answer(e.operationId));
  app.use(["/v1", "/api/v1"], router);
  app.use((_req, res) => void res.status(404).json({ operationId: null }));
  app.use(
    ((error, _req, res, _next) =>
      void res.status(error.status ?? 500).json({ error: error.message })) as express.ErrorRequestHandler,
  );
  return http.createServer(app);
}

function viaGuard(): http.Server {
  const { guard, dispatch } = restRoutes({ extraGets: [], chainOf: (e) => [answer(e.operationId)] });
  const app = express();
  app.use(["/v1", "/api/v1"], guard, dispatch);
  app.use((_req, res) => void res.status(404).json({ operationId: null }));
  app.use(
    ((error, _req, res, _next) =>
      void res.status(error.status ?? 500).json({ error: error.message })) as express.ErrorRequestHandler,
  );
  return http.createServer(app);
}

/** A path for the template: ids as numbers, string parameters as text with an escape in it. */
const samples = (template: string) => [
  template.replace(/:(\w+)/g, "7"),
  template.replace(/:(\w+)/g, "A%20b").toUpperCase(),
  template.replace(/:(\w+)/g, "x") + "/",
];

it("dispatches every path and method of the table as Express's router would, parameters decoded", async () => {
  const [express, guard] = [request(viaExpress()), request(viaGuard())];
  let compared = 0;
  for (const e of endpoints)
    for (const path of samples(e.path)) {
      const url = "/v1" + path;
      const [a, b] = await Promise.all([express[e.method](url), guard[e.method](url)]);
      expect({ url, status: b.status, body: b.body }).toEqual({ url, status: a.status, body: a.body });
      compared++;
    }
  expect(compared).toBe(endpoints.length * 3);
});

it("answers a malformed escape in a parameter with Express's 400", async () => {
  const [a, b] = await Promise.all([
    request(viaExpress()).get("/v1/portfolios/%E0"),
    request(viaGuard()).get("/api/v1/portfolios/%E0"),
  ]);
  expect(a.status).toBe(400);
  expect(b.status).toBe(400);
  expect(b.body).toEqual(a.body);
});
