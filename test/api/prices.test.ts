import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * Custom investment prices, market prices and exchange rates (API.md §2 "Custom investment
 * prices", "Market prices and exchange rates"): every operation over REST and GraphQL on the same
 * scenarios; the text/csv bodies, which only REST has, beside them.
 */

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

interface CustomPrice {
  id: number;
  holdingId: number;
  date: string;
  price: string;
}
interface MarketPrice {
  symbol: string;
  exchange: string;
  date: string;
  close: string;
}
interface FxRate {
  base: string;
  quote: string;
  date: string;
  rate: string;
}
interface FieldError {
  path: string;
  message: string;
}
interface Outcome<T> {
  status: number;
  data?: T;
  code?: string;
  message?: string;
  errors?: FieldError[];
  res: request.Response;
}

interface Transport {
  name: "REST" | "GraphQL";
  listCustom(k: string, holdingId: unknown): Promise<Outcome<CustomPrice[]>>;
  addCustom(k: string, holdingId: unknown, input: unknown): Promise<Outcome<CustomPrice>>;
  addCustomBulk(k: string, holdingId: unknown, rows: unknown[]): Promise<Outcome<CustomPrice[]>>;
  getCustom(k: string, id: unknown): Promise<Outcome<CustomPrice | null>>;
  updateCustom(k: string, id: unknown, input: unknown): Promise<Outcome<CustomPrice>>;
  deleteCustom(k: string, id: unknown): Promise<Outcome<boolean>>;
  upsertMarket(k: string, rows: unknown[]): Promise<Outcome<number>>;
  listMarket(k: string, query: Record<string, string>): Promise<Outcome<MarketPrice[]>>;
  upsertFx(k: string, rows: unknown[]): Promise<Outcome<number>>;
  listFx(k: string, query: Record<string, string>): Promise<Outcome<FxRate[]>>;
}

/** Both transports to one shape: integer ids, decimal strings. */
function normalise(value: unknown, transport: "REST" | "GraphQL"): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, transport));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const f of ["id", "holdingId"]) if (transport === "GraphQL" && typeof out[f] === "string") out[f] = Number(out[f]);
  for (const f of ["price", "close", "rate"]) if (transport === "REST" && typeof out[f] === "number") out[f] = String(out[f]);
  return out;
}

function restOutcome<T>(res: request.Response, success: number, pick: (body: never) => unknown = (b) => b): Outcome<T> {
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), detail: expect.any(String) });
    return { status: res.status, code: res.body.code, message: res.body.detail, errors: res.body.errors, res };
  }
  expect(res.status).toBe(success);
  if (success === 204) return { status: res.status, data: true as T, res };
  return { status: res.status, data: normalise(pick(res.body as never), "REST") as T, res };
}

function gqlOutcome<T>(res: request.Response, field: string): Outcome<T> {
  const errors = res.body.errors as { message: string; extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    expect(errors).toHaveLength(1);
    return { status: res.status, code: errors[0].extensions?.code, message: errors[0].message, errors: errors[0].extensions?.errors, res };
  }
  expect(res.status).toBe(200);
  return { status: res.status, data: normalise(res.body.data[field], "GraphQL") as T, res };
}

const auth = (k: string) => ({ authorization: k });

const rest: Transport = {
  name: "REST",
  listCustom: async (k, h) => restOutcome(await t.http.get(`/v1/holdings/${h}/prices`).set(auth(k)), 200),
  addCustom: async (k, h, input) => restOutcome(await t.http.post(`/v1/holdings/${h}/prices`).set(auth(k)).send(input as object), 201),
  addCustomBulk: async (k, h, rows) => restOutcome(await t.http.post(`/v1/holdings/${h}/prices/bulk`).set(auth(k)).send(rows), 201),
  getCustom: async (k, id) => restOutcome(await t.http.get(`/v1/prices/${id}`).set(auth(k)), 200),
  updateCustom: async (k, id, input) => restOutcome(await t.http.put(`/v1/prices/${id}`).set(auth(k)).send(input as object), 200),
  deleteCustom: async (k, id) => restOutcome(await t.http.delete(`/v1/prices/${id}`).set(auth(k)), 204),
  upsertMarket: async (k, rows) => restOutcome(await t.http.post("/v1/market-prices/bulk").set(auth(k)).send(rows), 200, (b: { upserted: number }) => b.upserted),
  listMarket: async (k, q) => restOutcome(await t.http.get("/v1/market-prices").query(q).set(auth(k)), 200),
  upsertFx: async (k, rows) => restOutcome(await t.http.post("/v1/fx-rates/bulk").set(auth(k)).send(rows), 200, (b: { upserted: number }) => b.upserted),
  listFx: async (k, q) => restOutcome(await t.http.get("/v1/fx-rates").query(q).set(auth(k)), 200),
};

