import type { Response } from "supertest";
import { startTestApp, type TestApp } from "../support/app";
import {
  expectAbsent,
  expectError,
  expectInvalid,
  expectOk,
  gqlDecimal,
  gqlId,
  restCall,
  restDecimal,
  restId,
  withApp,
  type FieldError,
  type Json,
  type Outcome,
  type TransportName,
} from "../support/outcomes";

/**
 * Holdings (API.md §2 Portfolios/Holdings, market prices; DOMAIN.md §1) and the securities search
 * the holdings are created from. Listing and valuation (custom price, else market price, else the
 * last trade price, on or before the date), editing, deleting, custom investments and ticker
 * changes run over REST and GraphQL on the same scenarios through the `Transport` adapters below.
 * Trades are set up over REST; prices and FX rates are written straight to their tables (their
 * own API is another module's). The last test proves `portfolio { holdings { trades } } }` costs
 * a fixed number of SQL statements however many holdings and trades there are.
 */

let t: TestApp;
const { gqlCall, unchanged, accountIdOf, count } = withApp(() => t);
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

// ---------------------------------------------------------------------------------------------
// A holding as both transports show it: decimals as their exact digits, ids as numbers.
// ---------------------------------------------------------------------------------------------



interface Holding {
  id: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  holdingType: string;
  quantity: string;
  costBase: string;
  price: string | null;
  priceDate: string | null;
  priceSource: string;
  exchangeRate: string | null;
  marketValue: string | null;
  unrealisedGain: string | null;
  baseCurrencyCode: string;
  classification: { assetClass: string | null; sector: string | null; industry: string | null };
  drp: { enabled: boolean; rounding: string };
  notes: string;
}

interface Security {
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  securityType: string;
}



function toHolding(raw: Json, transport: TransportName): Holding {
  const dec = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  const opt = (v: unknown) => (v === null ? null : dec(v));
  return {
    id: id(raw.id),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol as string,
    exchange: raw.exchange as string,
    name: raw.name as string,
    currencyCode: raw.currencyCode as string,
    holdingType: raw.holdingType as string,
    quantity: dec(raw.quantity),
    costBase: dec(raw.costBase),
    price: opt(raw.price),
    priceDate: raw.priceDate as string | null,
    priceSource: raw.priceSource as string,
    exchangeRate: opt(raw.exchangeRate),
    marketValue: opt(raw.marketValue),
    unrealisedGain: opt(raw.unrealisedGain),
    baseCurrencyCode: raw.baseCurrencyCode as string,
    classification: raw.classification as Holding["classification"],
    drp: raw.drp as Holding["drp"],
    notes: raw.notes as string,
  };
}

interface ListQuery {
  includeClosed?: boolean;
  date?: string;
}

interface Transport {
  name: TransportName;
  /** REST GET /v1/portfolios/{p}/holdings; GraphQL portfolio(id) { holdings } (null for a hidden portfolio). */
  list(key: string, portfolioId: number, query?: ListQuery): Promise<Outcome<Holding[] | null>>;
  get(key: string, id: number): Promise<Outcome<Holding | null>>;
  create(key: string, portfolioId: number, input: Json): Promise<Outcome<Holding>>;
  update(key: string, id: number, input: Json): Promise<Outcome<Holding>>;
  remove(key: string, id: number): Promise<Outcome<boolean>>;
  changeSymbol(key: string, id: number, symbol: string, exchange: string): Promise<Outcome<Holding>>;
  search(key: string, args: { q: string; exchange?: string; limit?: number }): Promise<Outcome<Security[]>>;
}

// REST ------------------------------------------------------------------------------------------


const restHolding = (b: unknown) => toHolding(b as Json, "REST");

const rest: Transport = {
  name: "REST",
  list: (k, p, query = {}) =>
    restCall(
      t.http
        .get(`/v1/portfolios/${p}/holdings`)
        .query(Object.fromEntries(Object.entries(query).map(([n, v]) => [n, String(v)])))
        .set("authorization", k),
      (b) => (b as Json[]).map(restHolding),
    ),
  get: (k, id) => restCall(t.http.get(`/v1/holdings/${id}`).set("authorization", k), restHolding),
  create: (k, p, input) => restCall(t.http.post(`/v1/portfolios/${p}/holdings`).set("authorization", k).send(input), restHolding),
  update: (k, id, input) => restCall(t.http.put(`/v1/holdings/${id}`).set("authorization", k).send(input), restHolding),
  remove: (k, id) => restCall(t.http.delete(`/v1/holdings/${id}`).set("authorization", k), () => true),
  changeSymbol: (k, id, symbol, exchange) => restCall(t.http.put(`/v1/holdings/${id}/symbol`).set("authorization", k).send({ symbol, exchange }), restHolding),
  search: (k, args) =>
    restCall(
      t.http
        .get("/v1/securities/search")
        .query(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)))
        .set("authorization", k),
      (b) => b as Security[],
    ),
};

