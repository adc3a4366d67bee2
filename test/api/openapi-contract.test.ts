import os from "node:os";
import pino from "pino";
import request from "supertest";
import { createApp, type App } from "../../src/app";
import type { Database } from "../../src/db";
import { isWrite, type Endpoint } from "../../src/http/endpoint";
import { buildOpenApi } from "../../src/http/openapi";
import { endpoints } from "../../src/http/router";
import { startTestApp, type TestApp } from "../support/app";
import { OpenApiContract, structuralProblems, type OpenApiDocument } from "../support/openapi";
import {
  ATTACHMENT_PDF,
  BODYLESS_WRITES,
  fixtureUrl,
  seedWriteFixture,
  writeBodies,
  type FixtureIds,
} from "../support/write-fixture";

/**
 * The OpenAPI document is the contract: every operation of the `endpoints` table is driven over
 * HTTP (a success and its errors), and every answer must have a status the document lists for that
 * operation, a documented content type, a body valid against the documented schema (ajv, strict,
 * JSON Schema 2020-12) and the documented headers. A route added without a case here fails.
 */
let t: TestApp;
let doc: OpenApiDocument;
let contract: OpenApiContract;
/** One account's fixture for reads and refused requests (neither changes it). */
let shared: { key: string; readKey: string; ids: FixtureIds };

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const MISSING_ID = "2147483647";

interface Call {
  what: string;
  method: Endpoint["method"];
  url: string;
  key?: string;
  contentType?: string;
  body?: unknown;
  upload?: boolean;
  /** The status the case is built to get (one of them, where the server may still choose). */
  expect: number | number[];
}

interface Success {
  /** The success call's query (a function of the fixture's ids when it names one). */
  query?: string | ((ids: FixtureIds) => string);
  /** The custom investment stands in for :holdingId (custom prices belong to it). */
  customHolding?: boolean;
  /** More requests over the same fresh fixture, after the first (`query` replaces the first's). */
  more?: (ids: FixtureIds) => (Omit<Call, "method" | "url" | "key"> & { query?: string })[];
}

const csv = (lines: string[]) => lines.join("\n") + "\n";

