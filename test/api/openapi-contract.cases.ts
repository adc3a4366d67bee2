/**
 * The cases of the OpenAPI contract stories (openapi-contract.*.test.ts): one success case per
 * operation, the queries, references and business rules each must refuse, the served document with
 * its fixture, and the driver that sends a call and checks the answer against the document.
 * Importing it registers no hook: a suite hands its app and contract over,
 * `contractDriver(t, () => contract)`.
 */
import request from "supertest";
import { type Endpoint } from "../../src/http/endpoint";
import { OpenApiContract, type OpenApiDocument } from "../support/openapi";
import { ATTACHMENT_PDF, seedWriteFixture, writeBodies, type FixtureIds } from "../scenarios/write-fixture";
import type { TestApp } from "../support/app";

export const MISSING_ID = "2147483647";

export interface Call {
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

export interface Success {
  /** The success call's query (a function of the fixture's ids when it names one). */
  query?: string | ((ids: FixtureIds) => string);
  /** The custom investment stands in for :holdingId (custom prices belong to it). */
  customHolding?: boolean;
  /** More requests over the same fresh fixture, after the first (`query` replaces the first's). */
  more?: (ids: FixtureIds) => (Omit<Call, "method" | "url" | "key"> & { query?: string })[];
}

export const csv = (lines: string[]) => lines.join("\n") + "\n";

/** One success case per operation: a test fails until a new route is added here. */
export const SUCCESS: Record<string, Success> = {
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
      {
        what: "a CommSec Transactions export",
        contentType: "text/csv",
        body: csv([
          "Date,Reference,Details,Debit($),Credit($),Balance($)",
          "06/03/2024,C7001,B 3 CBA @ 101.00,312.95,,-312.95",
        ]),
        expect: 201,
      },
    ],
  },
  exportTrades: { query: "format=sharesight" },
  listTradeImportFormats: {},
  uploadTradeAttachment: {},
  getTradeAttachment: {},
  deleteTradeAttachment: {},
  listHoldingTrades: { query: "limit=1&offset=0" },
  createIncome: {},
  getIncome: {},
  updateIncome: {},
  confirmIncome: {},
  importIncome: {
    query: "dryRun=false",
    more: (ids) => [
      { what: "dry run", query: "dryRun=true", body: writeBodies(ids).importIncome, expect: 200 },
      {
        what: "CSV",
        contentType: "text/csv",
        body: csv([
          "holdingId,exDividendDate,paidDate,frankedAmount,isConfirmed",
          `${ids.holdingId},2024-02-16,2024-03-28,8,TRUE`,
        ]),
        expect: 201,
      },
    ],
  },
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
  refreshMarketData: {},
  marketDataStatus: {},
  listCorporateActions: { query: "status=Pending" },
  applyCorporateAction: {},
  dismissCorporateAction: {},
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
  listApiKeys: {},
  createApiKey: {},
  revokeApiKey: {},
  rotateApiKey: {},
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
  capitalGainsReportPdf: { query: "financialYear=2025" },
  unrealisedCapitalGainsReport: { query: "date=2024-06-30&includeCarriedForward=true" },
  taxableIncomeReport: { query: "financialYear=2025" },
  myTaxReport: { query: "financialYear=2025" },
  myTaxReportPdf: { query: "financialYear=2025" },
  simulateSell: {},
  taxPlanner: { query: "financialYear=2024&asOf=2024-06-30&marginalTaxRate=37" },
  taxPlannerWhatIf: {},
  taxPlannerOverview: { query: "asOf=2024-06-30" },
  incomeForecast: { query: "from=2025-07-01&months=6" },
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
export const BAD_QUERY: Record<string, string> = {
  listHoldings: "date=2024-02-30",
  listHoldingTrades: "offset=-1",
  listCashMovements: "limit=0",
  listMarketPrices: "symbol=CBA",
  listFxRates: "base=usd&quote=AUD",
  searchSecurities: "limit=5",
  listPortfolioTransactions: "limit=5001",
  importTrades: "dryRun=maybe",
  exportTrades: "format=xls",
  importIncome: "dryRun=maybe",
  getDriftOverview: "clientId=abc",
  capitalGainsReport: "financialYear=20x5",
  capitalGainsReportPdf: "year=2025",
  unrealisedCapitalGainsReport: "date=2999-01-01",
  taxableIncomeReport: "financialYear=1900",
  myTaxReport: "financialYear=2025.5",
  myTaxReportPdf: "year=2025",
  taxPlanner: "financialYear=2025&asOf=2024-06-30",
  taxPlannerOverview: "marginalTaxRate=37",
  incomeForecast: "months=25",
  getPortfolioTimeseries: "from=2024-02-01&to=2024-01-01",
  getHoldingTimeseries: "interval=fortnight",
  getPerformance: "groupBy=colour",
  getBenchmark: "symbol=CBA",
  listCorporateActions: "status=Done",
};