// GraphQL ---------------------------------------------------------------------------------------

const HOLDING = `fragment H on Holding {
  id portfolioId symbol exchange name currencyCode holdingType quantity costBase price priceDate priceSource
  exchangeRate marketValue unrealisedGain baseCurrencyCode classification { assetClass sector industry } drp { enabled rounding } notes
}`;


const gqlHolding = (d: unknown) => toHolding(d as Json, "GraphQL");

const graphql: Transport = {
  name: "GraphQL",
  list: (k, p, query = {}) =>
    gqlCall(
      k,
      `query($id: ID!, $includeClosed: Boolean, $date: Date) { portfolio(id: $id) { holdings(includeClosed: $includeClosed, date: $date) { ...H } } } ${HOLDING}`,
      { id: String(p), ...query },
      "portfolio",
      (d) => (d === null ? null : ((d as Json).holdings as Json[]).map(gqlHolding)),
    ),
  get: (k, id) => gqlCall(k, `query($id: ID!) { holding(id: $id) { ...H } } ${HOLDING}`, { id: String(id) }, "holding", (d) => (d === null ? null : gqlHolding(d))),
  create: (k, p, input) =>
    gqlCall(k, `mutation($p: ID!, $input: CreateHoldingInput!) { createHolding(portfolioId: $p, input: $input) { ...H } } ${HOLDING}`, { p: String(p), input }, "createHolding", gqlHolding),
  update: (k, id, input) =>
    gqlCall(k, `mutation($id: ID!, $input: UpdateHoldingInput!) { updateHolding(id: $id, input: $input) { ...H } } ${HOLDING}`, { id: String(id), input }, "updateHolding", gqlHolding),
  remove: (k, id) => gqlCall(k, `mutation($id: ID!) { deleteHolding(id: $id) }`, { id: String(id) }, "deleteHolding", (d) => d as boolean),
  changeSymbol: (k, id, symbol, exchange) =>
    gqlCall(
      k,
      `mutation($id: ID!, $symbol: String!, $exchange: String!) { changeHoldingSymbol(id: $id, symbol: $symbol, exchange: $exchange) { ...H } } ${HOLDING}`,
      { id: String(id), symbol, exchange },
      "changeHoldingSymbol",
      gqlHolding,
    ),
  search: (k, args) =>
    gqlCall(
      k,
      `query($q: String!, $exchange: String, $limit: Int) { searchSecurities(q: $q, exchange: $exchange, limit: $limit) { symbol exchange name currencyCode securityType } }`,
      args,
      "searchSecurities",
      (d) => d as Security[],
    ),
};

const TRANSPORTS: Transport[] = [rest, graphql];

// Assertions ------------------------------------------------------------------------------------







// Setup helpers ---------------------------------------------------------------------------------

async function newPortfolio(k = key, body: Json = {}): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set("authorization", k).send({ name: "Portfolio", ...body });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function trade(portfolioId: number, input: Json, k = key): Promise<{ id: number; holdingId: number }> {
  const res = await t.http.post("/v1/trades").set("authorization", k).send({ portfolioId, ...input });
  if (res.status !== 201) throw new Error(`setup trade failed: ${res.status} ${res.text}`);
  return res.body;
}

const buy = (p: number, symbol: string, quantity: number | string, price: number | string, tradeDate: string, extra: Json = {}, k = key) =>
  trade(p, { symbol, exchange: "ASX", tradeType: "Buy", quantity, price, tradeDate, ...extra }, k);
const sell = (p: number, symbol: string, quantity: number | string, price: number | string, tradeDate: string, k = key) =>
  trade(p, { symbol, exchange: "ASX", tradeType: "Sell", quantity, price, tradeDate }, k);


const day = (d: string) => new Date(`${d}T00:00:00Z`);

async function marketPrice(portfolioId: number, symbol: string, exchange: string, date: string, close: string): Promise<void> {
  await t.db.prisma.marketPrice.create({ data: { accountId: await accountIdOf(portfolioId), symbol, exchange, date: day(date), close } });
}

async function customPrice(holdingId: number, date: string, price: string): Promise<void> {
  await t.db.prisma.customPrice.create({ data: { holdingId, date: day(date), price } });
}