/** One success case per operation: a test fails until a new route is added here. */
const SUCCESS: Record<string, Success> = {
  listSources: {},
  listPortfolios: {},
  createPortfolio: {},
  getPortfolio: {},
  updatePortfolio: {},
  deletePortfolio: {},
  listHoldings: { query: "includeClosed=true&date=2024-12-31" },
  createHolding: {},
  getHolding: {},
  updateHolding: {},
  deleteHolding: {},
  changeHoldingSymbol: {},
  listSymbolChanges: {},
  createTrade: {},
  getTrade: {},
  updateTrade: {},
  deleteTrade: {},
  importTrades: {
    query: "dryRun=false",
    more: (ids) => [
      { what: "dry run", query: "dryRun=true&duplicates=allow", body: writeBodies(ids).importTrades, expect: 200 },
      {
        what: "CSV",
        contentType: "text/csv",
        body: csv([
          "date,type,symbol,exchange,quantity,price,brokerage,currency",
          "2024-03-01,Buy,CBA,ASX,2,101,9.95,AUD",
        ]),
        expect: 201,
      },
    ],
  },
  uploadTradeAttachment: {},
  getTradeAttachment: {},
  deleteTradeAttachment: {},
  listHoldingTrades: { query: "limit=1&offset=0" },
  createIncome: {},
  getIncome: {},
  updateIncome: {},
  confirmIncome: {},
  deleteIncome: {},
  listHoldingIncome: {},
  updateProRataDistributions: {},
  listCashAccounts: {},
  createCashAccount: {},
  getCashAccount: {},
  updateCashAccount: {},
  deleteCashAccount: {},
  listCashMovements: { query: "limit=10&offset=0&from=2024-01-01" },
  createCashTransaction: {},
  getCashTransaction: {},
  updateCashTransaction: {},
  deleteCashTransaction: {},
  listCustomPrices: { customHolding: true },
  addCustomPrice: { customHolding: true },
  addCustomPrices: {
    customHolding: true,
    more: () => [{ what: "CSV", contentType: "text/csv", body: csv(["date,price", "2024-09-30,251000"]), expect: 201 }],
  },
  getCustomPrice: {},
  updateCustomPrice: {},
  deleteCustomPrice: {},
  upsertMarketPrices: {
    more: () => [
      {
        what: "CSV",
        contentType: "text/csv",
        body: csv(["symbol,exchange,date,close", "CBA,ASX,2024-06-27,119.5"]),
        expect: 200,
      },
    ],
  },
  listMarketPrices: { query: "symbol=CBA&exchange=ASX&from=2024-01-01" },
  upsertFxRates: {
    more: () => [
      {
        what: "CSV",
        contentType: "text/csv",
        body: csv(["base,quote,date,rate", "USD,AUD,2024-06-27,1.49"]),
        expect: 200,
      },
    ],
  },
  listFxRates: { query: "base=USD&quote=AUD" },
  searchSecurities: { query: "q=CB&limit=5" },
  listPortfolioTransactions: { query: "limit=2&offset=1" },
  listClients: {},
  createClient: {},
  getClient: {},
  updateClient: {},
  deleteClient: {},
  listClientPortfolios: {},
  assignClientPortfolios: {},
  createClientApiKey: {},
  revokeClientApiKeys: {},
  listCustomGroups: {},
  createCustomGroup: {},
  getCustomGroup: {},
  updateCustomGroup: {},
  deleteCustomGroup: {},
  listCustomGroupAssignments: {},
  setCustomGroupAssignments: {},
  listTaxSettings: {},
  getPortfolioTaxSettings: {},
  updateTaxSettings: {},
  listAllocationModels: {},
  saveAllocationModel: {
    // Create-or-update: the fixture's model updated answers 200.
    more: (ids) => [
      {
        what: "update",
        body: {
          publicId: ids.publicId,
          name: "Growth",
          dimension: "assetClass",
          buckets: [{ label: "Shares", targetPct: 100 }],
        },
        expect: 200,
      },
    ],
  },
  getActiveAllocationModel: {},
  getAllocationModel: {},
  deleteAllocationModel: {},
  activateAllocationModel: {},
  computeRebalance: {},
  getDriftOverview: {},
  capitalGainsReport: { query: "financialYear=2024" },
  unrealisedCapitalGainsReport: { query: "date=2024-06-30&includeCarriedForward=true" },
  taxableIncomeReport: { query: "financialYear=2025" },
  myTaxReport: { query: "financialYear=2025" },
  myTaxReportPdf: { query: "financialYear=2025" },
  simulateSell: {},
  getPortfolioTimeseries: { query: "from=2024-01-01&to=2024-03-31&interval=week" },
  getHoldingTimeseries: { query: "from=2024-01-01&to=2024-01-31" },
  getPerformance: {
    query: "from=2024-01-01&to=2024-12-31&groupBy=sector",
    more: () => [
      {
        what: "in local currency, open holdings only",
        query: "showLocalCurrency=true&includeClosed=false&annualise=false",
        expect: 200,
      },
    ],
  },
  // The fixture's portfolio against itself (the fixture imports no market prices for a security benchmark).
  getBenchmark: {
    query: (ids) => `benchmarkPortfolioId=${ids.portfolioId}&from=2024-01-01&to=2024-06-30&interval=month`,
  },
};

/** A query each query-taking operation must refuse (400). */
const BAD_QUERY: Record<string, string> = {
  listHoldings: "date=2024-02-30",
  listHoldingTrades: "offset=-1",
  listCashMovements: "limit=0",
  listMarketPrices: "symbol=CBA",
  listFxRates: "base=usd&quote=AUD",
  searchSecurities: "limit=5",
  listPortfolioTransactions: "limit=5001",
  importTrades: "dryRun=maybe",
  getDriftOverview: "clientId=abc",
  capitalGainsReport: "financialYear=20x5",
  unrealisedCapitalGainsReport: "date=2999-01-01",
  taxableIncomeReport: "financialYear=1900",
  myTaxReport: "financialYear=2025.5",
  myTaxReportPdf: "year=2025",
  getPortfolioTimeseries: "from=2024-02-01&to=2024-01-01",
  getHoldingTimeseries: "interval=fortnight",
  getPerformance: "groupBy=colour",
  getBenchmark: "symbol=CBA",
};

/** Bodies naming a resource that does not exist, for writes whose path names none (404). */
const MISSING_REFERENCE: Record<string, (ids: FixtureIds) => unknown> = {
  createTrade: (ids) => ({
    ...(writeBodies(ids).createTrade as object),
    portfolioId: Number(MISSING_ID),
    holdingId: undefined,
    symbol: "CBA",
    exchange: "ASX",
  }),
  createIncome: (ids) => ({ ...(writeBodies(ids).createIncome as object), holdingId: Number(MISSING_ID) }),
  createCashAccount: (ids) => ({ ...(writeBodies(ids).createCashAccount as object), portfolioId: Number(MISSING_ID) }),
  createCashTransaction: (ids) => ({
    ...(writeBodies(ids).createCashTransaction as object),
    cashAccountId: Number(MISSING_ID),
  }),
};

