import type { Response } from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * Income (API.md §2 Income (StocksIncome), ProRataDistributions; DOMAIN.md §1 income rules, §2
 * pro-rata): every rule runs over REST (/v1) and over GraphQL (createIncome, income(id),
 * updateIncome, confirmIncome, deleteIncome, updateProRataDistributions, holding { income }) on
 * the same scenarios, through the `Transport` adapters below, which normalise a record (decimals as
 * their exact digits, ids as numbers, components as name → amount) so both can be compared.
 * Setup (portfolios, trades, holdings' positions) goes through REST.
 */

let t: TestApp;
let key: string;
let portfolioId: number;
/** CBA.ASX: 100 units bought at 100 on 2024-01-10 (cost base 10,000). */
let holdingId: number;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
  portfolioId = await newPortfolio(key);
  holdingId = (await trade(key, { portfolioId, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 100, price: 100 })).holdingId;
});

// ---------------------------------------------------------------------------------------------
// An income record as both transports show it.
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
type TransportName = "REST" | "GraphQL";

interface Income {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  exDividendDate: string;
  paidDate: string;
  frankedAmount: string;
  unfrankedAmount: string;
  frankingCredits: string;
  foreignIncome: string;
  foreignTaxPaid: string;
  withholdingTax: string;
  grossAmount: string;
  netAmount: string;
  currencyCode: string;
  exchangeRate: string;
  isTrustIncome: boolean;
  isReinvested: boolean;
  drpQuantity: string | null;
  drpPrice: string | null;
  components: Record<string, string> | null;
  notes: string;
  isConfirmed: boolean;
}

const DECIMALS = ["frankedAmount", "unfrankedAmount", "frankingCredits", "foreignIncome", "foreignTaxPaid", "withholdingTax", "grossAmount", "netAmount", "exchangeRate"] as const;
const INCOME_KEYS = [
  "components", "currencyCode", "drpPrice", "drpQuantity", "exDividendDate", "exchange", "exchangeRate", "foreignIncome", "foreignTaxPaid", "frankedAmount",
  "frankingCredits", "grossAmount", "holdingId", "id", "isConfirmed", "isReinvested", "isTrustIncome", "netAmount", "notes", "paidDate", "portfolioId", "symbol",
  "unfrankedAmount", "withholdingTax",
];

/** REST decimals must be JSON numbers, GraphQL ones strings; anything else becomes a marker that equals nothing. */
const restDecimal = (v: unknown) => (typeof v === "number" ? String(v) : `<REST decimal must be a JSON number, got ${JSON.stringify(v)}>`);
const gqlDecimal = (v: unknown) => (typeof v === "string" ? v : `<GraphQL Decimal must be a string, got ${JSON.stringify(v)}>`);
const restId = (v: unknown) => (Number.isInteger(v) ? (v as number) : (`<REST id must be an integer, got ${JSON.stringify(v)}>` as never));
const gqlId = (v: unknown) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : (`<GraphQL id must be a digit string, got ${JSON.stringify(v)}>` as never));

function toIncome(raw: Json, transport: TransportName): Income {
  const decimal = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  const nullable = (v: unknown) => (v === null ? null : decimal(v));
  let components: Record<string, string> | null = null;
  if (raw.components !== null) {
    components = Object.fromEntries(Object.entries(raw.components as Json).map(([k, v]) => [k, decimal(v)]));
  }
  const out = {
    id: id(raw.id),
    holdingId: id(raw.holdingId),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol,
    exchange: raw.exchange,
    exDividendDate: raw.exDividendDate,
    paidDate: raw.paidDate,
    currencyCode: raw.currencyCode,
    isTrustIncome: raw.isTrustIncome,
    isReinvested: raw.isReinvested,
    drpQuantity: nullable(raw.drpQuantity),
    drpPrice: nullable(raw.drpPrice),
    components,
    notes: raw.notes,
    isConfirmed: raw.isConfirmed,
  } as Json;
  for (const f of DECIMALS) out[f] = decimal(raw[f]);
  return out as unknown as Income;
}

interface FieldError {
  path: string;
  message: string;
}

type Outcome<T> =
  | { ok: true; transport: TransportName; status: number; value: T; raw: string }
  | { ok: false; transport: TransportName; status: number; code: string; errors?: FieldError[]; raw: string };

interface Transport {
  name: TransportName;
  create(key: string, input: Json): Promise<Outcome<Income>>;
  /** REST GET /v1/income/{i} (404 when absent); GraphQL income(id) (null when absent). */
  get(key: string, id: number): Promise<Outcome<Income | null>>;
  update(key: string, id: number, input: Json): Promise<Outcome<Income>>;
  confirm(key: string, id: number): Promise<Outcome<Income>>;
  remove(key: string, id: number): Promise<Outcome<boolean>>;
  /** REST GET /v1/holdings/{h}/income (404 when absent); GraphQL holding(id) { income } (null when absent). */
  list(key: string, holdingId: number): Promise<Outcome<Income[] | null>>;
  proRata(key: string, holdingId: number, financialYear: number, components: Json): Promise<Outcome<Income[]>>;
}

// REST ------------------------------------------------------------------------------------------