async function fxRate(portfolioId: number, base: string, quote: string, date: string, rate: string): Promise<void> {
  await t.db.prisma.fxRate.create({ data: { accountId: await accountIdOf(portfolioId), base, quote, date: day(date), rate } });
}


const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

// =============================================================================================

describe.each(TRANSPORTS)("holdings over $name", (tr) => {
  describe("listing a portfolio's holdings", () => {
    it("lists the open holdings by symbol; includeClosed adds the sold-out ones at zero", async () => {
      const p = await newPortfolio();
      await buy(p, "WBC", 10, 30, "2024-01-10");
      await buy(p, "CBA", 10, 100, "2024-01-10", { brokerage: 10 });
      const nab = await buy(p, "NAB", 5, 30, "2024-01-10");
      await sell(p, "NAB", 5, 35, "2024-02-10");

      const open = expectOk(await tr.list(key, p), 200)!;
      expect(open.map((h) => h.symbol)).toEqual(["CBA", "WBC"]);
      expect(open[0]).toEqual({
        id: expect.any(Number),
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        name: "Commonwealth Bank of Australia",
        currencyCode: "AUD",
        holdingType: "Stock",
        quantity: "10",
        costBase: "1010",
        price: "100",
        priceDate: "2024-01-10",
        priceSource: "LastTrade",
        exchangeRate: "1",
        marketValue: "1000",
        unrealisedGain: "-10",
        baseCurrencyCode: "AUD",
        classification: { assetClass: null, sector: null, industry: null },
        drp: { enabled: false, rounding: "Down" },
        notes: "",
      });
      expect(expectOk(await tr.get(key, open[0].id))).toEqual(open[0]);

      const all = expectOk(await tr.list(key, p, { includeClosed: true }))!;
      expect(all.map((h) => h.symbol)).toEqual(["CBA", "NAB", "WBC"]);
      expect(all[1]).toMatchObject({ id: nab.holdingId, quantity: "0", costBase: "0", marketValue: "0", unrealisedGain: "0" });
      expect(expectOk(await tr.list(key, p, { includeClosed: false }))!.map((h) => h.symbol)).toEqual(["CBA", "WBC"]);
    });

    it("lists nothing for a portfolio without holdings; another account's portfolio is hidden", async () => {
      const p = await newPortfolio();
      expect(expectOk(await tr.list(key, p))).toEqual([]);
      const other = await t.newAccount();
      await buy(p, "CBA", 1, 100, "2024-01-10");
      expectAbsent(await tr.list(other, p));
      expectAbsent(await tr.list(key, 999999));
    });

    it("date= values the holdings with the price on or before that date", async () => {
      const p = await newPortfolio();
      await buy(p, "CBA", 10, 100, "2024-01-10");
      await marketPrice(p, "CBA", "ASX", "2024-02-01", "110");
      await marketPrice(p, "CBA", "ASX", "2024-03-01", "120");
      const at = async (date: string) => expectOk(await tr.list(key, p, { date }))![0];
      expect(await at("2024-01-20")).toMatchObject({ priceSource: "LastTrade", price: "100", priceDate: "2024-01-10", marketValue: "1000" });
      expect(await at("2024-02-01")).toMatchObject({ priceSource: "Market", price: "110", priceDate: "2024-02-01", marketValue: "1100", unrealisedGain: "100" });
      expect(await at("2024-02-29")).toMatchObject({ priceSource: "Market", price: "110", priceDate: "2024-02-01" });
      expect(await at("2024-06-30")).toMatchObject({ priceSource: "Market", price: "120", priceDate: "2024-03-01", marketValue: "1200", unrealisedGain: "200" });
      // Without a date: today, so the latest price.
      expect(expectOk(await tr.list(key, p))![0]).toMatchObject({ price: "120", marketValue: "1200" });
    });

    it("date= shows the position held on that date: trades after it do not count", async () => {
      const p = await newPortfolio();
      await buy(p, "CBA", 10, 100, "2024-01-10");
      await buy(p, "CBA", 10, 110, "2024-03-01");
      await sell(p, "CBA", 20, 120, "2024-05-01");
      await buy(p, "NAB", 10, 30, "2024-04-01");
      const at = async (date: string) => expectOk(await tr.list(key, p, { date }))!.map((h) => ({ symbol: h.symbol, quantity: h.quantity, costBase: h.costBase, marketValue: h.marketValue }));
      expect(await at("2024-02-01")).toEqual([{ symbol: "CBA", quantity: "10", costBase: "1000", marketValue: "1000" }]);
      expect(await at("2024-04-15")).toEqual([
        { symbol: "CBA", quantity: "20", costBase: "2100", marketValue: "2200" },
        { symbol: "NAB", quantity: "10", costBase: "300", marketValue: "300" },
      ]);
      expect(await at("2024-06-01")).toEqual([{ symbol: "NAB", quantity: "10", costBase: "300", marketValue: "300" }]);
    });

    it("rejects a date that is not a calendar date, naming date", async () => {
      const p = await newPortfolio();
      expectInvalid(await tr.list(key, p, { date: "2024-02-30" }), ["date"]);
    });
  });

  describe("market value: custom price, else market price, else the last trade price", () => {
    it("with no price imported, the last trade price values the holding; unrealisedGain = marketValue − costBase", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10", { brokerage: "9.95" });
      await buy(p, "CBA", 5, 104, "2024-02-10");
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({
        quantity: "15",
        costBase: "1529.95",
        price: "104",
        priceDate: "2024-02-10",
        priceSource: "LastTrade",
        marketValue: "1560",
        unrealisedGain: "30.05",
      });
    });

    it("the account's market price beats the last trade price, even when older; another account's prices do not count", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10", { brokerage: 10 });
      await marketPrice(p, "CBA", "ASX", "2024-01-05", "98.5");
      const other = await t.newAccount();
      await marketPrice(await newPortfolio(other), "CBA", "ASX", "2024-01-20", "500");
      await marketPrice(p, "NAB", "ASX", "2024-01-20", "600"); // another symbol
      await marketPrice(p, "CBA", "NYSE", "2024-01-20", "700"); // another exchange
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({ priceSource: "Market", price: "98.5", priceDate: "2024-01-05", marketValue: "985", unrealisedGain: "-25" });
    });

    it("a custom price beats the market price", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await marketPrice(p, "CBA", "ASX", "2024-02-01", "110");
      await customPrice(b.holdingId, "2024-02-15", "105.5");
      await customPrice(b.holdingId, "2024-03-15", "130"); // after the date asked for
      expect(expectOk(await tr.list(key, p, { date: "2024-03-01" }))![0]).toMatchObject({
        priceSource: "Custom",
        price: "105.5",
        priceDate: "2024-02-15",
        marketValue: "1055",
        unrealisedGain: "55",
      });
      expect(expectOk(await tr.list(key, p, { date: "2024-01-31" }))![0]).toMatchObject({ priceSource: "LastTrade", price: "100" });
    });

    it("a foreign holding is valued in the base currency at the FX table's rate, else its last trade's rate", async () => {
      const p = await newPortfolio();
      const b = await trade(p, { symbol: "AAPL", exchange: "NASDAQ", tradeType: "Buy", tradeDate: "2024-03-01", quantity: 5, price: 170, exchangeRate: "1.52" });
      await marketPrice(p, "AAPL", "NASDAQ", "2024-03-05", "180");
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({
        currencyCode: "USD",
        baseCurrencyCode: "AUD",
        costBase: "1292",
        price: "180",
        exchangeRate: "1.52",
        marketValue: "1368",
        unrealisedGain: "76",
      });
      await fxRate(p, "USD", "AUD", "2024-03-05", "1.6");
      expect(expectOk(await tr.get(key, b.holdingId))).toMatchObject({ exchangeRate: "1.6", marketValue: "1440", unrealisedGain: "148" });
    });
  });

  describe("updating a holding: notes, classification, DRP", () => {
    it("changes what is given and keeps the rest", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const first = expectOk(
        await tr.update(key, b.holdingId, { notes: "Core holding", classification: { assetClass: "Australian Equities", sector: "Financials", industry: "Banks" }, drp: { enabled: true, rounding: "Nearest" } }),
        200,
      );
      expect(first).toMatchObject({
        id: b.holdingId,
        symbol: "CBA",
        quantity: "10",
        costBase: "1000",
        notes: "Core holding",
        classification: { assetClass: "Australian Equities", sector: "Financials", industry: "Banks" },
        drp: { enabled: true, rounding: "Nearest" },
      });
      expect(expectOk(await tr.get(key, b.holdingId))).toEqual(first);

      const second = expectOk(await tr.update(key, b.holdingId, { classification: { sector: "Banking" }, drp: { enabled: false } }));
      expect(second).toEqual({ ...first, classification: { assetClass: "Australian Equities", sector: "Banking", industry: "Banks" }, drp: { enabled: false, rounding: "Nearest" } });
      // null clears a classification field.
      const third = expectOk(await tr.update(key, b.holdingId, { classification: { industry: null }, notes: "" }));
      expect(third).toEqual({ ...second, classification: { assetClass: "Australian Equities", sector: "Banking", industry: null }, notes: "" });
    });

    it("rejects a bad DRP rounding or an empty classification, naming the path, writing nothing", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await unchanged(async () => {
        const sideways = await tr.update(key, b.holdingId, { drp: { rounding: "Sideways" } });
        // GraphQL's DrpRounding enum refuses it before the service: BAD_USER_INPUT (API.md §3).
        if (sideways.transport === "GraphQL") expect(!sideways.ok && sideways.code).toBe("BAD_USER_INPUT");
        else expectInvalid(sideways, ["drp.rounding"]);
        expectInvalid(await tr.update(key, b.holdingId, { classification: { assetClass: "  " } }), ["classification.assetClass"]);
        expectInvalid(await tr.update(key, b.holdingId, { notes: "a\u0000b" }), ["notes"]);
      });
    });

    it("another account's holding or a missing one is NOT_FOUND and stays as it was", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const other = await t.newAccount();
      await unchanged(async () => {
        expectError(await tr.update(other, b.holdingId, { notes: "hijacked" }), "NOT_FOUND");
        expectError(await tr.update(key, 999999, { notes: "x" }), "NOT_FOUND");
      });
      expectAbsent(await tr.get(other, b.holdingId));
    });
  });

  describe("deleting a holding removes its trades", () => {
    it("answers 204 (true), then the holding and its trades are gone; other holdings stay", async () => {
      const p = await newPortfolio();
      const b1 = await buy(p, "CBA", 10, 100, "2024-01-10");
      const b2 = await buy(p, "CBA", 5, 100, "2024-01-11");
      await sell(p, "CBA", 3, 100, "2024-01-12");
      const keep = await buy(p, "NAB", 5, 30, "2024-01-10");
      await t.http.put(`/v1/trades/${b1.id}/attachment`).set("authorization", key).attach("file", Buffer.from("%PDF-1.4\n%%EOF\n"), { filename: "note.pdf", contentType: "application/pdf" }).expect(200);

      expect(expectOk(await tr.remove(key, b1.holdingId), 204)).toBe(true);
      expectAbsent(await tr.get(key, b1.holdingId));
      for (const id of [b1.id, b2.id]) expect((await t.http.get(`/v1/trades/${id}`).set("authorization", key)).status).toBe(404);
      expect((await t.http.get(`/v1/holdings/${b1.holdingId}/trades`).set("authorization", key)).status).toBe(404);
      expect(await count("trade")).toBe(1);
      expect(await count("trade_attachment")).toBe(0);
      expect(expectOk(await tr.list(key, p))!.map((h) => h.id)).toEqual([keep.holdingId]);
      expectError(await tr.remove(key, b1.holdingId), "NOT_FOUND");
    });

    it("another account cannot delete it (NOT_FOUND), and nothing changes", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const other = await t.newAccount();
      await unchanged(async () => expectError(await tr.remove(other, b.holdingId), "NOT_FOUND"));
    });
  });

  describe("custom investments are created explicitly", () => {
    it("creates one with CUSTOM exchange, Custom type and the base currency by default; a trade and a custom price value it", async () => {
      const p = await newPortfolio();
      const h = expectOk(await tr.create(key, p, { symbol: "farm1", name: "Family farm" }), 201);
      expect(h).toEqual({
        id: expect.any(Number),
        portfolioId: p,
        symbol: "FARM1",
        exchange: "CUSTOM",
        name: "Family farm",
        currencyCode: "AUD",
        holdingType: "Custom",
        quantity: "0",
        costBase: "0",
        price: null,
        priceDate: null,
        priceSource: "None",
        exchangeRate: "1",
        marketValue: "0",
        unrealisedGain: "0",
        baseCurrencyCode: "AUD",
        classification: { assetClass: null, sector: null, industry: null },
        drp: { enabled: false, rounding: "Down" },
        notes: "",
      });
      expect(expectOk(await tr.get(key, h.id))).toEqual(h);
      // It is listed with includeClosed only until it holds units.
      expect(expectOk(await tr.list(key, p))).toEqual([]);
      expect(expectOk(await tr.list(key, p, { includeClosed: true }))).toEqual([h]);

      await trade(p, { holdingId: h.id, tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 500000 });
      // A trade naming FARM1.CUSTOM reaches the same holding.
      await trade(p, { symbol: "FARM1", exchange: "CUSTOM", tradeType: "CostBaseIncrease", tradeDate: "2024-02-10", quantity: 1, price: 20000 });
      await customPrice(h.id, "2024-06-30", "650000");
      expect(expectOk(await tr.get(key, h.id))).toMatchObject({ quantity: "1", costBase: "520000", priceSource: "Custom", price: "650000", marketValue: "650000", unrealisedGain: "130000" });
    });

    it("keeps the exchange, currency, type, notes and classification given", async () => {
      const p = await newPortfolio();
      const h = expectOk(
        await tr.create(key, p, { symbol: "PRIVFUND", exchange: "UNLISTED", name: "Private fund", currencyCode: "USD", holdingType: "Fund", notes: "Wholesale", classification: { assetClass: "Private Equity" } }),
      );
      expect(h).toMatchObject({ symbol: "PRIVFUND", exchange: "UNLISTED", currencyCode: "USD", holdingType: "Fund", notes: "Wholesale", classification: { assetClass: "Private Equity", sector: null, industry: null } });
    });

    it("a second holding with the same symbol and exchange is 409 CONFLICT and nothing is written", async () => {
      const p = await newPortfolio();
      expectOk(await tr.create(key, p, { symbol: "FARM1", name: "Family farm" }));
      await buy(p, "CBA", 1, 100, "2024-01-10");
      await unchanged(async () => {
        expectError(await tr.create(key, p, { symbol: "farm1", name: "Again" }), "CONFLICT");
        expectError(await tr.create(key, p, { symbol: "CBA", exchange: "asx", name: "Commonwealth again" }), "CONFLICT");
      });
      // Another portfolio may have its own.
      expectOk(await tr.create(key, await newPortfolio(), { symbol: "FARM1", name: "Family farm" }));
    });

    it("rejects a bad symbol or currency naming the path; another account's portfolio is NOT_FOUND", async () => {
      const p = await newPortfolio();
      const other = await t.newAccount();
      await unchanged(async () => {
        expectInvalid(await tr.create(key, p, { symbol: "my fund", name: "x" }), ["symbol"]);
        expectInvalid(await tr.create(key, p, { symbol: "F", name: "x", currencyCode: "EURO" }), ["currencyCode"]);
        expectInvalid(await tr.create(key, p, { symbol: "F", name: "" }), ["name"]);
        expectError(await tr.create(other, p, { symbol: "F", name: "x" }), "NOT_FOUND");
      });
    });
  });

  describe("a ticker change keeps the holding's history", () => {
    it("changes symbol and exchange, keeps trades, units and cost base, and records the change", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await sell(p, "CBA", 4, 110, "2024-02-10");
      const before = expectOk(await tr.get(key, b.holdingId))!;

      const changed = expectOk(await tr.changeSymbol(key, b.holdingId, "cbax", "asx"), 200);
      expect(changed).toEqual({ ...before, symbol: "CBAX", exchange: "ASX" });
      const trades = (await t.http.get(`/v1/holdings/${b.holdingId}/trades`).set("authorization", key)).body as Json[];
      expect(trades.map((x) => [x.symbol, x.quantity])).toEqual([
        ["CBAX", 10],
        ["CBAX", -4],
      ]);
      // A new trade under the new ticker goes to the same holding.
      expect((await buy(p, "CBAX", 1, 100, "2024-03-01")).holdingId).toBe(b.holdingId);

      // A second change to a known security takes its name.
      expect(expectOk(await tr.changeSymbol(key, b.holdingId, "WBC", "ASX"))).toMatchObject({ symbol: "WBC", name: "Westpac Banking Corporation", quantity: "7" });

      const history = await t.http.get(`/v1/holdings/${b.holdingId}/symbol-changes`).set("authorization", key);
      expect(history.status).toBe(200);
      expect(history.body).toEqual([
        { fromSymbol: "CBA", fromExchange: "ASX", toSymbol: "CBAX", toExchange: "ASX", changedAt: expect.stringMatching(ISO_UTC) },
        { fromSymbol: "CBAX", fromExchange: "ASX", toSymbol: "WBC", toExchange: "ASX", changedAt: expect.stringMatching(ISO_UTC) },
      ]);
    });

    it("is 409 CONFLICT when the portfolio already holds the new symbol, and nothing is written", async () => {
      const p = await newPortfolio();
      await buy(p, "CBA", 10, 100, "2024-01-10");
      const nab = await buy(p, "NAB", 10, 30, "2024-01-10");
      await unchanged(async () => expectError(await tr.changeSymbol(key, nab.holdingId, "cba", "ASX"), "CONFLICT"));
      // Another portfolio's CBA does not stand in the way.
      const q = await newPortfolio();
      const other = await buy(q, "NAB", 1, 30, "2024-01-10");
      expect(expectOk(await tr.changeSymbol(key, other.holdingId, "CBA", "ASX")).name).toBe("Commonwealth Bank of Australia");
    });

    it("changing to the same ticker records nothing", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      expect(expectOk(await tr.changeSymbol(key, b.holdingId, "CBA", "ASX")).symbol).toBe("CBA");
      expect(await count("holding_symbol_change")).toBe(0);
    });

    it("rejects a bad symbol naming it; another account's holding is NOT_FOUND", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const other = await t.newAccount();
      await unchanged(async () => {
        expectInvalid(await tr.changeSymbol(key, b.holdingId, "C BA", "ASX"), ["symbol"]);
        expectInvalid(await tr.changeSymbol(key, b.holdingId, "CBA", "A.S.X"), ["exchange"]);
        expectError(await tr.changeSymbol(other, b.holdingId, "CBAX", "ASX"), "NOT_FOUND");
      });
      expect((await t.http.get(`/v1/holdings/${b.holdingId}/symbol-changes`).set("authorization", other)).status).toBe(404);
    });
  });

  describe("securities search: exact symbol, then prefix, then name words", () => {
    const ids = (list: Security[]) => list.map((s) => `${s.symbol}.${s.exchange}`);

    it("finds CBA by words of its name, and answers the security master's fields", async () => {
      const found = expectOk(await tr.search(key, { q: "commonwealth bank" }), 200);
      expect(found).toEqual([{ symbol: "CBA", exchange: "ASX", name: "Commonwealth Bank of Australia", currencyCode: "AUD", securityType: "Stock" }]);
      expect(ids(expectOk(await tr.search(key, { q: "Commonwealth" })))).toEqual(["CBA.ASX"]);
    });

    it("puts the exact symbol first, then symbol prefixes (shorter first), case-insensitively", async () => {
      expect(ids(expectOk(await tr.search(key, { q: "cb" }))).slice(0, 2)).toEqual(["CB.NYSE", "CBA.ASX"]);
      expect(ids(expectOk(await tr.search(key, { q: "CBA" })))[0]).toBe("CBA.ASX");
      const v = expectOk(await tr.search(key, { q: "v" }));
      expect(ids(v)[0]).toBe("V.NYSE");
      const lengths = v.slice(1).filter((s) => s.symbol.startsWith("V")).map((s) => s.symbol.length);
      expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    });

    it("ranks names whose words start with the query before names merely containing it", async () => {
      const bank = expectOk(await tr.search(key, { q: "bank", limit: 100 }));
      const names = bank.map((s) => s.name);
      const wordStart = names.filter((n) => /\bbank/i.test(n));
      expect(names).toContain("Commonwealth Bank of Australia");
      expect(names).toContain("Medibank Private Limited");
      expect(names.slice(0, wordStart.length)).toEqual(wordStart);
      expect(names.indexOf("Medibank Private Limited")).toBeGreaterThanOrEqual(wordStart.length);
    });

    it("filters by exchange and honours limit", async () => {
      expect(ids(expectOk(await tr.search(key, { q: "CB", exchange: "asx" })))[0]).toBe("CBA.ASX");
      expect(ids(expectOk(await tr.search(key, { q: "CB", exchange: "ASX" })))).not.toContain("CB.NYSE");
      const three = expectOk(await tr.search(key, { q: "V", limit: 3 }));
      expect(three).toHaveLength(3);
      expect(ids(three)[0]).toBe("V.NYSE");
      expect(expectOk(await tr.search(key, { q: "V", limit: 1 }))).toHaveLength(1);
    });

    it("treats LIKE and regex characters as plain text", async () => {
      for (const q of ["%", "_", "(", "\\", ".*", "[a"]) {
        const found = expectOk(await tr.search(key, { q }));
        for (const s of found) expect({ q, match: s.name.toLowerCase().includes(q.toLowerCase()) || s.symbol.startsWith(q.toUpperCase()) }).toEqual({ q, match: true });
      }
      // "(" is in names such as "... (Hedged) ETF"; "%" and "_" are in none.
      expect(expectOk(await tr.search(key, { q: "(" })).length).toBeGreaterThan(0);
      expect(expectOk(await tr.search(key, { q: "%" }))).toEqual([]);
      expect(expectOk(await tr.search(key, { q: "_" }))).toEqual([]);
    });

    it("rejects an empty or over-long q and a bad limit, naming them", async () => {
      expectInvalid(await tr.search(key, { q: "" }), ["q"]);
      expectInvalid(await tr.search(key, { q: "   " }), ["q"]);
      expectInvalid(await tr.search(key, { q: "x".repeat(51) }), ["q"]);
      expectInvalid(await tr.search(key, { q: "CBA", limit: 0 }), ["limit"]);
      expectInvalid(await tr.search(key, { q: "CBA", limit: 101 }), ["limit"]);
      expectInvalid(await tr.search(key, { q: "CBA", exchange: "A S X" }), ["exchange"]);
    });
  });
});