/** Each status a business rule answers, on one operation that has it. */
const RULES: Record<string, (ids: FixtureIds) => Omit<Call, "method" | "url" | "key"> & { query?: string }> = {
  createCustomGroup: () => ({ what: "a name taken", body: { name: "Strategy", labels: ["A"] }, expect: 409 }),
  addCustomPrice: () => ({ what: "a date already priced", body: { date: "2024-06-30", price: 1 }, expect: 409 }),
  updatePortfolio: () => ({ what: "a new base currency", body: { baseCurrencyCode: "USD" }, expect: 422 }),
  getBenchmark: () => ({
    what: "a security without prices",
    query: "symbol=NOPE&exchange=ASX&from=2024-01-01&to=2024-06-30",
    expect: 422,
  }),
  createPortfolio: () => ({ what: "a body over 1 MiB", body: { name: "x".repeat(1_100_000) }, expect: 413 }),
};

const fixtureOf = (ids: FixtureIds, custom = false) => (custom ? { ...ids, holdingId: ids.customHoldingId } : ids);
const pathParams = (e: Endpoint) => [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]);

function send(http: ReturnType<typeof request>, c: Call) {
  let req = http[c.method](c.url);
  if (c.key) req = req.set("authorization", c.key);
  if (c.upload) return req.attach("file", ATTACHMENT_PDF, { filename: "note.pdf", contentType: "application/pdf" });
  if (c.body === undefined) return req;
  return req
    .set("content-type", c.contentType ?? "application/json")
    .send(typeof c.body === "string" ? c.body : JSON.stringify(c.body));
}

/**
 * Sends the call and checks the answer against the document, and (unless the call is built to be
 * refused for its content type) the request too. Returns what disagrees, and the answer.
 */
async function drive(http: ReturnType<typeof request>, e: Endpoint, c: Call, opts: { checkRequest?: boolean } = {}) {
  const res = await send(http, c);
  const op = contract.operation(e.method, e.path)!;
  const problems: string[] = [];
  const expected = [c.expect].flat();
  if (!expected.includes(res.status))
    problems.push(`answered ${res.status}, the case expects ${expected.join(" or ")}: ${res.text?.slice(0, 300)}`);
  if (opts.checkRequest !== false) {
    problems.push(...contract.queryViolations(op, c.url));
    if (!c.upload)
      problems.push(
        ...contract.requestViolations(
          op,
          c.body === undefined ? undefined : (c.contentType ?? "application/json"),
          c.body,
        ),
      );
  }
  problems.push(
    ...contract.responseViolations(op, { status: res.status, headers: res.headers, body: res.body, text: res.text }),
  );
  return { res, problems: problems.map((p) => `${c.what}: ${p}`) };
}

beforeAll(async () => {
  t = await startTestApp();
  const served = await t.http.get("/v1/openapi.json").expect(200);
  expect(served.headers["content-type"]).toMatch(/^application\/json/);
  doc = served.body;
  contract = new OpenApiContract(doc);

  const key = await t.newAccount("contract");
  const ids = await seedWriteFixture(t, key);
  const as = (method: "post" | "put", url: string, body: unknown) =>
    t.http[method](url)
      .set("authorization", key)
      .send(body as object);
  // Data for every read to answer with (so its schema is checked on real rows, not an empty list).
  await as("post", "/v1/market-prices/bulk", [
    { symbol: "CBA", exchange: "ASX", date: "2024-06-28", close: 120 },
  ]).expect(200);
  await as("post", "/v1/fx-rates/bulk", [{ base: "USD", quote: "AUD", date: "2024-06-28", rate: 1.5 }]).expect(200);
  await as("put", `/v1/custom-groups/${ids.groupId}/assignments`, [{ holdingId: ids.holdingId, label: "Core" }]).expect(
    200,
  );
  await t.http.post(`/v1/allocation-models/${ids.publicId}/activate`).set("authorization", key).expect(200);
  await as("put", `/v1/holdings/${ids.holdingId}/symbol`, { symbol: "CBAX", exchange: "ASX" }).expect(200);
  await as("put", `/v1/clients/${ids.clientId}/portfolios`, {
    portfolioIds: [ids.portfolioId],
    permission: "Read",
  }).expect(200);
  await as("post", "/v1/cash-transactions", {
    cashAccountId: ids.cashAccountId,
    type: "Deposit",
    date: "2024-03-01",
    amount: 10,
  }).expect(201);
  // A client login key with Read permission over the fixture's portfolio (the client's own).
  const readKey = await t.newClientKey(key, "Read", [ids.portfolioId as number]);
  shared = { key, readKey, ids };
});
afterAll(() => t?.close());

