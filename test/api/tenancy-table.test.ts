import { endpoints } from "../../src/http/router";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";

/**
 * API.md §1 tenancy, for every REST route at once: another account's ids answer 404, exactly as
 * missing ones, and a client key with Read permission gets 403 on every write. A route added
 * without a case here fails the "every route is covered" test, so the table cannot fall behind.
 */
let t: TestApp;
let ownerKey: string;
let otherKey: string;
let readKey: string;
let ids: Record<string, number | string>;

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

beforeAll(async () => {
  t = await startTestApp();
  ownerKey = await t.newAccount("owner");
  otherKey = await t.newAccount("other");
  const as = (key: string) => ({ authorization: key });
  const post = async (path: string, body: unknown) => {
    const res = await t.http.post(path).set(as(ownerKey)).send(body as object);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const portfolio = await post("/v1/portfolios", { name: "Owner's" });
  const buy = await post("/v1/trades", { portfolioId: portfolio.id, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 100, price: 100 });
  await t.http.put(`/v1/trades/${buy.id}/attachment`).set(as(ownerKey)).attach("file", PDF, { filename: "note.pdf", contentType: "application/pdf" }).expect(200);
  const account = (await t.db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [portfolio.id]))[0].account_id;
  const income = await t.db.prisma.income.create({
    data: { portfolioId: portfolio.id, holdingId: buy.holdingId, exDividendDate: new Date("2024-08-14"), paidDate: new Date("2024-09-26"), frankedAmount: "215", frankingCredits: "92.1429", currencyCode: "AUD" },
  });
  const cashAccount = await t.db.prisma.cashAccount.create({ data: { portfolioId: portfolio.id, name: "Cash", currencyCode: "AUD" } });
  const cashTransaction = await t.db.prisma.cashTransaction.create({ data: { cashAccountId: cashAccount.id, type: "Deposit", date: new Date("2024-01-02"), amount: "1000" } });
  const custom = await post(`/v1/portfolios/${portfolio.id}/holdings`, { symbol: "FARM", name: "The farm" });
  const price = await t.db.prisma.customPrice.create({ data: { holdingId: custom.id, date: new Date("2024-06-30"), price: "250000" } });
  const client = await post("/v1/clients", { firstName: "Jo", lastName: "Citizen", permission: "Read" });
  const group = await post("/v1/custom-groups", { name: "Strategy", labels: ["Core", "Satellite"] });
  const model = await post(`/v1/portfolios/${portfolio.id}/allocation-models`, { name: "Growth", dimension: "assetClass", buckets: [{ label: "Shares", targetPct: 100 }] });
  ids = {
    portfolioId: portfolio.id,
    holdingId: buy.holdingId,
    tradeId: buy.id,
    incomeId: income.id,
    cashAccountId: cashAccount.id,
    cashTransactionId: cashTransaction.id,
    priceId: price.id,
    clientId: client.id,
    groupId: group.id,
    publicId: model.publicId,
    accountId: account,
  };
  readKey = await t.newClientKey(ownerKey, "Read", [portfolio.id]);
});
afterAll(() => t.close());