describe("REST specifics", () => {
  it("a holding answers exactly the documented fields, numbers as JSON numbers", async () => {
    const p = await newPortfolio();
    const b = await buy(p, "CBA", "10.5", "152.39", "2024-01-10");
    const res = await t.http.get(`/v1/holdings/${b.holdingId}`).set("authorization", key);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "baseCurrencyCode",
        "classification",
        "costBase",
        "currencyCode",
        "drp",
        "exchange",
        "exchangeRate",
        "holdingType",
        "id",
        "marketValue",
        "name",
        "notes",
        "portfolioId",
        "price",
        "priceDate",
        "priceSource",
        "quantity",
        "symbol",
        "unrealisedGain",
      ].sort(),
    );
    expect(res.text).toContain('"costBase":1600.095');
  });

  it("rejects a missing or bad q, limit and includeClosed on the query string", async () => {
    const p = await newPortfolio();
    for (const [url, path] of [
      ["/v1/securities/search", "q"],
      ["/v1/securities/search?q=CBA&limit=abc", "limit"],
      [`/v1/portfolios/${p}/holdings?includeClosed=yes`, "includeClosed"],
      [`/v1/portfolios/${p}/holdings?date=2024-02-30`, "date"],
    ]) {
      const res = await t.http.get(url).set("authorization", key);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: "VALIDATION_FAILED" });
      expect(res.body.errors.map((e: FieldError) => e.path)).toContain(path);
    }
  });

  it("a date query that is not YYYY-MM-DD, or has month 13, is 400 naming date (not a 500)", async () => {
    const p = await newPortfolio();
    for (const date of ["2024-13-01", "01/02/2024", "today"]) {
      const res = await t.http.get(`/v1/portfolios/${p}/holdings`).query({ date }).set("authorization", key);
      expect({ date, status: res.status, code: res.body.code }).toEqual({ date, status: 400, code: "VALIDATION_FAILED" });
      expect(res.body.errors).toEqual([{ path: "date", message: expect.any(String) }]);
    }
  });

  it("POST /v1/portfolios/{p}/holdings answers 201; bad holding ids are 400 naming holdingId", async () => {
    const p = await newPortfolio();
    const res = await t.http.post(`/v1/portfolios/${p}/holdings`).set("authorization", key).send({ symbol: "FARM", name: "Farm" });
    expect(res.status).toBe(201);
    for (const id of ["abc", "0", "-3"]) {
      const bad = await t.http.get(`/v1/holdings/${id}`).set("authorization", key);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ path: "holdingId", message: expect.any(String) }]);
    }
  });
});