async function restCall<T>(req: PromiseLike<Response>, success: number, map: (body: unknown) => T): Promise<Outcome<T>> {
  const res = await req;
  if (res.status >= 400) {
    // Every REST error is RFC 9457 problem+json (API.md §1 errors).
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    return { ok: false, transport: "REST", status: res.status, code: res.body.code, errors: res.body.errors, raw: res.text };
  }
  expect(res.status).toBe(success);
  if (success === 204) {
    expect(res.text ?? "").toBe("");
    return { ok: true, transport: "REST", status: res.status, value: map(undefined), raw: "" };
  }
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  return { ok: true, transport: "REST", status: res.status, value: map(JSON.parse(res.text)), raw: res.text };
}

const restIncome = (b: unknown) => {
  expect(Object.keys(b as Json).sort()).toEqual(INCOME_KEYS);
  return toIncome(b as Json, "REST");
};

const rest: Transport = {
  name: "REST",
  create: (k, input) => restCall(t.http.post("/v1/income").set("authorization", k).send(input), 201, restIncome),
  get: (k, id) => restCall(t.http.get(`/v1/income/${id}`).set("authorization", k), 200, restIncome),
  update: (k, id, input) => restCall(t.http.put(`/v1/income/${id}`).set("authorization", k).send(input), 200, restIncome),
  confirm: (k, id) => restCall(t.http.put(`/v1/income/${id}/confirm`).set("authorization", k), 200, restIncome),
  remove: (k, id) => restCall(t.http.delete(`/v1/income/${id}`).set("authorization", k), 204, () => true),
  list: (k, h) => restCall(t.http.get(`/v1/holdings/${h}/income`).set("authorization", k), 200, (b) => (b as Json[]).map(restIncome)),
  proRata: (k, h, financialYear, components) =>
    restCall(t.http.put(`/v1/holdings/${h}/pro-rata-distributions`).set("authorization", k).send({ financialYear, components }), 200, (b) => (b as Json[]).map(restIncome)),
};

// GraphQL ---------------------------------------------------------------------------------------

const INCOME_FIELDS = `fragment I on Income {
  id holdingId portfolioId symbol exchange exDividendDate paidDate
  frankedAmount unfrankedAmount frankingCredits foreignIncome foreignTaxPaid withholdingTax grossAmount netAmount
  currencyCode exchangeRate isTrustIncome isReinvested drpQuantity drpPrice components notes isConfirmed
}`;

const Q = {
  create: `mutation($input: IncomeInput!) { createIncome(input: $input) { ...I } } ${INCOME_FIELDS}`,
  get: `query($id: ID!) { income(id: $id) { ...I } } ${INCOME_FIELDS}`,
  update: `mutation($id: ID!, $input: IncomeInput!) { updateIncome(id: $id, input: $input) { ...I } } ${INCOME_FIELDS}`,
  confirm: `mutation($id: ID!) { confirmIncome(id: $id) { ...I } } ${INCOME_FIELDS}`,
  remove: `mutation($id: ID!) { deleteIncome(id: $id) }`,
  list: `query($id: ID!) { holding(id: $id) { id income { ...I } } } ${INCOME_FIELDS}`,
  proRata: `mutation($h: ID!, $fy: Int!, $c: IncomeComponents!) { updateProRataDistributions(holdingId: $h, financialYear: $fy, components: $c) { ...I } } ${INCOME_FIELDS}`,
};

/** The REST body as an IncomeInput: ids as strings; components are the same JSON object. */
function gqlInput(input: Json): Json {
  const out: Json = { ...input };
  if (typeof out.holdingId === "number") out.holdingId = String(out.holdingId);
  return out;
}

async function gqlCall<T>(k: string, query: string, variables: Json, field: string, map: (data: unknown) => T): Promise<Outcome<T>> {
  const res = await t.gql(k, query, variables);
  expect(res.headers["content-type"]).toMatch(/^application\/(graphql-response\+)?json/);
  const errors = res.body.errors as { extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    expect(errors).toHaveLength(1);
    expect(res.body.data?.[field] ?? null).toBeNull();
    return { ok: false, transport: "GraphQL", status: res.status, code: errors[0].extensions?.code ?? "<no code>", errors: errors[0].extensions?.errors, raw: res.text };
  }
  expect(res.status).toBe(200);
  return { ok: true, transport: "GraphQL", status: res.status, value: map(res.body.data[field]), raw: res.text };
}

const gqlIncome = (d: unknown) => toIncome(d as Json, "GraphQL");

const graphql: Transport = {
  name: "GraphQL",
  create: (k, input) => gqlCall(k, Q.create, { input: gqlInput(input) }, "createIncome", gqlIncome),
  get: (k, id) => gqlCall(k, Q.get, { id: String(id) }, "income", (d) => (d === null ? null : gqlIncome(d))),
  update: (k, id, input) => gqlCall(k, Q.update, { id: String(id), input: gqlInput(input) }, "updateIncome", gqlIncome),
  confirm: (k, id) => gqlCall(k, Q.confirm, { id: String(id) }, "confirmIncome", gqlIncome),
  remove: (k, id) => gqlCall(k, Q.remove, { id: String(id) }, "deleteIncome", (d) => d as boolean),
  list: (k, h) => gqlCall(k, Q.list, { id: String(h) }, "holding", (d) => (d === null ? null : ((d as { income: Json[] }).income.map(gqlIncome)))),
  proRata: (k, h, fy, c) => gqlCall(k, Q.proRata, { h: String(h), fy, c }, "updateProRataDistributions", (d) => (d as Json[]).map(gqlIncome)),
};