/** A valid body for each write, so the only thing wrong with the request is who sends it. */
const bodies = (): Record<string, unknown> => ({
  createPortfolio: { name: "Mine" },
  updatePortfolio: { name: "Renamed" },
  createHolding: { symbol: "ART", name: "A painting" },
  updateHolding: { notes: "noted" },
  changeHoldingSymbol: { symbol: "CBA2", exchange: "ASX" },
  createTrade: { portfolioId: ids.portfolioId, holdingId: ids.holdingId, tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 1 },
  updateTrade: { portfolioId: ids.portfolioId, holdingId: ids.holdingId, tradeType: "Buy", tradeDate: "2024-01-10", quantity: 100, price: 101 },
  importTrades: [{ symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 1 }],
  createIncome: { holdingId: ids.holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-26", frankedAmount: 100 },
  updateIncome: { holdingId: ids.holdingId, exDividendDate: "2024-08-14", paidDate: "2024-09-26", frankedAmount: 216 },
  updateProRataDistributions: { financialYear: 2025, components: { otherIncome: 10 } },
  createCashAccount: { portfolioId: ids.portfolioId, name: "More cash", currencyCode: "AUD" },
  updateCashAccount: { name: "Renamed cash" },
  createCashTransaction: { cashAccountId: ids.cashAccountId, type: "Deposit", date: "2024-02-02", amount: 5 },
  updateCashTransaction: { cashAccountId: ids.cashAccountId, type: "Deposit", date: "2024-02-02", amount: 6 },
  addCustomPrice: { date: "2024-07-31", price: 1 },
  addCustomPrices: [{ date: "2024-08-31", price: 1 }],
  updateCustomPrice: { date: "2024-06-30", price: 2 },
  upsertMarketPrices: [{ symbol: "CBA", exchange: "ASX", date: "2024-06-28", close: 120 }],
  upsertFxRates: [{ base: "USD", quote: "AUD", date: "2024-06-28", rate: 1.5 }],
  createClient: { firstName: "Al", lastName: "Other" },
  updateClient: { firstName: "Jo", lastName: "Citizen-Smith" },
  assignClientPortfolios: { portfolioIds: [ids.portfolioId], permission: "Read" },
  createCustomGroup: { name: "Another", labels: ["A"] },
  updateCustomGroup: { name: "Strategy", labels: ["Core", "Satellite", "Other"] },
  setCustomGroupAssignments: [{ holdingId: ids.holdingId, label: "Core" }],
  updateTaxSettings: { defaultMethod: "FIFO" },
  saveAllocationModel: { name: "Income", dimension: "assetClass", buckets: [{ label: "Bonds", targetPct: 100 }] },
});

/** Writes without ids in the path name their target in the body: answered 404 to a stranger. */
const STRANGER_404_WITHOUT_PARAMS = new Set(["createTrade", "createIncome", "createCashAccount", "createCashTransaction"]);

const url = (path: string) =>
  "/v1" +
  path.replace(/:(\w+)/g, (_m, name: string) => {
    if (!(name in ids)) throw new Error(`no fixture id for :${name} — add one to the tenancy table`);
    return String(ids[name]);
  });

function send(key: string, e: (typeof endpoints)[number]) {
  const req = t.http[e.method](url(e.path)).set("authorization", key);
  if (e.upload) return req.attach("file", PDF, { filename: "other.pdf", contentType: "application/pdf" });
  const body = bodies()[e.operationId];
  return e.method === "get" || e.method === "delete" || body === undefined ? req : req.send(body as object);
}

const withParams = () => endpoints.filter((e) => e.path.includes(":"));
const writes = () => endpoints.filter((e) => e.method !== "get");

it("every route is covered: each path parameter has a fixture, each write a body", () => {
  for (const e of endpoints) expect(() => url(e.path)).not.toThrow();
  const needBody = writes().filter((e) => e.method !== "delete" && !e.upload && !["confirmIncome", "createClientApiKey", "activateAllocationModel"].includes(e.operationId));
  expect(needBody.filter((e) => !(e.operationId in bodies())).map((e) => e.operationId)).toEqual([]);
});

it("another account's ids answer 404 on every route, and nothing is written", async () => {
  const before = await ledgerSnapshot(t.db);
  const outcomes: string[] = [];
  for (const e of [...withParams(), ...endpoints.filter((x) => STRANGER_404_WITHOUT_PARAMS.has(x.operationId))]) {
    const res = await send(otherKey, e);
    outcomes.push(`${e.method.toUpperCase()} ${e.path} → ${res.status}${res.status === 404 ? "" : " " + res.text.slice(0, 160)}`);
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
    outcomes.push(`${e.method.toUpperCase()} ${e.path} → ${res.status}${res.status === 403 ? "" : " " + res.text.slice(0, 160)}`);
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