describe("statement count", () => {
  async function statementsFor(portfolioId: number) {
    const before = t.db.statementCount;
    const res = await t.gql(key, `query($id: ID!) { portfolio(id: $id) { holdings { id quantity trades { id } } } }`, { id: String(portfolioId) });
    expect(res.body.errors).toBeUndefined();
    return { count: t.db.statementCount - before, holdings: res.body.data.portfolio.holdings as { id: string; quantity: string; trades: { id: string }[] }[] };
  }

  async function seed(holdings: number, tradesEach: number): Promise<number> {
    const p = await newPortfolio();
    const rows: Json[] = [];
    for (let h = 0; h < holdings; h++) {
      for (let i = 0; i < tradesEach; i++) {
        const date = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
        rows.push({ symbol: `ZQ${String(h).padStart(2, "0")}`, exchange: "ASX", tradeType: "Buy", tradeDate: date, quantity: 1, price: 1 + h });
      }
    }
    const res = await t.http.post(`/v1/portfolios/${p}/trades/import`).set("authorization", key).send(rows);
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(holdings * tradesEach);
    return p;
  }

  it("portfolio { holdings { trades } } over 50 holdings × 100 trades costs what 2 holdings × 3 trades cost", async () => {
    const small = await seed(2, 3);
    const large = await seed(50, 100);

    const few = await statementsFor(small);
    const many = await statementsFor(large);

    expect(few.holdings).toHaveLength(2);
    expect(many.holdings).toHaveLength(50);
    for (const h of many.holdings) {
      expect(h.quantity).toBe("100");
      expect(h.trades).toHaveLength(100);
    }
    expect(many.count).toBe(few.count);
  });
});
