import os from "node:os";
import pino from "pino";
import request from "supertest";
import { createApp, type App } from "../../src/app";
import type { Database } from "../../src/db";
import { METHOD_NOT_ALLOWED_RESPONSE } from "../../src/http/openapi-components";
import { endpoints } from "../../src/http/router";
import { useTestApp } from "../support/app";
import { OpenApiContract, type OpenApiDocument } from "../support/openapi";
import { fixtureUrl, type FixtureIds } from "../scenarios/write-fixture";
import { type Call, contractDriver } from "./openapi-contract.cases";

/**
 * The answers no request of the main app gets (the database unreachable, the disk below its floor,
 * the rate limit), and the general ones: 405 with Allow, and Idempotency-Key replays.
 *
 * The OpenAPI document is the contract: every operation of the `endpoints` table is driven over
 * HTTP (a success and its errors), and every answer must have a status the document lists for that
 * operation, a documented content type, a body valid against the documented schema (ajv, strict,
 * JSON Schema 2020-12) and the documented headers. A route added without a case here fails.
 */

const t = useTestApp({ reset: "none" });
let doc: OpenApiDocument;
let contract: OpenApiContract;
/** One account's fixture for reads and refused requests (neither changes it). */
let shared: { key: string; readKey: string; ids: FixtureIds };

const { drive, servedContract } = contractDriver(t, () => contract);

beforeAll(async () => {
  ({ doc, contract, shared } = await servedContract());
});

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/**
 * The answers no request of the main app gets: the database unreachable (503), the disk below its
 * floor (507 on writes) and the rate limit (429), from apps over a database stub that fails the
 * way a lost connection does.
 */
describe("outage answers", () => {
  const apps: App[] = [];
  const unreachable = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  const lostDatabase = (kind: Database["kind"]): Database => {
    const failing: unknown = new Proxy(() => undefined, {
      get: (_target, prop) => (prop === "then" ? undefined : failing),
      apply: () => Promise.reject(unreachable()),
    });
    return {
      prisma: failing as Database["prisma"],
      kind,
      statementCount: 0,
      settleStatistics: async () => {},
      ping: () => Promise.reject(unreachable()),
      tryLock: () => Promise.reject(unreachable()),
      query: () => Promise.reject(unreachable()),
      close: async () => {},
    };
  };
  let outage: ReturnType<typeof request>;
  let cramped: ReturnType<typeof request>;
  beforeAll(async () => {
    const a = await createApp({
      db: lostDatabase("postgresql"),
      log,
      config: { rateLimitPerSecond: 0, rateLimitBurst: 50 },
    });
    // Below the disk floor (writes refused) and a bucket of one request per address.
    const b = await createApp({
      db: lostDatabase("pglite"),
      log,
      config: {
        rateLimitPerSecond: 0.001,
        rateLimitBurst: 1,
        dataDir: os.tmpdir(),
        diskFreeMinMb: Number.MAX_SAFE_INTEGER,
      },
    });
    apps.push(a, b);
    outage = request(a.app);
    cramped = request(b.app);
    await cramped.get("/v1/portfolios").expect(401);
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
  });

  it.each(endpoints.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))(
    "%s: 503 without a database, 507 (writes) or 429 (reads) when cramped",
    async (_name, e) => {
      const ids = { ...shared.ids, publicId: "model" };
      const url = fixtureUrl(e.path, ids, "the contract table");
      const problems: string[] = [];
      problems.push(
        ...(
          await drive(
            outage,
            e,
            { what: "database unreachable", method: e.method, url, key: shared.key, expect: 503 },
            { checkRequest: false },
          )
        ).problems,
      );
      const c: Call = {
        what: e.method === "get" ? "over the rate limit" : "disk below its floor",
        method: e.method,
        url,
        expect: e.method === "get" ? 429 : 507,
      };
      problems.push(...(await drive(cramped, e, c, { checkRequest: false })).problems);
      expect(problems).toEqual([]);
    },
  );
});

describe("general answers", () => {
  it("a method a documented path does not take answers 405, with Allow listing exactly the documented methods (and HEAD with GET)", async () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        String(name === "publicId" ? shared.ids.publicId : shared.ids[name]),
      );
      const res = await t.http.patch(url).set("authorization", shared.key);
      const documented = Object.keys(item).map((m) => m.toUpperCase());
      const allow = (res.headers.allow ?? "").split(/,\s*/).filter(Boolean).sort();
      const expected = [...documented, ...(documented.includes("GET") ? ["HEAD"] : [])].sort();
      if (res.status !== 405) problems.push(`PATCH ${path}: ${res.status}`);
      else if (JSON.stringify(allow) !== JSON.stringify(expected))
        problems.push(`PATCH ${path}: Allow ${allow.join(",")}, documented ${expected.join(",")}`);
      const violations = contract.responseViolations(
        { responses: { 405: METHOD_NOT_ALLOWED_RESPONSE } },
        { status: res.status, headers: res.headers, body: res.body, text: res.text },
      );
      problems.push(...violations.map((v) => `PATCH ${path}: ${v}`));
    }
    expect(problems).toEqual([]);
  });

  it("a POST retried with its Idempotency-Key gets the documented answer again; the key on another request a documented 422", async () => {
    const e = endpoints.find((x) => x.operationId === "createCustomGroup")!;
    const key = await t.newAccount();
    const problems: string[] = [];
    const call = (name: string, body: unknown, expect: number): Call => ({
      what: name,
      method: "post",
      url: "/v1/custom-groups",
      key,
      body,
      expect,
    });
    const first = await drive(wrap("contract-1"), e, call("first", { name: "Once", labels: ["A"] }, 201));
    const retry = await drive(wrap("contract-1"), e, call("retry", { name: "Once", labels: ["A"] }, 201));
    const other = await drive(wrap("contract-1"), e, call("another request", { name: "Twice", labels: ["A"] }, 422));
    problems.push(...first.problems, ...retry.problems, ...other.problems);
    if (retry.res.headers["idempotent-replayed"] !== "true")
      problems.push("the retry carries no Idempotent-Replayed: true");
    expect(problems).toEqual([]);
  });
});

/** The app's HTTP agent with an Idempotency-Key on every request it makes. */
function wrap(idempotencyKey: string): ReturnType<typeof request> {
  const agent = t.http;
  return new Proxy(agent, {
    get: (target, method: string) => (url: string) =>
      (target[method as "post"](url) as request.Test).set("idempotency-key", idempotencyKey),
  });
}
