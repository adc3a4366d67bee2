import http from "node:http";
import express from "express";
import helmet from "helmet";
import { useTestApp } from "../support/app";

/**
 * Every answer carries helmet's security headers, worked out once at start
 * (src/http/security-headers.ts): the same names and values a bare Express app with helmet and
 * the same options sends, on a JSON answer, a problem+json refusal and a GraphQL answer, and no
 * X-Powered-By.
 */
const t = useTestApp({ reset: "none" });

/** What helmet itself sets, with the service's options, on a bare Express app. */
async function helmetHeaders(): Promise<Record<string, string>> {
  const bare = express();
  bare.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  bare.get("/", (_req, res) => void res.end());
  const server = http.createServer(bare).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`);
    const plain = ["date", "connection", "keep-alive", "content-length", "transfer-encoding"];
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => void (plain.includes(name) || (headers[name] = value)));
    return headers;
  } finally {
    server.close();
  }
}

it("sends helmet's headers on every kind of answer, and no X-Powered-By", async () => {
  const expected = await helmetHeaders();
  // Those helmet has always set with these options (a helmet that set none would pass vacuously).
  expect(expected).toMatchObject({
    "x-content-type-options": "nosniff",
    "x-frame-options": "SAMEORIGIN",
    "strict-transport-security": expect.stringContaining("max-age="),
    "cross-origin-opener-policy": "same-origin",
  });
  expect(Object.keys(expected)).not.toContain("content-security-policy");
  const key = await t.newAccount();
  const answers = await Promise.all([
    t.http.get("/v1/sources").set("authorization", key),
    t.http.get("/v1/portfolios/1"),
    t.gql(key, "{ sources { id } }"),
    t.http.get("/health"),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 401, 200, 200]);
  for (const answer of answers) {
    expect(answer.headers).toMatchObject(expected);
    expect(answer.headers).not.toHaveProperty("x-powered-by");
  }
});