const PRICE = "id holdingId date price";
const graphql: Transport = {
  name: "GraphQL",
  listCustom: async (k, h) => gqlOutcome(await t.gql(k, `query ($h: ID!) { customPrices(holdingId: $h) { ${PRICE} } }`, { h: String(h) }), "customPrices"),
  addCustom: async (k, h, input) =>
    gqlOutcome(await t.gql(k, `mutation ($h: ID!, $input: CustomPriceInput!) { addCustomPrice(holdingId: $h, input: $input) { ${PRICE} } }`, { h: String(h), input }), "addCustomPrice"),
  addCustomBulk: async (k, h, rows) =>
    gqlOutcome(await t.gql(k, `mutation ($h: ID!, $input: [CustomPriceInput!]!) { addCustomPrices(holdingId: $h, input: $input) { ${PRICE} } }`, { h: String(h), input: rows }), "addCustomPrices"),
  getCustom: async (k, id) => gqlOutcome(await t.gql(k, `query ($id: ID!) { customPrice(id: $id) { ${PRICE} } }`, { id: String(id) }), "customPrice"),
  updateCustom: async (k, id, input) =>
    gqlOutcome(await t.gql(k, `mutation ($id: ID!, $input: UpdateCustomPriceInput!) { updateCustomPrice(id: $id, input: $input) { ${PRICE} } }`, { id: String(id), input }), "updateCustomPrice"),
  deleteCustom: async (k, id) => gqlOutcome(await t.gql(k, `mutation ($id: ID!) { deleteCustomPrice(id: $id) }`, { id: String(id) }), "deleteCustomPrice"),
  upsertMarket: async (k, rows) => gqlOutcome(await t.gql(k, `mutation ($input: [MarketPriceInput!]!) { upsertMarketPrices(input: $input) }`, { input: rows }), "upsertMarketPrices"),
  listMarket: async (k, q) =>
    gqlOutcome(
      await t.gql(k, `query ($symbol: String!, $exchange: String!, $from: Date, $to: Date) { marketPrices(symbol: $symbol, exchange: $exchange, from: $from, to: $to) { symbol exchange date close } }`, q),
      "marketPrices",
    ),
  upsertFx: async (k, rows) => gqlOutcome(await t.gql(k, `mutation ($input: [FxRateInput!]!) { upsertFxRates(input: $input) }`, { input: rows }), "upsertFxRates"),
  listFx: async (k, q) =>
    gqlOutcome(await t.gql(k, `query ($base: String!, $quote: String!, $from: Date, $to: Date) { fxRates(base: $base, quote: $quote, from: $from, to: $to) { base quote date rate } }`, q), "fxRates"),
};

function expectFailure(tr: Transport, o: Outcome<unknown>, code: string, status: number): void {
  expect({ code: o.code, data: o.data }).toEqual({ code, data: undefined });
  if (tr.name === "REST") expect(o.status).toBe(status);
}

/** VALIDATION_FAILED naming exactly these paths, in this order. */
function expectInvalid(tr: Transport, o: Outcome<unknown>, paths: string[]): void {
  expectFailure(tr, o, "VALIDATION_FAILED", 400);
  expect(o.errors!.map((e) => e.path)).toEqual(paths);
  for (const e of o.errors!) expect(e).toEqual({ path: e.path, message: expect.any(String) });
}

function expectAbsent(tr: Transport, o: Outcome<unknown>): void {
  if (tr.name === "REST") return expectFailure(tr, o, "NOT_FOUND", 404);
  expect(o.code).toBeUndefined();
  expect(o.data).toBeNull();
}