describe("the document", () => {
  it("is structurally valid OpenAPI 3.1", () => {
    expect(structuralProblems(doc)).toEqual([]);
  });

  it("compiles every schema it holds with ajv (JSON Schema 2020-12, strict: no unknown keyword or format)", () => {
    const failures: string[] = [];
    let count = 0;
    for (const [where, schema] of contract.schemas()) {
      count++;
      try {
        contract.validator(schema);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(endpoints.length);
  });

  it("is built from the endpoint table, one operation each", () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operations.sort()).toEqual(endpoints.map((e) => e.operationId).sort());
  });

  it("every operation of the table has a case here, and every case an operation", () => {
    expect(endpoints.filter((e) => !(e.operationId in SUCCESS)).map((e) => e.operationId)).toEqual([]);
    expect(Object.keys(SUCCESS).filter((id) => !endpoints.some((e) => e.operationId === id))).toEqual([]);
    for (const table of [BAD_QUERY, MISSING_REFERENCE, RULES])
      expect(Object.keys(table).filter((id) => !endpoints.some((e) => e.operationId === id))).toEqual([]);
    // Every query-taking operation has a refused query.
    expect(endpoints.filter((e) => e.query && !(e.operationId in BAD_QUERY)).map((e) => e.operationId)).toEqual([]);
  });

  it("documents, per the README: 403 on every write, 404 with a path id, 415 with a body, 429/500/503 everywhere, 507 on writes", () => {
    const missing: string[] = [];
    for (const e of endpoints) {
      const op = contract.operation(e.method, e.path)!;
      const statuses = Object.keys(op.responses as object).map(Number);
      const want = [
        400,
        401,
        429,
        500,
        503,
        ...(isWrite(e) ? [403] : []),
        ...(e.method !== "get" ? [409, 507] : []),
        ...(e.method === "post" ? [422] : []),
        ...(pathParams(e).length ? [404] : []),
        ...(op.requestBody ? [413, 415] : []),
        ...(e.errors ?? []),
      ];
      for (const s of want) if (!statuses.includes(s)) missing.push(`${e.operationId} ${s}`);
      if (
        e.method === "post" &&
        !((op.parameters ?? []) as unknown[]).some(
          (p) => contract.resolve<{ name: string }>(p).name === "Idempotency-Key",
        )
      )
        missing.push(`${e.operationId} Idempotency-Key`);
    }
    expect(missing).toEqual([]);
  });

  it("a create whose resource can be read back says where (Location); a list taking limit and offset is paged", () => {
    const gaps: string[] = [];
    for (const e of endpoints) {
      const readBack =
        e.status === 201 &&
        e.response &&
        endpoints.some((g) => g.method === "get" && g.response === e.response && /\/:\w+$/.test(g.path));
      if (readBack && !e.location) gaps.push(`${e.operationId}: 201 with a readable resource but no \`location\``);
      if (e.query && "limit" in e.query.shape && "offset" in e.query.shape && !e.paged)
        gaps.push(`${e.operationId}: takes limit and offset but is not \`paged\` (no X-Total-Count, Link)`);
    }
    expect(gaps).toEqual([]);
  });

  it("documents an Endpoint's CSV columns as a text/csv body beside JSON", () => {
    const bulk = endpoints.find((e) => e.operationId === "upsertFxRates")!;
    const local = buildOpenApi(
      [{ ...bulk, csv: { columns: ["base", "quote", "date", "rate"], required: ["base", "quote", "date", "rate"] } }],
      { version: "test" },
    );
    const content = (
      local.paths["/v1/fx-rates/bulk"].post as {
        requestBody: { content: Record<string, { schema: { type: string; description: string }; example: string }> };
      }
    ).requestBody.content;
    expect(Object.keys(content).sort()).toEqual(["application/json", "text/csv"]);
    expect(content["text/csv"].schema.type).toBe("string");
    expect(content["text/csv"].schema.description).toContain(
      "`base` (required), `quote` (required), `date` (required), `rate` (required)",
    );
    expect(content["text/csv"].example.split("\n")[0]).toBe("base,quote,date,rate");
  });
});

