import http from "node:http";
import type { AddressInfo } from "node:net";
import { ledgerSnapshot, useTestApp } from "../support/app";

/**
 * Issue 20, row 3: a request without a valid key is refused before its body is read. 20 keyless
 * 19 MiB bodies to a bulk endpoint were each parsed (10 to 54 s) before their 401. Here the 401
 * must come while the client has sent only the first bytes of a body it declared to be 19 MiB: a
 * server that reads the body first never answers. GraphQL needs no key for introspection; its
 * bodies are refused by size (1 MiB) instead.
 */

const t = useTestApp({ reset: "none" });
let base: string;
let server: http.Server;

beforeAll(async () => {
  // A body sent slowly needs a server of its own, with the app supertest drives (its server's
  // request listener; a Test that is never sent starts nothing).
  const supertestServer = (t.http.get("/health") as unknown as { app: http.Server }).app;
  server = http.createServer(supertestServer.listeners("request")[0] as http.RequestListener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const DECLARED = 19 * 1024 * 1024;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the body the client had sent when the answer came. */
  sent: number;
}

/**
 * POSTs a body declared as DECLARED bytes, sending only its first 64 KiB and then nothing more:
 * resolves with the answer, which must therefore come before the body is read through.
 */
function postSlowly(path: string, contentType: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = http.request(
      `${base}${path}`,
      { method: "POST", headers: { "content-type": contentType, "content-length": String(DECLARED), ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body, sent });
        });
      },
    );
    req.on("error", (error) => (sent < DECLARED ? undefined : reject(error)));
    // A generous bound, not a timing: a server waiting for the rest of the body never answers.
    setTimeout(() => reject(new Error(`no answer to POST ${path} while its body was still unsent`)), 20_000).unref();
    const first = Buffer.alloc(64 * 1024, "[");
    req.write(first);
    sent += first.length;
  });
}

describe("keyless bodies are refused before they are read", () => {
  it("a keyless 19 MiB body to a bulk endpoint answers 401 problem+json with Connection: close, unread", async () => {
    for (const path of ["/v1/market-prices/bulk", "/api/v1/fx-rates/bulk"]) {
      for (const contentType of ["application/json", "text/csv"]) {
        const res = await postSlowly(path, contentType);
        expect(res.status).toBe(401);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(res.headers.connection).toBe("close");
        expect(res.headers["www-authenticate"]).toMatch(/^Bearer /);
        expect(JSON.parse(res.body)).toMatchObject({
          code: "UNAUTHENTICATED",
          detail: expect.stringMatching(/valid API key is required/),
        });
        expect(res.sent).toBeLessThan(DECLARED);
      }
    }
  });

  it("an unknown key is keyless too; any body route, not only bulk ones", async () => {
    const res = await postSlowly("/v1/portfolios", "application/json", { authorization: "not-a-key" });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/error="invalid_token"/);
  });

  it("a keyless body that is not JSON answers 401, not 400: the parser never ran", async () => {
    const before = await ledgerSnapshot(t.db);
    const res = await t.http.post("/v1/market-prices/bulk").set("content-type", "application/json").send("{not json");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHENTICATED");
    const csv = await t.http
      .post("/api/v1/market-prices/bulk")
      .set("content-type", "text/csv")
      .send('symbol,"never closed');
    expect(csv.status).toBe(401);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("keyless requests without a body answer as before (401, or the route's 405/415 first)", async () => {
    expect((await t.http.get("/v1/portfolios")).status).toBe(401);
    expect((await t.http.delete("/v1/market-prices/bulk")).status).toBe(405);
    expect((await t.http.post("/v1/market-prices/bulk").set("content-type", "text/plain").send("x")).status).toBe(415);
  });

  it("GraphQL: a body with a key that is not valid answers 401 unread, as a GraphQL response", async () => {
    const res = await postSlowly("/graphql", "application/json", { authorization: "not-a-key" });
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe("close");
    expect(JSON.parse(res.body).errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(res.sent).toBeLessThan(DECLARED);
  });

  it("GraphQL: a keyless 19 MiB body answers 413 by its size, not parsed; keyless introspection still works", async () => {
    // Not JSON: parsed, it would answer 400. (The JSON parser drains a body over its 1 MiB, unread.)
    const res = await t.http.post("/graphql").set("content-type", "application/json").send("[".repeat(DECLARED));
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    const introspection = await t.gql(undefined, "{ __schema { queryType { name } } }");
    expect(introspection.status).toBe(200);
    expect(introspection.body.data).toEqual({ __schema: { queryType: { name: "Query" } } });
  });
});
