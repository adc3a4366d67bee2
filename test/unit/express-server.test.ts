import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { expressServer } from "../../src/http/express-server";

/**
 * The service's HTTP server makes each request and response with the Express app's prototypes
 * from the start (src/http/express-server.ts), so Express has no prototype to change as a request
 * arrives; everything Express adds to them still works.
 */
describe("the Express app's HTTP server", () => {
  const app = express();
  app.use(express.json());
  app.get("/echo", (req, res) => res.json({ q: req.query.q, ip: req.ip, path: req.path }));
  app.post("/echo", (req, res) => res.status(201).json({ body: req.body as unknown }));
  const server = expressServer(app);
  const born: { request: boolean; response: boolean }[] = [];
  // Before Express sees them: the prototypes the server made them with.
  server.prependListener("request", (req, res) =>
    born.push({
      request: Object.getPrototypeOf(req) === app.request,
      response: Object.getPrototypeOf(res) === app.response,
    }),
  );
  let base = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("makes requests and responses with the app's prototypes, still IncomingMessage and ServerResponse", async () => {
    let seen: { request: boolean; response: boolean } | undefined;
    server.once("request", (req, res) => {
      seen = { request: req instanceof http.IncomingMessage, response: res instanceof http.ServerResponse };
    });
    await fetch(`${base}/echo`);
    expect(born.at(-1)).toEqual({ request: true, response: true });
    expect(seen).toEqual({ request: true, response: true });
  });

  it("answers as Express does: query, path, client address, JSON in and out, 404", async () => {
    const get = await fetch(`${base}/echo?q=shares`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ q: "shares", ip: "127.0.0.1", path: "/echo" });
    const post = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ units: 10 }),
    });
    expect(post.status).toBe(201);
    expect(await post.json()).toEqual({ body: { units: 10 } });
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });
});