/** Bodies naming a resource that does not exist, for writes whose path names none (404). */
export const MISSING_REFERENCE: Record<string, (ids: FixtureIds) => unknown> = {
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
export const RULES: Record<string, (ids: FixtureIds) => Omit<Call, "method" | "url" | "key"> & { query?: string }> = {
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

export const pathParams = (e: Endpoint) => [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]);

export function send(http: ReturnType<typeof request>, c: Call) {
  let req = http[c.method](c.url);
  if (c.key) req = req.set("authorization", c.key);
  if (c.upload) return req.attach("file", ATTACHMENT_PDF, { filename: "note.pdf", contentType: "application/pdf" });
  if (c.body === undefined) return req;
  return req
    .set("content-type", c.contentType ?? "application/json")
    .send(typeof c.body === "string" ? c.body : JSON.stringify(c.body));
}

/** The fixture and the driver over the suite's app and contract (inside tests and hooks only). */
export function contractDriver(t: TestApp, contract: () => OpenApiContract) {
  /**
   * Sends the call and checks the answer against the document, and (unless the call is built to be
   * refused for its content type) the request too. Returns what disagrees, and the answer.
   */
  async function drive(http: ReturnType<typeof request>, e: Endpoint, c: Call, opts: { checkRequest?: boolean } = {}) {
    const res = await send(http, c);
    const op = contract().operation(e.method, e.path)!;
    const problems: string[] = [];
    const expected = [c.expect].flat();
    if (!expected.includes(res.status))
      problems.push(`answered ${res.status}, the case expects ${expected.join(" or ")}: ${res.text?.slice(0, 300)}`);
    if (opts.checkRequest !== false) {
      problems.push(...contract().queryViolations(op, c.url));
      if (!c.upload)
        problems.push(
          ...contract().requestViolations(
            op,
            c.body === undefined ? undefined : (c.contentType ?? "application/json"),
            c.body,
          ),
        );
    }
    problems.push(
      ...contract().responseViolations(op, {
        status: res.status,
        headers: res.headers,
        body: res.body,
        text: res.text,
      }),
    );
    return { res, problems: problems.map((p) => `${c.what}: ${p}`) };
  }

  /**
   * The served document, and one account's fixture with data for every read to answer with (so each
   * schema is checked on real rows, not an empty list) and a Read client key over its portfolio.
   */
  async function servedContract(): Promise<{
    doc: OpenApiDocument;
    contract: OpenApiContract;
    shared: { key: string; readKey: string; ids: FixtureIds };
  }> {
    const served = await t.http.get("/v1/openapi.json").expect(200);
    expect(served.headers["content-type"]).toMatch(/^application\/json/);
    const doc: OpenApiDocument = served.body;

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
    await as("put", `/v1/custom-groups/${ids.groupId}/assignments`, [
      { holdingId: ids.holdingId, label: "Core" },
    ]).expect(200);
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
    return { doc, contract: new OpenApiContract(doc), shared: { key, readKey, ids } };
  }
  return { drive, servedContract };
}