function ok<T>(o: Outcome<T>): T {
  expect({ code: o.code, message: o.message }).toEqual({ code: undefined, message: undefined });
  return o.data as T;
}

async function newPortfolio(k: string, body: Record<string, unknown> = {}): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set(auth(k)).send({ name: "Prices", ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A custom investment (exchange CUSTOM) in a new portfolio. */
async function newHolding(k: string, portfolioId?: number): Promise<{ holdingId: number; portfolioId: number }> {
  const p = portfolioId ?? (await newPortfolio(k));
  const res = await t.http.post(`/v1/portfolios/${p}/holdings`).set(auth(k)).send({ symbol: "HOUSE", name: "Beach house" });
  expect(res.status).toBe(201);
  return { holdingId: res.body.id, portfolioId: p };
}

async function count(table: string): Promise<number> {
  const [row] = await t.db.sql<{ n: unknown }>(`SELECT count(*) AS n FROM "${table}"`);
  return Number(row.n);
}

describe.each([rest, graphql])("prices over $name", (tr) => {
  describe("custom prices", () => {
    it("adds, lists oldest first, gets, updates and deletes prices", async () => {
      const { holdingId } = await newHolding(key);
      const o = await tr.addCustom(key, holdingId, { date: "2024-06-30", price: "512000.12345678" });
      const june = ok(o);
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res.body).sort()).toEqual(["date", "holdingId", "id", "price"]);
      }
      expect(june).toEqual({ id: expect.any(Number), holdingId, date: "2024-06-30", price: "512000.12345678" });
      const jan = ok(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 480000 }));
      expect(ok(await tr.listCustom(key, holdingId))).toEqual([jan, june]);
      expect(ok(await tr.getCustom(key, june.id))).toEqual(june);

      const repriced = ok(await tr.updateCustom(key, june.id, { price: "515000" }));
      expect(repriced).toEqual({ ...june, price: "515000" });
      const moved = ok(await tr.updateCustom(key, june.id, { date: "2024-07-01" }));
      expect(moved).toEqual({ ...repriced, date: "2024-07-01" });
      expect(ok(await tr.updateCustom(key, june.id, {}))).toEqual(moved);

      expect(ok(await tr.deleteCustom(key, jan.id))).toBe(true);
      expectAbsent(tr, await tr.getCustom(key, jan.id));
      expectFailure(tr, await tr.deleteCustom(key, jan.id), "NOT_FOUND", 404);
      expectFailure(tr, await tr.updateCustom(key, jan.id, { price: 1 }), "NOT_FOUND", 404);
      expect(ok(await tr.listCustom(key, holdingId))).toEqual([moved]);
    });

    it("keeps one price per holding per date (409), on add and on update", async () => {
      const { holdingId, portfolioId } = await newHolding(key);
      const a = ok(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 1 }));
      const b = ok(await tr.addCustom(key, holdingId, { date: "2024-02-29", price: 2 }));
      // Another holding may have a price on the same date.
      const other = await t.http.post(`/v1/portfolios/${portfolioId}/holdings`).set(auth(key)).send({ symbol: "ART", name: "Painting" });
      ok(await tr.addCustom(key, other.body.id, { date: "2024-01-31", price: 3 }));
      const before = await ledgerSnapshot(t.db);
      const dup = await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 9 });
      expectFailure(tr, dup, "CONFLICT", 409);
      expect(dup.message).toContain("2024-01-31");
      expectFailure(tr, await tr.updateCustom(key, b.id, { date: "2024-01-31" }), "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      // Updating a price to its own date is no conflict.
      expect(ok(await tr.updateCustom(key, a.id, { date: "2024-01-31", price: 4 }))).toEqual({ ...a, price: "4" });
    });

    it.each([
      ["a negative price", { date: "2024-01-02", price: -1 }, ["price"]],
      ["9 decimals", { date: "2024-01-02", price: "1.123456789" }, ["price"]],
      ["a price beyond DECIMAL(24,8)", { date: "2024-01-02", price: "10000000000000000" }, ["price"]],
      ["a bad date", { date: "2024-02-30", price: 1 }, ["date"]],
      ["both", { date: "31/01/2024", price: "abc" }, ["date", "price"]],
    ])("rejects %s, writing nothing", async (_label, input, paths) => {
      const { holdingId } = await newHolding(key);
      const p = ok(await tr.addCustom(key, holdingId, { date: "2024-01-01", price: 1 }));
      const before = await ledgerSnapshot(t.db);
      expectInvalid(tr, await tr.addCustom(key, holdingId, input), paths);
      expectInvalid(tr, await tr.updateCustom(key, p.id, input), paths);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for unknown holdings and prices, and rejects malformed ids", async () => {
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.listCustom(key, 999999), "NOT_FOUND", 404);
      expectFailure(tr, await tr.addCustom(key, 999999, { date: "2024-01-02", price: 1 }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.addCustomBulk(key, 999999, [{ date: "2024-01-02", price: 1 }]), "NOT_FOUND", 404);
      expectAbsent(tr, await tr.getCustom(key, 999999));
      expectInvalid(tr, await tr.listCustom(key, "abc"), ["holdingId"]);
      expectInvalid(tr, await tr.getCustom(key, "0"), ["priceId"]);
      expectInvalid(tr, await tr.deleteCustom(key, "1.5"), ["priceId"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("custom prices in bulk", () => {
    it("adds every row and answers them oldest first", async () => {
      const { holdingId } = await newHolding(key);
      const existing = ok(await tr.addCustom(key, holdingId, { date: "2023-12-31", price: 90 }));
      const o = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-03-31", price: "103.5" },
        { date: "2024-01-31", price: 101 },
        { date: "2024-02-29", price: "102.25" },
      ]);
      if (tr.name === "REST") expect(o.status).toBe(201);
      const added = ok(o);
      expect(added.map((p) => [p.date, p.price])).toEqual([
        ["2024-01-31", "101"],
        ["2024-02-29", "102.25"],
        ["2024-03-31", "103.5"],
      ]);
      expect(added.every((p) => p.holdingId === holdingId && Number.isInteger(p.id))).toBe(true);
      expect(ok(await tr.listCustom(key, holdingId))).toEqual([existing, ...added]);
    });

    it("refuses dates repeated in the body or already priced (409 naming them), writing nothing", async () => {
      const { holdingId } = await newHolding(key);
      ok(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 1 }));
      const before = await ledgerSnapshot(t.db);
      const repeated = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-02-29", price: 1 },
        { date: "2024-03-31", price: 2 },
        { date: "2024-02-29", price: 3 },
      ]);
      expectFailure(tr, repeated, "CONFLICT", 409);
      expect(repeated.message).toContain("2024-02-29");
      expect(repeated.message).not.toContain("2024-03-31");
      const taken = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-04-30", price: 1 },
        { date: "2024-01-31", price: 2 },
      ]);
      expectFailure(tr, taken, "CONFLICT", 409);
      expect(taken.message).toContain("2024-01-31");
      expect(taken.message).not.toContain("2024-04-30");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("refuses bad rows (400 naming each), writing none of the good ones", async () => {
      const { holdingId } = await newHolding(key);
      const before = await ledgerSnapshot(t.db);
      const o = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-01-31", price: 1 },
        { date: "2024-02-29", price: -1 },
        { date: "2024-02-30", price: 1 },
        { date: "2024-04-30", price: "1.123456789" },
      ]);
      expectInvalid(tr, o, ["[1].price", "[2].date", "[3].price"]);
      expectInvalid(tr, await tr.addCustomBulk(key, holdingId, []), ["(body)"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("takes up to 10,000 rows at once, not 10,001", async () => {
      const { holdingId } = await newHolding(key);
      const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ date: new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10), price: i + 1 }));
      expectInvalid(tr, await tr.addCustomBulk(key, holdingId, rows(10_001)), ["(body)"]);
      expect(await count("custom_price")).toBe(0);
      expect(ok(await tr.addCustomBulk(key, holdingId, rows(10_000)))).toHaveLength(10_000);
      expect(await count("custom_price")).toBe(10_000);
    });
  });

  describe("market prices", () => {
    it("upserts per symbol, exchange and date, upper-casing codes, and lists one security oldest first", async () => {
      const o = await tr.upsertMarket(key, [
        { symbol: "cba", exchange: "asx", date: "2024-01-03", close: "101.5" },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 },
        { symbol: "BHP", exchange: "ASX", date: "2024-01-02", close: "45.12345678" },
      ]);
      expect(ok(o)).toBe(3);
      if (tr.name === "REST") expect(o.res.body).toEqual({ upserted: 3 });
      expect(ok(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX" }))).toEqual([
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: "100" },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: "101.5" },
      ]);
      // Replaces the close of an existing day and adds a new one.
      expect(ok(await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: "99" }, { symbol: "CBA", exchange: "ASX", date: "2024-01-04", close: 98 }]))).toBe(2);
      expect(ok(await tr.listMarket(key, { symbol: "cba", exchange: "asx", from: "2024-01-03" }))).toEqual([
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: "99" },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-04", close: "98" },
      ]);
      expect(ok(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX", from: "2024-01-02", to: "2024-01-02" }))).toHaveLength(1);
      expect(ok(await tr.listMarket(key, { symbol: "BHP", exchange: "ASX" }))).toEqual([{ symbol: "BHP", exchange: "ASX", date: "2024-01-02", close: "45.12345678" }]);
      expect(ok(await tr.listMarket(key, { symbol: "WBC", exchange: "ASX" }))).toEqual([]);
      expect(await count("market_price")).toBe(4);
    });

    it("refuses bad rows (400 naming [i].field), writing none", async () => {
      await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 }]);
      const before = await ledgerSnapshot(t.db);
      const o = await tr.upsertMarket(key, [
        { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 200 },
        { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: -1 },
        { symbol: "C B A", exchange: "ASX", date: "2024-01-04", close: 1 },
        { symbol: "CBA", exchange: "ASX", date: "2024-02-30", close: "1.123456789" },
      ]);
      expectInvalid(tr, o, ["[1].close", "[2].symbol", "[3].date", "[3].close"]);
      expectInvalid(tr, await tr.upsertMarket(key, []), ["(body)"]);
      // The same day twice: which close should win is unclear.
      expectInvalid(tr, await tr.upsertMarket(key, [
        { symbol: "CBA", exchange: "ASX", date: "2024-01-05", close: 1 },
        { symbol: "cba", exchange: "ASX", date: "2024-01-05", close: 2 },
      ]), ["[1].date"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("needs symbol and exchange to list, and a range in order", async () => {
      if (tr.name === "REST") {
        expectInvalid(tr, await tr.listMarket(key, { symbol: "CBA" }), ["exchange"]);
        expectInvalid(tr, await tr.listMarket(key, {}), ["symbol", "exchange"]);
      }
      expectInvalid(tr, await tr.listMarket(key, { symbol: "CBA", exchange: "ASX", from: "2024-02-01", to: "2024-01-01" }), ["to"]);
      expectInvalid(tr, await tr.listMarket(key, { symbol: "CBA", exchange: "ASX", from: "2024-13-01" }), ["from"]);
    });
  });

  describe("exchange rates", () => {
    it("upserts per base, quote and date and lists one pair oldest first", async () => {
      expect(ok(await tr.upsertFx(key, [
        { base: "USD", quote: "AUD", date: "2024-01-03", rate: "1.4712345678" },
        { base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 },
        { base: "AUD", quote: "USD", date: "2024-01-02", rate: "0.6666666667" },
      ]))).toBe(3);
      expect(ok(await tr.listFx(key, { base: "USD", quote: "AUD" }))).toEqual([
        { base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.5" },
        { base: "USD", quote: "AUD", date: "2024-01-03", rate: "1.4712345678" },
      ]);
      expect(ok(await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.49" }]))).toBe(1);
      expect(ok(await tr.listFx(key, { base: "USD", quote: "AUD", to: "2024-01-02" }))).toEqual([{ base: "USD", quote: "AUD", date: "2024-01-02", rate: "1.49" }]);
      expect(ok(await tr.listFx(key, { base: "AUD", quote: "USD" }))).toEqual([{ base: "AUD", quote: "USD", date: "2024-01-02", rate: "0.6666666667" }]);
    });

    it("refuses bad rows (400 naming [i].field), writing none", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.upsertFx(key, [
        { base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 },
        { base: "USD", quote: "USD", date: "2024-01-02", rate: 1 },
        { base: "US", quote: "AUD", date: "2024-01-02", rate: 1 },
        { base: "USD", quote: "XYZ", date: "2024-01-02", rate: 0 },
        { base: "EUR", quote: "AUD", date: "2024-01-02", rate: "1.12345678901" },
      ]);
      expectInvalid(tr, o, ["[1].quote", "[2].base", "[3].quote", "[3].rate", "[4].rate"]);
      expectInvalid(tr, await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1 }, { base: "USD", quote: "AUD", date: "2024-01-02", rate: 2 }]), ["[1].date"]);
      expectInvalid(tr, await tr.listFx(key, { base: "AUD", quote: "aud" }), ["quote"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("means one base buys rate of quote: a USD trade of an AUD portfolio reads USD→AUD, or the inverse of AUD→USD", async () => {
      const portfolioId = await newPortfolio(key);
      ok(await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-02-01", rate: "1.5" }]));
      const trade = (date: string) =>
        t.http.post("/v1/trades").set(auth(key)).send({ portfolioId, symbol: "AAPL", exchange: "NASDAQ", tradeType: "Buy", tradeDate: date, quantity: 1, price: 100, brokerage: 0 });
      const direct = await trade("2024-02-01");
      expect(direct.status).toBe(201);
      expect(direct.body.exchangeRate).toBe(1.5);

      const other = await t.newAccount();
      const otherPortfolio = await newPortfolio(other);
      ok(await tr.upsertFx(other, [{ base: "AUD", quote: "USD", date: "2024-02-01", rate: "0.625" }]));
      const inverse = await t.http
        .post("/v1/trades")
        .set(auth(other))
        .send({ portfolioId: otherPortfolio, symbol: "AAPL", exchange: "NASDAQ", tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 100, brokerage: 0 });
      expect(inverse.status).toBe(201);
      expect(inverse.body.exchangeRate).toBe(1.6);
    });
  });

  describe("tenant isolation", () => {
    it("keeps each account's prices and rates to itself and hides its custom prices like missing ones", async () => {
      const other = await t.newAccount();
      const { holdingId } = await newHolding(other);
      const theirs = ok(await tr.addCustom(other, holdingId, { date: "2024-01-31", price: 5 }));
      ok(await tr.upsertMarket(other, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 }]));
      ok(await tr.upsertFx(other, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 }]));
      const before = await ledgerSnapshot(t.db);

      expect(ok(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX" }))).toEqual([]);
      expect(ok(await tr.listFx(key, { base: "USD", quote: "AUD" }))).toEqual([]);
      expectFailure(tr, await tr.listCustom(key, holdingId), "NOT_FOUND", 404);
      expectAbsent(tr, await tr.getCustom(key, theirs.id));
      expectFailure(tr, await tr.addCustom(key, holdingId, { date: "2024-02-29", price: 1 }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.addCustomBulk(key, holdingId, [{ date: "2024-02-29", price: 1 }]), "NOT_FOUND", 404);
      expectFailure(tr, await tr.updateCustom(key, theirs.id, { price: 1 }), "NOT_FOUND", 404);
      expectFailure(tr, await tr.deleteCustom(key, theirs.id), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);

      // The same key in my account is a row of my own; theirs keeps its close.
      ok(await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 200 }]));
      expect(ok(await tr.listMarket(other, { symbol: "CBA", exchange: "ASX" }))[0].close).toBe("100");
      expect(ok(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX" }))[0].close).toBe("200");
    });
  });

  describe("client keys", () => {
    it("a Read key reads its holdings' prices and the account's prices and rates, and writes nothing (403)", async () => {
      const { holdingId, portfolioId } = await newHolding(key);
      const hidden = await newHolding(key);
      const p = ok(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 5 }));
      const hiddenPrice = ok(await tr.addCustom(key, hidden.holdingId, { date: "2024-01-31", price: 6 }));
      ok(await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 }]));
      ok(await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 }]));
      const reader = await t.newClientKey(key, "Read", [portfolioId]);
      const before = await ledgerSnapshot(t.db);

      expect(ok(await tr.listCustom(reader, holdingId))).toEqual([p]);
      expect(ok(await tr.getCustom(reader, p.id))).toEqual(p);
      expectAbsent(tr, await tr.getCustom(reader, hiddenPrice.id));
      expectFailure(tr, await tr.listCustom(reader, hidden.holdingId), "NOT_FOUND", 404);
      expect(ok(await tr.listMarket(reader, { symbol: "CBA", exchange: "ASX" }))).toHaveLength(1);
      expect(ok(await tr.listFx(reader, { base: "USD", quote: "AUD" }))).toHaveLength(1);

      expectFailure(tr, await tr.addCustom(reader, holdingId, { date: "2024-02-29", price: 1 }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.addCustomBulk(reader, holdingId, [{ date: "2024-02-29", price: 1 }]), "FORBIDDEN", 403);
      expectFailure(tr, await tr.updateCustom(reader, p.id, { price: 1 }), "FORBIDDEN", 403);
      expectFailure(tr, await tr.deleteCustom(reader, p.id), "FORBIDDEN", 403);
      expectFailure(tr, await tr.upsertMarket(reader, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 1 }]), "FORBIDDEN", 403);
      expectFailure(tr, await tr.upsertFx(reader, [{ base: "USD", quote: "AUD", date: "2024-01-03", rate: 1 }]), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a ReadWrite key changes its holdings' custom prices, but never the account's market prices or rates (403)", async () => {
      const { holdingId, portfolioId } = await newHolding(key);
      const writer = await t.newClientKey(key, "ReadWrite", [portfolioId]);
      const p = ok(await tr.addCustom(writer, holdingId, { date: "2024-01-31", price: 5 }));
      expect(ok(await tr.addCustomBulk(writer, holdingId, [{ date: "2024-02-29", price: 6 }]))).toHaveLength(1);
      expect(ok(await tr.updateCustom(writer, p.id, { price: 7 })).price).toBe("7");
      expect(ok(await tr.deleteCustom(writer, p.id))).toBe(true);
      const before = await ledgerSnapshot(t.db);
      expectFailure(tr, await tr.upsertMarket(writer, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 1 }]), "FORBIDDEN", 403);
      expectFailure(tr, await tr.upsertFx(writer, [{ base: "USD", quote: "AUD", date: "2024-01-03", rate: 1 }]), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });
});

