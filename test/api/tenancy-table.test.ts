import { isWrite } from "../../src/http/endpoint";
import { endpoints } from "../../src/http/router";
import { ledgerSnapshot, useTestApp } from "../support/app";
import {
  ATTACHMENT_PDF,
  BODYLESS_WRITES,
  fixtureUrl,
  seedWriteFixture,
  writeBodies,
  type FixtureIds,
} from "../scenarios/write-fixture";

/**
 * docs/conventions.md §2.3–2.4, for every REST route at once: another account's ids answer 404, exactly as
 * missing ones, and a client key with Read permission gets 403 on every write. A route added
 * without a case here fails the "every route is covered" test, so the table cannot fall behind.
 */
const t = useTestApp({ reset: "none" });
let ownerKey: string;
let otherKey: string;
let readKey: string;
let ids: FixtureIds;

beforeAll(async () => {
  ownerKey = await t.newAccount("owner");
  otherKey = await t.newAccount("other");
  ids = await seedWriteFixture(t, ownerKey);
  readKey = await t.newClientKey(ownerKey, "Read", [ids.portfolioId as number]);
});

/** A valid body for each write, so the only thing wrong with the request is who sends it. */
const bodies = () => writeBodies(ids);

/** Writes without ids in the path name their target in the body: answered 404 to a stranger. */
const STRANGER_404_WITHOUT_PARAMS = new Set([
  "createTrade",
  "createIncome",
  "createCashAccount",
  "createCashTransaction",
]);

const url = (path: string) => fixtureUrl(path, ids, "the tenancy table");

/** Reads that need a query to answer 200 (the benchmark names what it compares with). */
const QUERIES: Record<string, () => string> = { getBenchmark: () => `benchmarkPortfolioId=${ids.portfolioId}` };

function send(key: string, e: (typeof endpoints)[number]) {
  const query = QUERIES[e.operationId]?.();
  const req = t.http[e.method](url(e.path) + (query ? `?${query}` : "")).set("authorization", key);
  if (e.upload) return req.attach("file", ATTACHMENT_PDF, { filename: "other.pdf", contentType: "application/pdf" });
  const body = bodies()[e.operationId];
  return e.method === "get" || e.method === "delete" || body === undefined ? req : req.send(body as object);
}

const withParams = () => endpoints.filter((e) => e.path.includes(":"));
const writes = () => endpoints.filter(isWrite);

it("every route is covered: each path parameter has a fixture, each write a body", () => {
  for (const e of endpoints) expect(() => url(e.path)).not.toThrow();
  const needBody = writes().filter((e) => e.method !== "delete" && !e.upload && !BODYLESS_WRITES.has(e.operationId));
  expect(needBody.filter((e) => !(e.operationId in bodies())).map((e) => e.operationId)).toEqual([]);
});

it("another account's ids answer 404 on every route, and nothing is written", async () => {
  const before = await ledgerSnapshot(t.db);
  const outcomes: string[] = [];
  for (const e of [...withParams(), ...endpoints.filter((x) => STRANGER_404_WITHOUT_PARAMS.has(x.operationId))]) {
    const res = await send(otherKey, e);
    outcomes.push(
      `${e.method.toUpperCase()} ${e.path} → ${res.status}${res.status === 404 ? "" : " " + res.text.slice(0, 160)}`,
    );
    if (res.status === 404) expect(res.body.code).toBe("NOT_FOUND");
  }
  expect(outcomes.length).toBeGreaterThanOrEqual(45);
  expect(outcomes.filter((o) => !/ → 404$/.test(o))).toEqual([]);
  expect(await ledgerSnapshot(t.db)).toBe(before);
});

it("a client key with Read permission gets 403 on every write, and nothing is written", async () => {
  const before = await ledgerSnapshot(t.db);
  const outcomes: string[] = [];
  for (const e of writes()) {
    const res = await send(readKey, e);
    outcomes.push(
      `${e.method.toUpperCase()} ${e.path} → ${res.status}${res.status === 403 ? "" : " " + res.text.slice(0, 160)}`,
    );
    if (res.status === 403) expect(res.body.code).toBe("FORBIDDEN");
  }
  expect(outcomes.length).toBeGreaterThanOrEqual(40);
  expect(outcomes.filter((o) => !/ → 403$/.test(o))).toEqual([]);
  expect(await ledgerSnapshot(t.db)).toBe(before);
});

it("the same client key reads its own portfolio's resources", async () => {
  const reads = withParams().filter((e) => e.method === "get" && !/clients|custom-groups/.test(e.path));
  const outcomes: string[] = [];
  for (const e of reads) {
    const res = await send(readKey, e);
    outcomes.push(`GET ${e.path} → ${res.status}`);
  }
  expect(outcomes.filter((o) => !/ → 200$/.test(o))).toEqual([]);
});