describe.each(endpoints.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))("%s", (_name, e) => {
  const success = SUCCESS[e.operationId] ?? {};
  const urlFor = (ids: FixtureIds, given = success.query) => {
    const query = typeof given === "function" ? given(ids) : given;
    return fixtureUrl(e.path, fixtureOf(ids, success.customHolding), "the contract table") + (query ? `?${query}` : "");
  };
  const validBody = (ids: FixtureIds) =>
    e.upload || BODYLESS_WRITES.has(e.operationId) ? undefined : writeBodies(ids)[e.operationId];

  it("answers its documented success", async () => {
    if (!(e.operationId in SUCCESS)) throw new Error(`no case for ${e.operationId}: add one to SUCCESS`);
    // A write runs over a fresh fixture of its own; a read over the shared one.
    const key = e.method === "get" ? shared.key : await t.newAccount();
    const ids = e.method === "get" ? shared.ids : await seedWriteFixture(t, key);
    const calls: Call[] = [
      {
        what: "success",
        method: e.method,
        url: urlFor(ids),
        key,
        body: validBody(ids),
        upload: e.upload,
        expect: e.status ?? 200,
      },
      ...(success.more?.(ids) ?? []).map(({ query, ...c }) => ({
        ...c,
        method: e.method,
        url: urlFor(ids, query ?? success.query),
        key,
      })),
    ];
    const problems: string[] = [];
    for (const c of calls) {
      const { res, problems: p } = await drive(t.http, e, c);
      problems.push(...p);
      // A Location must lead to the resource just made.
      const location = res.headers.location as string | undefined;
      if (res.status === 201 && location) {
        const back = await t.http.get(location).set("authorization", key);
        if (back.status !== 200) problems.push(`${c.what}: Location ${location} answers ${back.status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers its documented errors", async () => {
    const { key, readKey, ids } = shared;
    const body = validBody(ids);
    const base = { method: e.method, body, upload: e.upload };
    const calls: Call[] = [{ ...base, what: "no key", url: urlFor(ids), expect: 401 }];
    for (const param of pathParams(e)) {
      const isString = e.stringParams?.includes(param);
      if (!isString)
        calls.push({
          ...base,
          what: `:${param} = 0`,
          url: fixtureUrl(e.path, { ...fixtureOf(ids, success.customHolding), [param]: "0" }),
          key,
          expect: 400,
        });
      calls.push({
        ...base,
        what: `:${param} does not exist`,
        url: fixtureUrl(e.path, {
          ...fixtureOf(ids, success.customHolding),
          [param]: isString ? "no-such-model" : MISSING_ID,
        }),
        key,
        expect: 404,
      });
    }
    if (isWrite(e) || e.errors?.includes(403))
      calls.push({ ...base, what: "a client key with Read permission", url: urlFor(ids), key: readKey, expect: 403 });
    if (BAD_QUERY[e.operationId])
      calls.push({
        ...base,
        what: `?${BAD_QUERY[e.operationId]}`,
        url: urlFor(ids, BAD_QUERY[e.operationId]),
        key,
        expect: 400,
      });
    if (MISSING_REFERENCE[e.operationId])
      calls.push({
        ...base,
        what: "a body naming a missing resource",
        url: urlFor(ids),
        key,
        body: MISSING_REFERENCE[e.operationId](ids),
        expect: 404,
      });
    if (RULES[e.operationId]) {
      const { query, ...rule } = RULES[e.operationId](ids);
      calls.push({ ...base, ...rule, url: urlFor(ids, query ?? success.query), key });
    }
    if (e.body) {
      const unknown = Array.isArray(body)
        ? [{ ...body[0], unexpectedField: 1 }]
        : { ...(body as object), unexpectedField: 1 };
      calls.push({ ...base, what: "an unknown field", url: urlFor(ids), key, body: unknown, expect: 400 });
      calls.push({ ...base, what: "malformed JSON", url: urlFor(ids), key, body: '{"name": ', expect: 400 });
    }
    const problems: string[] = [];
    for (const c of calls) problems.push(...(await drive(t.http, e, c, { checkRequest: false })).problems);
    // A wrong content type: 415 (API.md §1); 400 while the body parsers leave such a body unread.
    if (e.body) {
      const c: Call = {
        ...base,
        what: "content type application/xml",
        url: urlFor(ids),
        key,
        contentType: "application/xml",
        body: "<trade/>",
        expect: [415, 400],
      };
      problems.push(...(await drive(t.http, e, c, { checkRequest: false })).problems);
    }
    expect(problems).toEqual([]);
  });
});

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
        { responses: { 405: { $ref: "#/components/responses/MethodNotAllowed" } } },
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