const TRANSPORTS: Transport[] = [rest, graphql];

// Assertions ------------------------------------------------------------------------------------

function expectOk<T>(o: Outcome<T>, status?: number): T {
  if (!o.ok) throw new Error(`expected success over ${o.transport}, got ${o.status} ${o.code}: ${o.raw}`);
  if (status !== undefined && o.transport === "REST") expect(o.status).toBe(status);
  return o.value;
}

const HTTP_STATUS: Record<string, number> = { VALIDATION_FAILED: 400, FORBIDDEN: 403, NOT_FOUND: 404, BUSINESS_RULE: 422 };

/** A failure with this code; over REST also its HTTP status (problem+json checked in restCall). */
function expectError(o: Outcome<unknown>, code: "VALIDATION_FAILED" | "FORBIDDEN" | "NOT_FOUND" | "BUSINESS_RULE"): void {
  if (o.ok) throw new Error(`expected ${code} over ${o.transport}, got success: ${o.raw}`);
  expect(o.code).toBe(code);
  if (o.transport === "REST") expect(o.status).toBe(HTTP_STATUS[code]);
}

/** VALIDATION_FAILED whose `errors` name exactly these paths. */
function expectInvalid(o: Outcome<unknown>, paths: string[]): void {
  expectError(o, "VALIDATION_FAILED");
  if (o.ok) return;
  expect(Array.isArray(o.errors)).toBe(true);
  for (const e of o.errors!) expect(e).toEqual({ path: expect.any(String), message: expect.any(String) });
  expect([...new Set(o.errors!.map((e) => e.path))].sort()).toEqual([...paths].sort());
}

/** A read that finds nothing: REST 404 NOT_FOUND, GraphQL null without an error. */
function expectAbsent(o: Outcome<unknown>): void {
  if (o.transport === "REST") expectError(o, "NOT_FOUND");
  else expect(expectOk(o)).toBeNull();
}

/** Runs `act` and proves that it wrote nothing at all. */
async function writesNothing(act: () => Promise<void>): Promise<void> {
  const before = await ledgerSnapshot(t.db);
  await act();
  expect(await ledgerSnapshot(t.db)).toBe(before);
}

// Setup (REST) ----------------------------------------------------------------------------------

async function newPortfolio(k: string, body: Json = {}): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set("authorization", k).send({ name: "Portfolio", ...body });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function trade(k: string, body: Json): Promise<{ id: number; holdingId: number }> {
  const res = await t.http.post("/v1/trades").set("authorization", k).send(body);
  if (res.status !== 201) throw new Error(`trade failed: ${res.status} ${res.text}`);
  return res.body;
}

/** The holding's position as GET /v1/holdings/{h} answers it. */
async function position(k: string, h: number): Promise<{ quantity: string; costBase: string }> {
  const res = await t.http.get(`/v1/holdings/${h}`).set("authorization", k);
  expect(res.status).toBe(200);
  return { quantity: restDecimal(res.body.quantity), costBase: restDecimal(res.body.costBase) };
}

/** An income record created over REST (not the transport under test). */
async function seedIncome(k: string, input: Json): Promise<Income> {
  return expectOk(await rest.create(k, input), 201);
}

async function accountIdOf(p: number): Promise<number> {
  const [row] = await t.db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [p]);
  return Number(row.account_id);
}