describe("text/csv bodies (REST)", () => {
  const csv = (path: string, body: string, k = key) => t.http.post(path).set(auth(k)).set("content-type", "text/csv").send(body);

  it("imports market prices from CSV: header in any case and order, blank lines and CRLF allowed", async () => {
    const res = await csv("/v1/market-prices/bulk", "Date,Symbol,Exchange,Close\r\n2024-01-02,cba,asx,100\r\n\r\n2024-01-03, CBA , ASX ,101.25\r\n2024-01-02,BHP,ASX,45\r\n");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ upserted: 3 });
    const list = await t.http.get("/v1/market-prices?symbol=CBA&exchange=ASX").set(auth(key));
    expect(list.body).toEqual([
      { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 },
      { symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 101.25 },
    ]);
  });

  it("names bad rows by line, the header being line 1 and blank lines counted, writing none", async () => {
    const before = await ledgerSnapshot(t.db);
    const res = await csv("/v1/market-prices/bulk", "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\n\nCBA,ASX,2024-01-03,abc\nCBA,ASX,2024-02-30,-1\n");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors.map((e: FieldError) => e.path)).toEqual(["line 4.close", "line 5.date", "line 5.close"]);
    const repeated = await csv("/v1/market-prices/bulk", "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\nCBA,ASX,2024-01-02,101\n");
    expect(repeated.body.errors).toEqual([{ path: "line 3.date", message: expect.stringContaining("line 2") }]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it.each([
    ["a wrong header", "symbol,exchange,day,close\nCBA,ASX,2024-01-02,100\n", "line 1"],
    ["a missing column", "symbol,exchange,date\nCBA,ASX,2024-01-02\n", "line 1"],
    ["a repeated column", "symbol,exchange,date,close,close\nCBA,ASX,2024-01-02,1,2\n", "line 1"],
    ["an empty body", "", "line 1"],
    ["a short row", "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\nCBA,ASX,2024-01-03\n", "line 3"],
    ["an unclosed quote", 'symbol,exchange,date,close\nCBA,"ASX,2024-01-02,100\n', "line 2"],
    ["only a header", "symbol,exchange,date,close\n", "(body)"],
  ])("refuses %s with 400, writing nothing", async (_label, body, path) => {
    const before = await ledgerSnapshot(t.db);
    const res = await csv("/v1/market-prices/bulk", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("imports exchange rates from CSV and names bad rows by line", async () => {
    const res = await csv("/v1/fx-rates/bulk", "base,quote,date,rate\nUSD,AUD,2024-01-02,1.5\nAUD,USD,2024-01-02,0.6666666667\n");
    expect(res.body).toEqual({ upserted: 2 });
    const list = await t.http.get("/v1/fx-rates?base=USD&quote=AUD").set(auth(key));
    expect(list.body).toEqual([{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 }]);
    const before = await ledgerSnapshot(t.db);
    const bad = await csv("/v1/fx-rates/bulk", "base,quote,date,rate\nUSD,AUD,2024-01-03,1.5\nUSD,USD,2024-01-03,1\nEUR,AUD,2024-01-03,0\n");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: FieldError) => e.path)).toEqual(["line 3.quote", "line 4.rate"]);
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("adds custom prices from CSV (header date,price)", async () => {
    const { holdingId } = await newHolding(key);
    const res = await csv(`/v1/holdings/${holdingId}/prices/bulk`, "date,price\n2024-02-29,2\n2024-01-31,1\n");
    expect(res.status).toBe(201);
    expect(res.body.map((p: CustomPrice) => [p.date, p.price])).toEqual([
      ["2024-01-31", 1],
      ["2024-02-29", 2],
    ]);
    const bad = await csv(`/v1/holdings/${holdingId}/prices/bulk`, "date,price\n2024-03-31,x\n");
    expect(bad.body.errors).toEqual([{ path: "line 2.price", message: expect.any(String) }]);
  });

  it("refuses a client key before reading the body", async () => {
    const portfolioId = await newPortfolio(key);
    const writer = await t.newClientKey(key, "ReadWrite", [portfolioId]);
    const res = await csv("/v1/market-prices/bulk", "symbol,exchange,date,close\nCBA,ASX,2024-01-02,100\n", writer);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    expect(await count("market_price")).toBe(0);
  });

  it("writes set-based: 2,000 rows cost the same statements as 1", async () => {
    const rows = (n: number, close: number) =>
      "symbol,exchange,date,close\n" + Array.from({ length: n }, (_, i) => `S${i % 50},ASX,${new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 50))).toISOString().slice(0, 10)},${close}`).join("\n");
    const statements = async (body: string) => {
      const before = t.db.statementCount;
      const res = await csv("/v1/market-prices/bulk", body);
      expect(res.status).toBe(200);
      return t.db.statementCount - before;
    };
    const one = await statements(rows(1, 1));
    const many = await statements(rows(2000, 2));
    expect(many).toBe(one);
    // Upserting them again replaces every row in the same one statement.
    expect(await statements(rows(2000, 3))).toBe(one);
    expect(await count("market_price")).toBe(2000);
    const [{ n }] = await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM market_price WHERE close = 3");
    expect(Number(n)).toBe(2000);
  });

  it("takes 50,000 rows at once, all or nothing, and refuses 50,001", async () => {
    const body = (n: number, last = "1") =>
      "symbol,exchange,date,close\n" + Array.from({ length: n }, (_, i) => `S${i % 100},ASX,${new Date(Date.UTC(2000, 0, 1 + Math.floor(i / 100))).toISOString().slice(0, 10)},${i === n - 1 ? last : "1.5"}`).join("\n");
    const bad = await csv("/v1/market-prices/bulk", body(50_000, "-1"));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: "line 50001.close", message: expect.any(String) }]);
    expect(await count("market_price")).toBe(0);
    const tooMany = await csv("/v1/market-prices/bulk", body(50_001));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ path: "(body)", message: expect.stringContaining("50000") }]);
    const res = await csv("/v1/market-prices/bulk", body(50_000));
    expect(res.body).toEqual({ upserted: 50_000 });
    expect(await count("market_price")).toBe(50_000);
  });
});