const dividend = (extra: Json = {}): Json => ({ holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-28", ...extra });

// =============================================================================================

describe.each(TRANSPORTS)("income over $name", (tr) => {
  describe("create", () => {
    it("answers 201 with an unconfirmed record: gross = franked + unfranked + foreign, net = gross − withholding − foreign tax paid, 700 franked → 300 credit", async () => {
      const created = expectOk(
        await tr.create(key, dividend({ frankedAmount: 700, unfrankedAmount: "50.5", foreignIncome: 25, foreignTaxPaid: "3.75", withholdingTax: 100, notes: "Interim dividend" })),
        201,
      );
      expect(created).toEqual({
        id: expect.any(Number),
        holdingId,
        portfolioId,
        symbol: "CBA",
        exchange: "ASX",
        exDividendDate: "2024-02-14",
        paidDate: "2024-03-28",
        frankedAmount: "700",
        unfrankedAmount: "50.5",
        frankingCredits: "300",
        foreignIncome: "25",
        foreignTaxPaid: "3.75",
        withholdingTax: "100",
        grossAmount: "775.5",
        // DOMAIN.md §1: 775.5 − 100 withholding − 3.75 foreign tax paid.
        netAmount: "671.75",
        currencyCode: "AUD",
        exchangeRate: "1",
        isTrustIncome: false,
        isReinvested: false,
        drpQuantity: null,
        drpPrice: null,
        components: null,
        notes: "Interim dividend",
        isConfirmed: false,
      });
      // What was answered is what was stored.
      expect(expectOk(await rest.get(key, created.id))).toEqual(created);
      // A plain dividend is no parcel: the position is unchanged.
      expect(await position(key, holdingId)).toEqual({ quantity: "100", costBase: "10000" });
    });

    it("keeps a franking credit that is given, even one that differs from the computed one", async () => {
      expect(expectOk(await tr.create(key, dividend({ frankedAmount: 700, frankingCredits: "299.99" }))).frankingCredits).toBe("299.99");
      expect(expectOk(await tr.create(key, dividend({ frankedAmount: 700, frankingCredits: 0 }))).frankingCredits).toBe("0");
    });

    it("computes the credit at companyTaxRate 0.25: 750 franked → 250; nothing franked → no credit", async () => {
      const r = expectOk(await tr.create(key, dividend({ frankedAmount: 750, companyTaxRate: "0.25" })));
      expect(r).toMatchObject({ frankedAmount: "750", frankingCredits: "250", grossAmount: "750", netAmount: "750" });
      expect(expectOk(await tr.create(key, dividend({ unfrankedAmount: 40 }))).frankingCredits).toBe("0");
    });

    it("a netAmount alone is the unfranked amount; with withholding tax, unfranked = net + withholding", async () => {
      expect(expectOk(await tr.create(key, dividend({ netAmount: "55.5" })))).toMatchObject({
        frankedAmount: "0",
        unfrankedAmount: "55.5",
        frankingCredits: "0",
        withholdingTax: "0",
        grossAmount: "55.5",
        netAmount: "55.5",
      });
      expect(expectOk(await tr.create(key, dividend({ netAmount: "55.5", withholdingTax: "4.5" })))).toMatchObject({
        unfrankedAmount: "60",
        withholdingTax: "4.5",
        grossAmount: "60",
        netAmount: "55.5",
      });
    });

    it("accepts a netAmount that agrees with the amounts", async () => {
      const r = expectOk(await tr.create(key, dividend({ frankedAmount: 700, unfrankedAmount: 300, withholdingTax: 100, netAmount: 900 })));
      expect(r).toMatchObject({ grossAmount: "1000", netAmount: "900", frankingCredits: "300" });
    });

    const BAD: [string, Json, string][] = [
      ["a netAmount inconsistent with the amounts (700 franked, net 1000)", { frankedAmount: 700, netAmount: 1000 }, "netAmount"],
      ["a netAmount that ignores the withholding tax", { unfrankedAmount: 100, withholdingTax: 10, netAmount: 100 }, "netAmount"],
      ["withholding tax above the gross amount", { unfrankedAmount: 100, withholdingTax: "100.01" }, "withholdingTax"],
      ["a paidDate before the exDividendDate", { exDividendDate: "2024-03-01", paidDate: "2024-02-29", unfrankedAmount: 10 }, "paidDate"],
      ["isReinvested without drpQuantity", { unfrankedAmount: 10, isReinvested: true }, "drpQuantity"],
      ["isReinvested with a drpPrice but no drpQuantity", { unfrankedAmount: 10, isReinvested: true, drpPrice: 2 }, "drpQuantity"],
      ["isReinvested with drpQuantity 0 (no units to allot, no price to derive)", { unfrankedAmount: 10, isReinvested: true, drpQuantity: 0 }, "drpQuantity"],
      ["drpQuantity without isReinvested", { unfrankedAmount: 10, drpQuantity: 5 }, "isReinvested"],
      ["drpQuantity and drpPrice with isReinvested false", { unfrankedAmount: 10, isReinvested: false, drpQuantity: 5, drpPrice: 2 }, "isReinvested"],
      ["no amount at all", {}, "netAmount"],
      ["a negative franked amount", { frankedAmount: -1 }, "frankedAmount"],
      ["an amount with 5 decimals", { unfrankedAmount: "10.12345" }, "unfrankedAmount"],
      ["a company tax rate above 50%", { frankedAmount: 700, companyTaxRate: "0.6" }, "companyTaxRate"],
      ["an exchange rate other than 1 on income in the base currency", { unfrankedAmount: 10, exchangeRate: "1.5" }, "exchangeRate"],
      ["a paidDate that is not a calendar date", { paidDate: "2024-02-30", unfrankedAmount: 10 }, "paidDate"],
      // Not even date-shaped: must be refused as input like any other, never reach a Date (a 500).
      ["an exDividendDate that is not YYYY-MM-DD", { exDividendDate: "14/02/2024", unfrankedAmount: 10 }, "exDividendDate"],
    ];

    it.each(BAD)("rejects %s with VALIDATION_FAILED naming the field, writing nothing", async (_label, fields, path) => {
      await seedIncome(key, dividend({ unfrankedAmount: 1 }));
      await writesNothing(async () => expectInvalid(await tr.create(key, dividend(fields)), [path]));
    });

    it("rejects a holding that does not exist with NOT_FOUND, writing nothing", async () => {
      await writesNothing(async () => expectError(await tr.create(key, dividend({ holdingId: 999999, unfrankedAmount: 10 })), "NOT_FOUND"));
    });
  });

  describe("DRP", () => {
    it("a reinvested record of 10 units at 2 adds 10 units and 20 to the holding's cost base", async () => {
      const r = expectOk(await tr.create(key, dividend({ paidDate: "2024-03-01", unfrankedAmount: 20, isReinvested: true, drpQuantity: 10, drpPrice: 2 })), 201);
      expect(r).toMatchObject({ isReinvested: true, drpQuantity: "10", drpPrice: "2", netAmount: "20" });
      expect(await position(key, holdingId)).toEqual({ quantity: "110", costBase: "10020" });
    });

    it("drpPrice defaults to net ÷ units (net 90 over 30 units → 3; 10 over 3 → 3.33333333)", async () => {
      const r = expectOk(await tr.create(key, dividend({ frankedAmount: 70, unfrankedAmount: 30, withholdingTax: 10, isReinvested: true, drpQuantity: 30 })));
      expect(r).toMatchObject({ netAmount: "90", drpQuantity: "30", drpPrice: "3", frankingCredits: "30" });
      expect(await position(key, holdingId)).toEqual({ quantity: "130", costBase: "10090" });
      const thirds = expectOk(await tr.create(key, dividend({ netAmount: 10, isReinvested: true, drpQuantity: 3 })));
      expect(thirds).toMatchObject({ drpQuantity: "3", drpPrice: "3.33333333" });
      expect((await position(key, holdingId)).quantity).toBe("133");
    });

    it("turning a plain record into a reinvested one and back adds and removes its units", async () => {
      const plain = await seedIncome(key, dividend({ paidDate: "2024-03-01", unfrankedAmount: 20 }));
      const drp = expectOk(await tr.update(key, plain.id, dividend({ paidDate: "2024-03-01", unfrankedAmount: 20, isReinvested: true, drpQuantity: 10, drpPrice: 2 })));
      expect(drp).toMatchObject({ id: plain.id, isReinvested: true, drpQuantity: "10", drpPrice: "2" });
      expect(await position(key, holdingId)).toEqual({ quantity: "110", costBase: "10020" });
      const back = expectOk(await tr.update(key, plain.id, dividend({ paidDate: "2024-03-01", unfrankedAmount: 20 })));
      expect(back).toMatchObject({ isReinvested: false, drpQuantity: null, drpPrice: null });
      expect(await position(key, holdingId)).toEqual({ quantity: "100", costBase: "10000" });
    });

    it("deleting, un-reinvesting, shrinking or postponing a DRP record whose units a later sell used: 422, nothing written", async () => {
      const drpInput = dividend({ paidDate: "2024-03-01", unfrankedAmount: 20, isReinvested: true, drpQuantity: 10, drpPrice: 2 });
      const drp = await seedIncome(key, drpInput);
      const sell = await trade(key, { portfolioId, holdingId, tradeType: "Sell", tradeDate: "2024-04-02", quantity: 110, price: 120 });
      expect((await position(key, holdingId)).quantity).toBe("0");

      await writesNothing(async () => {
        expectError(await tr.remove(key, drp.id), "BUSINESS_RULE");
        expectError(await tr.update(key, drp.id, { ...drpInput, isReinvested: false, drpQuantity: undefined, drpPrice: undefined }), "BUSINESS_RULE");
        expectError(await tr.update(key, drp.id, { ...drpInput, drpQuantity: 5 }), "BUSINESS_RULE");
        expectError(await tr.update(key, drp.id, { ...drpInput, paidDate: "2024-05-01" }), "BUSINESS_RULE");
      });
      expect(expectOk(await rest.get(key, drp.id))).toEqual(drp);

      // A change that keeps the units before the sell is fine.
      expect(expectOk(await tr.update(key, drp.id, { ...drpInput, paidDate: "2024-04-01", notes: "moved" }))).toMatchObject({ paidDate: "2024-04-01", notes: "moved" });

      // Without the sell, the record can go, and its units with it.
      expect((await t.http.delete(`/v1/trades/${sell.id}`).set("authorization", key)).status).toBe(204);
      expect(expectOk(await tr.remove(key, drp.id), 204)).toBe(true);
      expect(await position(key, holdingId)).toEqual({ quantity: "100", costBase: "10000" });
    });
  });

  describe("confirm, get, list, update, delete", () => {
    it("confirm marks the record confirmed and changes nothing else", async () => {
      const r = await seedIncome(key, dividend({ frankedAmount: 700 }));
      const confirmed = expectOk(await tr.confirm(key, r.id), 200);
      expect(confirmed).toEqual({ ...r, isConfirmed: true });
      expect(expectOk(await tr.get(key, r.id))).toEqual(confirmed);
      // Confirming again is harmless.
      expect(expectOk(await tr.confirm(key, r.id))).toEqual(confirmed);
    });

    it("gets one record by id", async () => {
      const r = await seedIncome(key, dividend({ unfrankedAmount: "12.34", notes: "n" }));
      expect(expectOk(await tr.get(key, r.id), 200)).toEqual(r);
    });

    it("lists a holding's records by paid date (ties by id), and only that holding's", async () => {
      const other = (await trade(key, { portfolioId, symbol: "BHP", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 45 })).holdingId;
      const late = await seedIncome(key, dividend({ exDividendDate: "2024-08-01", paidDate: "2024-09-20", unfrankedAmount: 3 }));
      const early = await seedIncome(key, dividend({ exDividendDate: "2024-02-01", paidDate: "2024-02-20", unfrankedAmount: 1 }));
      const sameDay = await seedIncome(key, dividend({ exDividendDate: "2024-08-05", paidDate: "2024-09-20", unfrankedAmount: 4 }));
      await seedIncome(key, { holdingId: other, exDividendDate: "2024-02-01", paidDate: "2024-03-01", unfrankedAmount: 2 });
      expect(expectOk(await tr.list(key, holdingId), 200)).toEqual([early, late, sameDay]);
      const empty = (await trade(key, { portfolioId, symbol: "WES", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 50 })).holdingId;
      expect(expectOk(await tr.list(key, empty))).toEqual([]);
    });

    it("update replaces the content, recomputes the derived amounts, and keeps the record on its holding", async () => {
      const r = await seedIncome(key, dividend({ frankedAmount: 700, notes: "first" }));
      const updated = expectOk(
        await tr.update(key, r.id, dividend({ exDividendDate: "2024-02-15", paidDate: "2024-03-29", frankedAmount: 350, unfrankedAmount: 150, withholdingTax: 20, isTrustIncome: true })),
        200,
      );
      expect(updated).toEqual({
        ...r,
        exDividendDate: "2024-02-15",
        paidDate: "2024-03-29",
        frankedAmount: "350",
        unfrankedAmount: "150",
        frankingCredits: "150",
        withholdingTax: "20",
        grossAmount: "500",
        netAmount: "480",
        isTrustIncome: true,
        notes: "",
      });
      expect(expectOk(await rest.get(key, r.id))).toEqual(updated);
    });

    it("update to another holdingId is refused with BUSINESS_RULE; a bad update with VALIDATION_FAILED; neither writes", async () => {
      const other = (await trade(key, { portfolioId, symbol: "BHP", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 45 })).holdingId;
      const r = await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      await writesNothing(async () => {
        expectError(await tr.update(key, r.id, dividend({ holdingId: other, unfrankedAmount: 10 })), "BUSINESS_RULE");
        expectInvalid(await tr.update(key, r.id, dividend({ unfrankedAmount: 10, withholdingTax: 11 })), ["withholdingTax"]);
        expectInvalid(await tr.update(key, r.id, dividend({ frankedAmount: 10, netAmount: 11 })), ["netAmount"]);
      });
      expect(expectOk(await tr.get(key, r.id))).toEqual(r);
    });

    it("delete answers 204 (true); the record is then gone", async () => {
      const r = await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      const keep = await seedIncome(key, dividend({ unfrankedAmount: 11 }));
      expect(expectOk(await tr.remove(key, r.id), 204)).toBe(true);
      expectAbsent(await tr.get(key, r.id));
      expectError(await tr.remove(key, r.id), "NOT_FOUND");
      expect(expectOk(await tr.list(key, holdingId))).toEqual([keep]);
    });

    it("update, confirm and delete of an id that does not exist: NOT_FOUND, nothing written", async () => {
      await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      await writesNothing(async () => {
        expectError(await tr.update(key, 999999, dividend({ unfrankedAmount: 1 })), "NOT_FOUND");
        expectError(await tr.confirm(key, 999999), "NOT_FOUND");
        expectError(await tr.remove(key, 999999), "NOT_FOUND");
      });
      expectAbsent(await tr.get(key, 999999));
    });
  });

  describe("foreign-currency income (USD holding in an AUD portfolio)", () => {
    let aapl: number;
    beforeEach(async () => {
      aapl = (await trade(key, { portfolioId, symbol: "AAPL", exchange: "NASDAQ", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 150, exchangeRate: "1.5" })).holdingId;
    });
    const usd = (extra: Json = {}): Json => ({ holdingId: aapl, exDividendDate: "2024-02-09", paidDate: "2024-03-01", unfrankedAmount: "2.4", withholdingTax: "0.36", ...extra });

    it("keeps the exchange rate given; the currency is the holding's", async () => {
      expect(expectOk(await tr.create(key, usd({ exchangeRate: "1.5234" })), 201)).toMatchObject({
        symbol: "AAPL",
        exchange: "NASDAQ",
        currencyCode: "USD",
        exchangeRate: "1.5234",
        grossAmount: "2.4",
        netAmount: "2.04",
      });
    });

    it("takes the rate from the FX table: the latest on or in the 10 days before the paid date, either direction", async () => {
      const accountId = await accountIdOf(portfolioId);
      await t.db.prisma.fxRate.create({ data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-02-01T00:00:00Z"), rate: "1.4" } });
      await t.db.prisma.fxRate.create({ data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-02-27T00:00:00Z"), rate: "1.55" } });
      await t.db.prisma.fxRate.create({ data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-03-04T00:00:00Z"), rate: "1.6" } });
      expect(expectOk(await tr.create(key, usd()))).toMatchObject({ currencyCode: "USD", exchangeRate: "1.55" });

      // Only the inverse quote (1 AUD = 0.64 USD) on the paid date: 1 / 0.64 = 1.5625.
      await t.db.prisma.fxRate.create({ data: { accountId, base: "AUD", quote: "USD", date: new Date("2024-06-14T00:00:00Z"), rate: "0.64" } });
      expect(expectOk(await tr.create(key, usd({ exDividendDate: "2024-05-10", paidDate: "2024-06-14" })))).toMatchObject({ exchangeRate: "1.5625" });
    });

    it("no rate given and none in the FX table (stale or another account's do not count): BUSINESS_RULE, nothing written", async () => {
      const accountId = await accountIdOf(portfolioId);
      const otherKey = await t.newAccount();
      const otherAccountId = await accountIdOf(await newPortfolio(otherKey));
      await t.db.prisma.fxRate.create({ data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-02-19T00:00:00Z"), rate: "1.4" } }); // 11 days before
      await t.db.prisma.fxRate.create({ data: { accountId: otherAccountId, base: "USD", quote: "AUD", date: new Date("2024-03-01T00:00:00Z"), rate: "1.5" } });
      await writesNothing(async () => expectError(await tr.create(key, usd()), "BUSINESS_RULE"));
    });
  });

  describe("pro-rata distributions", () => {
    /** Four distributions of CBA: three in FY2025 (2024-07-01..2025-06-30), one just after it. */
    async function seedYear() {
      // Created out of ex-dividend order, so "last" has to mean the latest ex-dividend date.
      const june = await seedIncome(key, dividend({ exDividendDate: "2025-06-30", paidDate: "2025-07-20", foreignIncome: 350 }));
      const sept = await seedIncome(key, dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", unfrankedAmount: 100 }));
      // Weighted by gross (250), not net (200).
      const dec = await seedIncome(key, dividend({ exDividendDate: "2024-12-31", paidDate: "2025-01-15", frankedAmount: 150, unfrankedAmount: 100, withholdingTax: 50 }));
      const july = await seedIncome(key, dividend({ exDividendDate: "2025-07-01", paidDate: "2025-07-20", unfrankedAmount: 50 }));
      return { june, sept, dec, july };
    }

    it("spreads FY2025's totals over its three distributions by gross amount; the parts add up exactly; the next year's is left alone", async () => {
      const { june, sept, dec, july } = await seedYear();
      const updated = expectOk(await tr.proRata(key, holdingId, 2025, { discountedCapitalGains: 100, otherIncome: "33.3333" }), 200);
      expect(updated).toEqual([
        { ...sept, isTrustIncome: true, components: { discountedCapitalGains: "14.2857", otherIncome: "4.7619" } },
        { ...dec, isTrustIncome: true, components: { discountedCapitalGains: "35.7143", otherIncome: "11.9048" } },
        { ...june, isTrustIncome: true, components: { discountedCapitalGains: "50", otherIncome: "16.6666" } },
      ]);
      for (const [name, total] of [["discountedCapitalGains", 1_000_000], ["otherIncome", 333_333]] as const) {
        // Sum in units of 0.0001, exactly.
        expect(updated.reduce((s, r) => s + Math.round(Number(r.components![name]) * 10_000), 0)).toBe(total);
      }
      for (const r of updated) expect(expectOk(await tr.get(key, r.id))).toEqual(r);
      expect(expectOk(await tr.get(key, july.id))).toEqual(july);
      expect(july).toMatchObject({ isTrustIncome: false, components: null });
    });

    it("a second statement for the year replaces the components", async () => {
      const { sept, dec, june } = await seedYear();
      expectOk(await tr.proRata(key, holdingId, 2025, { discountedCapitalGains: 100, otherIncome: "33.3333" }));
      const again = expectOk(await tr.proRata(key, holdingId, 2025, { netExemptIncome: 7 }));
      expect(again.map((r) => [r.id, r.components])).toEqual([
        [sept.id, { netExemptIncome: "1" }],
        [dec.id, { netExemptIncome: "2.5" }],
        [june.id, { netExemptIncome: "3.5" }],
      ]);
    });

    it("a year without a distribution: BUSINESS_RULE, nothing written", async () => {
      await seedYear();
      await writesNothing(async () => expectError(await tr.proRata(key, holdingId, 2023, { discountedCapitalGains: 100 }), "BUSINESS_RULE"));
    });

    it("rejects a bad component name and an empty statement with VALIDATION_FAILED, writing nothing", async () => {
      await seedYear();
      await writesNothing(async () => {
        const o = await tr.proRata(key, holdingId, 2025, { "discounted capital gains": 100 });
        expectError(o, "VALIDATION_FAILED");
        if (!o.ok) {
          expect(o.errors!.length).toBeGreaterThanOrEqual(1);
          for (const e of o.errors!) expect(e.path).toMatch(/^components/);
        }
        expectInvalid(await tr.proRata(key, holdingId, 2025, {}), ["components"]);
        const five = await tr.proRata(key, holdingId, 2025, { otherIncome: "1.00001" });
        expectError(five, "VALIDATION_FAILED");
      });
    });
  });

  describe("tenancy and client keys", () => {
    it("another account's income and holdings are absent: NOT_FOUND or null, and nothing is written", async () => {
      const mine = await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      const intruder = await t.newAccount();
      await newPortfolio(intruder);
      await writesNothing(async () => {
        expectAbsent(await tr.get(intruder, mine.id));
        expectAbsent(await tr.list(intruder, holdingId));
        expectError(await tr.create(intruder, dividend({ unfrankedAmount: 5 })), "NOT_FOUND");
        expectError(await tr.update(intruder, mine.id, dividend({ unfrankedAmount: 5 })), "NOT_FOUND");
        expectError(await tr.confirm(intruder, mine.id), "NOT_FOUND");
        expectError(await tr.remove(intruder, mine.id), "NOT_FOUND");
        expectError(await tr.proRata(intruder, holdingId, 2024, { otherIncome: 1 }), "NOT_FOUND");
      });
      expect(expectOk(await tr.get(key, mine.id))).toEqual(mine);
    });

    it("a Read client key reads its portfolio's income; every write answers FORBIDDEN and writes nothing", async () => {
      const r = await seedIncome(key, dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", unfrankedAmount: 10 }));
      const reader = await t.newClientKey(key, "Read", [portfolioId]);
      expect(expectOk(await tr.get(reader, r.id))).toEqual(r);
      expect(expectOk(await tr.list(reader, holdingId))).toEqual([r]);
      await writesNothing(async () => {
        expectError(await tr.create(reader, dividend({ unfrankedAmount: 5 })), "FORBIDDEN");
        expectError(await tr.update(reader, r.id, dividend({ unfrankedAmount: 5 })), "FORBIDDEN");
        expectError(await tr.confirm(reader, r.id), "FORBIDDEN");
        expectError(await tr.remove(reader, r.id), "FORBIDDEN");
        expectError(await tr.proRata(reader, holdingId, 2025, { otherIncome: 1 }), "FORBIDDEN");
      });
    });

    it("a ReadWrite client key writes on its portfolio; another portfolio of the account is absent to it", async () => {
      const otherPortfolio = await newPortfolio(key, { name: "Not assigned" });
      const otherHolding = (await trade(key, { portfolioId: otherPortfolio, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 100 })).holdingId;
      const hidden = await seedIncome(key, { holdingId: otherHolding, exDividendDate: "2024-02-14", paidDate: "2024-03-28", unfrankedAmount: 1 });
      const writer = await t.newClientKey(key, "ReadWrite", [portfolioId]);

      const created = expectOk(await tr.create(writer, dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", frankedAmount: 700 })), 201);
      expect(created).toMatchObject({ holdingId, frankingCredits: "300", isConfirmed: false });
      expect(expectOk(await tr.update(writer, created.id, dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", frankedAmount: 70 })))).toMatchObject({ frankingCredits: "30" });
      expect(expectOk(await tr.confirm(writer, created.id))).toMatchObject({ isConfirmed: true });
      expect(expectOk(await tr.proRata(writer, holdingId, 2025, { otherIncome: 1 }))).toEqual([expect.objectContaining({ id: created.id, components: { otherIncome: "1" } })]);
      expect(expectOk(await tr.remove(writer, created.id))).toBe(true);

      await writesNothing(async () => {
        expectAbsent(await tr.get(writer, hidden.id));
        expectAbsent(await tr.list(writer, otherHolding));
        expectError(await tr.create(writer, { holdingId: otherHolding, exDividendDate: "2024-02-14", paidDate: "2024-03-28", unfrankedAmount: 1 }), "NOT_FOUND");
        expectError(await tr.confirm(writer, hidden.id), "NOT_FOUND");
        expectError(await tr.remove(writer, hidden.id), "NOT_FOUND");
      });
    });
  });
});

// =============================================================================================
// Transport-specific details
// =============================================================================================

describe("income over GraphQL only", () => {
  it("Holding.income lists the records of every holding of a portfolio", async () => {
    const bhp = (await trade(key, { portfolioId, symbol: "BHP", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 45 })).holdingId;
    const a = await seedIncome(key, dividend({ unfrankedAmount: 1 }));
    const b = await seedIncome(key, { holdingId: bhp, exDividendDate: "2024-02-14", paidDate: "2024-03-28", frankedAmount: 7 });
    const res = await t.gql(key, `query($p: ID!) { portfolio(id: $p) { holdings { symbol income { id netAmount frankingCredits } } } }`, { p: String(portfolioId) });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolio.holdings).toEqual([
      { symbol: "BHP", income: [{ id: String(b.id), netAmount: "7", frankingCredits: "3" }] },
      { symbol: "CBA", income: [{ id: String(a.id), netAmount: "1", frankingCredits: "0" }] },
    ]);
  });

  it("a request without a key answers 401 UNAUTHENTICATED", async () => {
    const res = await t.gql(undefined, Q.create, { input: gqlInput(dividend({ unfrankedAmount: 1 })) });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("income over REST only", () => {
  it("rejects a malformed income id with VALIDATION_FAILED on incomeId", async () => {
    const res = await t.http.get("/v1/income/abc").set("authorization", key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: "incomeId", message: expect.any(String) }]);
  });

  it("answers 401 without a key", async () => {
    expect((await t.http.post("/v1/income").send(dividend({ unfrankedAmount: 1 }))).status).toBe(401);
  });
});
