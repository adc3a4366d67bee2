import type { Response, Test } from "supertest";
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
 * Trades (API.md §2 Trades and Holdings, DOMAIN.md §1–2): recording, reading, changing and
 * deleting trades, and what each does to its holding's units and cost base. Every rule runs over
 * REST (/v1) and over GraphQL (/graphql) on the same scenarios through the `Transport` adapters
 * below, which normalise trades and holdings so both transports are held to the same answers.
 * Scenario setup goes through REST; the operation under test through the transport under test.
 * The last section is the tenancy and permission table over every holdings, trades, import and
 * attachment route.
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
// Trades and holdings as both transports show them: decimals as their exact digits, ids numbers.
// ---------------------------------------------------------------------------------------------



interface Trade {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  tradeType: string;
  tradeDate: string;
  quantity: string;
  price: string;
  brokerage: string;
  value: string;
  currencyCode: string;
  exchangeRate: string;
  sourceId: string | null;
  notes: string;
  acquisitionDate: string | null;
  parcels: { tradeId: number; quantity: string }[];
  hasAttachment: boolean;
}

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
  marketValue: string | null;
  unrealisedGain: string | null;
}



function toTrade(raw: Json, transport: TransportName): Trade {
  const dec = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  return {
    id: id(raw.id),
    holdingId: id(raw.holdingId),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol as string,
    exchange: raw.exchange as string,
    tradeType: raw.tradeType as string,
    tradeDate: raw.tradeDate as string,
    quantity: dec(raw.quantity),
    price: dec(raw.price),
    brokerage: dec(raw.brokerage),
    value: dec(raw.value),
    currencyCode: raw.currencyCode as string,
    exchangeRate: dec(raw.exchangeRate),
    sourceId: raw.sourceId as string | null,
    notes: raw.notes as string,
    acquisitionDate: raw.acquisitionDate as string | null,
    parcels: (raw.parcels as Json[]).map((p) => ({ tradeId: id(p.tradeId), quantity: dec(p.quantity) })),
    hasAttachment: raw.hasAttachment as boolean,
  };
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
    marketValue: opt(raw.marketValue),
    unrealisedGain: opt(raw.unrealisedGain),
  };
}

interface Transport {
  name: TransportName;
  createTrade(key: string, input: Json): Promise<Outcome<Trade>>;
  updateTrade(key: string, id: number, input: Json): Promise<Outcome<Trade>>;
  deleteTrade(key: string, id: number): Promise<Outcome<boolean>>;
  /** REST: 404 when absent; GraphQL: null. */
  getTrade(key: string, id: number): Promise<Outcome<Trade | null>>;
  getHolding(key: string, id: number): Promise<Outcome<Holding | null>>;
  /** A holding's trades, oldest first (REST /v1/holdings/{h}/trades, GraphQL holding { trades }). */
  holdingTrades(key: string, holdingId: number): Promise<Outcome<Trade[] | null>>;
  listHoldings(key: string, portfolioId: number): Promise<Outcome<Holding[] | null>>;
}

// REST ------------------------------------------------------------------------------------------


const restTrade = (b: unknown) => toTrade(b as Json, "REST");
const restHolding = (b: unknown) => toHolding(b as Json, "REST");

const rest: Transport = {
  name: "REST",
  createTrade: (k, input) => restCall(t.http.post("/v1/trades").set("authorization", k).send(input), restTrade),
  updateTrade: (k, id, input) => restCall(t.http.put(`/v1/trades/${id}`).set("authorization", k).send(input), restTrade),
  deleteTrade: (k, id) => restCall(t.http.delete(`/v1/trades/${id}`).set("authorization", k), () => true),
  getTrade: (k, id) => restCall(t.http.get(`/v1/trades/${id}`).set("authorization", k), restTrade),
  getHolding: (k, id) => restCall(t.http.get(`/v1/holdings/${id}`).set("authorization", k), restHolding),
  holdingTrades: (k, id) => restCall(t.http.get(`/v1/holdings/${id}/trades`).set("authorization", k), (b) => (b as Json[]).map(restTrade)),
  listHoldings: (k, p) => restCall(t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", k), (b) => (b as Json[]).map(restHolding)),
};

// GraphQL ---------------------------------------------------------------------------------------

const TRADE = `fragment T on Trade {
  id holdingId portfolioId symbol exchange tradeType tradeDate quantity price brokerage value
  currencyCode exchangeRate sourceId notes acquisitionDate parcels { tradeId quantity } hasAttachment
}`;
const HOLDING = `fragment H on Holding { id portfolioId symbol exchange name currencyCode holdingType quantity costBase marketValue unrealisedGain }`;


const gqlTrade = (d: unknown) => toTrade(d as Json, "GraphQL");
const gqlHolding = (d: unknown) => toHolding(d as Json, "GraphQL");
const orNull =
  <T>(f: (d: unknown) => T) =>
  (d: unknown) =>
    d === null ? null : f(d);

const graphql: Transport = {
  name: "GraphQL",
  createTrade: (k, input) => gqlCall(k, `mutation($input: TradeInput!) { createTrade(input: $input) { ...T } } ${TRADE}`, { input }, "createTrade", gqlTrade),
  updateTrade: (k, id, input) =>
    gqlCall(k, `mutation($id: ID!, $input: TradeInput!) { updateTrade(id: $id, input: $input) { ...T } } ${TRADE}`, { id: String(id), input }, "updateTrade", gqlTrade),
  deleteTrade: (k, id) => gqlCall(k, `mutation($id: ID!) { deleteTrade(id: $id) }`, { id: String(id) }, "deleteTrade", (d) => d as boolean),
  getTrade: (k, id) => gqlCall(k, `query($id: ID!) { trade(id: $id) { ...T } } ${TRADE}`, { id: String(id) }, "trade", orNull(gqlTrade)),
  getHolding: (k, id) => gqlCall(k, `query($id: ID!) { holding(id: $id) { ...H } } ${HOLDING}`, { id: String(id) }, "holding", orNull(gqlHolding)),
  holdingTrades: (k, id) =>
    gqlCall(k, `query($id: ID!) { holding(id: $id) { trades { ...T } } } ${TRADE}`, { id: String(id) }, "holding", (d) =>
      d === null ? null : ((d as Json).trades as Json[]).map(gqlTrade),
    ),
  listHoldings: (k, p) =>
    gqlCall(k, `query($id: ID!) { portfolio(id: $id) { holdings { ...H } } } ${HOLDING}`, { id: String(p) }, "portfolio", (d) =>
      d === null ? null : ((d as Json).holdings as Json[]).map(gqlHolding),
    ),
};

const TRANSPORTS: Transport[] = [rest, graphql];

// Assertions ------------------------------------------------------------------------------------







// Setup helpers (REST) --------------------------------------------------------------------------

async function newPortfolio(k = key, body: Json = {}): Promise<number> {
  const res = await t.http.post("/v1/portfolios").set("authorization", k).send({ name: "Portfolio", ...body });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** Records a trade over REST and answers it (the test fails on anything but 201). */
async function trade(portfolioId: number, input: Json, k = key): Promise<Trade> {
  const res = await t.http.post("/v1/trades").set("authorization", k).send({ portfolioId, ...input });
  if (res.status !== 201) throw new Error(`setup trade failed: ${res.status} ${res.text}`);
  return toTrade(res.body, "REST");
}

const buy = (portfolioId: number, symbol: string, quantity: number | string, price: number | string, tradeDate: string, extra: Json = {}, k = key) =>
  trade(portfolioId, { symbol, exchange: "ASX", tradeType: "Buy", quantity, price, tradeDate, ...extra }, k);

async function restHoldingOf(holdingId: number, k = key): Promise<Json> {
  const res = await t.http.get(`/v1/holdings/${holdingId}`).set("authorization", k);
  expect(res.status).toBe(200);
  return res.body;
}


async function fxRate(portfolioId: number, base: string, quote: string, date: string, rate: string): Promise<void> {
  await t.db.prisma.fxRate.create({ data: { accountId: await accountIdOf(portfolioId), base, quote, date: new Date(`${date}T00:00:00Z`), rate } });
}


const search = (k: string, q: string) => t.http.get("/v1/securities/search").query({ q }).set("authorization", k);

// =============================================================================================

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("the first trade creates the holding from the security master", () => {
    it("symbol and exchange are case-insensitive; CBA.ASX is Commonwealth Bank of Australia, AUD, Stock", async () => {
      const p = await newPortfolio();
      const first = expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "cba", exchange: "asx", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 100 }), 201);
      expect(first).toMatchObject({ portfolioId: p, symbol: "CBA", exchange: "ASX", currencyCode: "AUD", exchangeRate: "1" });
      const h = expectOk(await tr.getHolding(key, first.holdingId));
      expect(h).toEqual({
        id: first.holdingId,
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        name: "Commonwealth Bank of Australia",
        currencyCode: "AUD",
        holdingType: "Stock",
        quantity: "10",
        costBase: "1000",
        marketValue: "1000",
        unrealisedGain: "0",
      });

      // Any spelling of the same ticker is the same holding.
      const second = expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "Cba", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-11", quantity: 5, price: 110 }));
      expect(second.holdingId).toBe(first.holdingId);
      expect(expectOk(await tr.listHoldings(key, p))!.map((x) => x.id)).toEqual([first.holdingId]);
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "15", costBase: "1550" });
    });

    it("takes type and currency from the master list: VAS.ASX is an Etf, AAPL.NASDAQ a USD Stock", async () => {
      const p = await newPortfolio();
      const vas = expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "VAS", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 95 }));
      expect(expectOk(await tr.getHolding(key, vas.holdingId))).toMatchObject({ name: "Vanguard Australian Shares Index ETF", holdingType: "Etf", currencyCode: "AUD" });
      const aapl = expectOk(
        await tr.createTrade(key, { portfolioId: p, symbol: "aapl", exchange: "nasdaq", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 5, price: 170, exchangeRate: "1.52" }),
      );
      expect(aapl).toMatchObject({ symbol: "AAPL", exchange: "NASDAQ", currencyCode: "USD", exchangeRate: "1.52" });
      expect(expectOk(await tr.getHolding(key, aapl.holdingId))).toMatchObject({ name: "Apple Inc.", holdingType: "Stock", currencyCode: "USD" });
    });

    it("an unknown symbol creates a security of this account only, found by its search and no one else's", async () => {
      const p = await newPortfolio();
      const zz = expectOk(
        await tr.createTrade(key, { portfolioId: p, symbol: "ZZQX", exchange: "ASX", name: "Zed Quux Resources", holdingType: "Etf", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 100, price: "0.25" }),
      );
      expect(expectOk(await tr.getHolding(key, zz.holdingId))).toMatchObject({ symbol: "ZZQX", exchange: "ASX", name: "Zed Quux Resources", holdingType: "Etf", currencyCode: "AUD", costBase: "25" });
      // Without a name the ticker is the name; the exchange gives the currency; the type is Stock.
      const bare = expectOk(
        await tr.createTrade(key, { portfolioId: p, symbol: "QQZY", exchange: "NYSE", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 10, exchangeRate: "1.5" }),
      );
      expect(expectOk(await tr.getHolding(key, bare.holdingId))).toMatchObject({ name: "QQZY", holdingType: "Stock", currencyCode: "USD", costBase: "15" });

      const mine = await search(key, "ZZQX");
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual([{ symbol: "ZZQX", exchange: "ASX", name: "Zed Quux Resources", currencyCode: "AUD", securityType: "Etf" }]);
      expect((await search(key, "quux")).body).toEqual(mine.body);

      const other = await t.newAccount();
      expect((await search(other, "ZZQX")).body).toEqual([]);
      expect((await search(other, "QQZY")).body).toEqual([]);
      // The other account's own first trade makes its own security, with its own name.
      const op = await newPortfolio(other);
      await trade(op, { symbol: "ZZQX", exchange: "ASX", name: "Another name", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1 }, other);
      expect((await search(other, "ZZQX")).body).toEqual([{ symbol: "ZZQX", exchange: "ASX", name: "Another name", currencyCode: "AUD", securityType: "Stock" }]);
      expect((await search(key, "ZZQX")).body).toEqual(mine.body);
    });

    it("a later trade may name its holding by holdingId alone", async () => {
      const p = await newPortfolio();
      const first = await buy(p, "NAB", 10, 30, "2024-01-10");
      const second = expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: first.holdingId, tradeType: "Buy", tradeDate: "2024-02-10", quantity: 10, price: 32 }), 201);
      expect(second).toMatchObject({ holdingId: first.holdingId, symbol: "NAB", exchange: "ASX" });
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "20", costBase: "620" });
    });

    it("a holdingId of another portfolio (or another account) is NOT_FOUND and nothing is written", async () => {
      const p = await newPortfolio();
      const q = await newPortfolio();
      const elsewhere = await buy(q, "NAB", 10, 30, "2024-01-10");
      const other = await t.newAccount();
      const foreign = await buy(await newPortfolio(other), "CBA", 10, 100, "2024-01-10", {}, other);
      await unchanged(async () => {
        for (const holdingId of [elsewhere.holdingId, foreign.holdingId, 999999]) {
          expectError(await tr.createTrade(key, { portfolioId: p, holdingId, tradeType: "Buy", tradeDate: "2024-02-10", quantity: 1, price: 1 }), "NOT_FOUND");
        }
      });
    });
  });

  describe("sourceId must be a Source id (GET /v1/sources)", () => {
    it("keeps a Source id and answers it back", async () => {
      const sources = (await t.http.get("/v1/sources").set("authorization", key)).body as { id: string; name: string }[];
      const commsec = sources.find((s) => s.name === "CommSec")!;
      const p = await newPortfolio();
      const created = expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 100, sourceId: commsec.id }));
      expect(created.sourceId).toBe(commsec.id);
      expect(expectOk(await tr.getTrade(key, created.id))!.sourceId).toBe(commsec.id);
    });

    it.each([
      ["a UUID that is no Source", "00000000-0000-4000-8000-000000000000"],
      ["a Source name instead of its id", "CommSec"],
      ["text that is no UUID", "not-a-uuid"],
    ])("rejects %s with VALIDATION_FAILED on sourceId, writing nothing", async (_label, sourceId) => {
      const p = await newPortfolio();
      await unchanged(async () => {
        expectInvalid(await tr.createTrade(key, { portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 100, sourceId }), ["sourceId"]);
      });
    });
  });

  describe("every trade type changes units and cost base as DOMAIN.md §1 says", () => {
    // Each starts from one parcel: 100 units bought at 10 with 10 brokerage (cost base 1,010).
    const CASES: [string, Json, { quantity: string; costBase: string; tradeQuantity: string }][] = [
      ["Buy adds a parcel (units × price + brokerage)", { tradeType: "Buy", quantity: 50, price: 12, brokerage: 5 }, { quantity: "150", costBase: "1615", tradeQuantity: "50" }],
      ["Sell removes units and their share of the cost base", { tradeType: "Sell", quantity: 40, price: 12, brokerage: 10 }, { quantity: "60", costBase: "606", tradeQuantity: "-40" }],
      ["Split adds the units gained; the cost base stays", { tradeType: "Split", quantity: 100 }, { quantity: "200", costBase: "1010", tradeQuantity: "100" }],
      ["Consolidation removes the units lost; the cost base stays", { tradeType: "Consolidation", quantity: 50 }, { quantity: "50", costBase: "1010", tradeQuantity: "-50" }],
      ["Bonus adds units at no cost", { tradeType: "Bonus", quantity: 25 }, { quantity: "125", costBase: "1010", tradeQuantity: "25" }],
      ["ReturnOfCapital lowers the cost base by units × amount", { tradeType: "ReturnOfCapital", quantity: 100, price: "0.5" }, { quantity: "100", costBase: "960", tradeQuantity: "100" }],
      ["CostBaseIncrease raises the cost base", { tradeType: "CostBaseIncrease", quantity: 100, price: "0.2" }, { quantity: "100", costBase: "1030", tradeQuantity: "100" }],
      ["CostBaseDecrease lowers the cost base", { tradeType: "CostBaseDecrease", quantity: 100, price: "0.1" }, { quantity: "100", costBase: "1000", tradeQuantity: "100" }],
      ["OpeningBalance adds a parcel", { tradeType: "OpeningBalance", quantity: 20, price: 8, acquisitionDate: "2020-05-01" }, { quantity: "120", costBase: "1170", tradeQuantity: "20" }],
      ["Cancellation disposes of every unit for nothing (quantity may be absent)", { tradeType: "Cancellation" }, { quantity: "0", costBase: "0", tradeQuantity: "-100" }],
      ["TransferIn adds a parcel", { tradeType: "TransferIn", quantity: 20, price: 9 }, { quantity: "120", costBase: "1190", tradeQuantity: "20" }],
      ["TransferOut removes units and their cost base", { tradeType: "TransferOut", quantity: 30 }, { quantity: "70", costBase: "707", tradeQuantity: "-30" }],
    ];

    it.each(CASES)("%s", async (_label, input, expected) => {
      const p = await newPortfolio();
      const first = await buy(p, "CBA", 100, 10, "2024-01-10", { brokerage: 10 });
      const created = expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: first.holdingId, tradeDate: "2024-02-01", ...input }), 201);
      expect(created).toMatchObject({ tradeType: input.tradeType, tradeDate: "2024-02-01", quantity: expected.tradeQuantity, holdingId: first.holdingId });
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: expected.quantity, costBase: expected.costBase });
      expect(expectOk(await tr.getTrade(key, created.id))).toEqual(created);
    });

    it("a sell may give its quantity negative; it means the same", async () => {
      const p = await newPortfolio();
      const first = await buy(p, "CBA", 100, 10, "2024-01-10");
      const sold = expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: first.holdingId, tradeType: "Sell", tradeDate: "2024-02-01", quantity: -40, price: 12 }));
      expect(sold.quantity).toBe("-40");
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "60", costBase: "600" });
    });
  });

  describe("FIFO by default, and the trade as GET /v1/trades/{t} shows it", () => {
    it("Navexa's example: buy 10 @ 1, buy 10 @ 2, sell 7 @ 3 leaves 13 units with cost base 23", async () => {
      const p = await newPortfolio();
      const b1 = await buy(p, "CBA", 10, 1, "2024-01-01");
      await buy(p, "CBA", 10, 2, "2024-02-01");
      const sell = expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-03-01", quantity: 7, price: 3, notes: "Navexa" }), 201);
      expect(sell).toEqual({
        id: expect.any(Number),
        holdingId: b1.holdingId,
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Sell",
        tradeDate: "2024-03-01",
        quantity: "-7",
        price: "3",
        brokerage: "0",
        value: "21",
        currencyCode: "AUD",
        exchangeRate: "1",
        sourceId: null,
        notes: "Navexa",
        acquisitionDate: null,
        parcels: [],
        hasAttachment: false,
      });
      expect(expectOk(await tr.getTrade(key, sell.id))).toEqual(sell);
      expect(expectOk(await tr.getHolding(key, b1.holdingId))).toMatchObject({ quantity: "13", costBase: "23" });
    });

    it("value is |quantity| × price in the trade currency, brokerage apart", async () => {
      const p = await newPortfolio();
      const b = expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-01", quantity: "3.5", price: "152.39", brokerage: "9.95" }));
      expect(b).toMatchObject({ quantity: "3.5", price: "152.39", brokerage: "9.95", value: "533.365" });
      expect(expectOk(await tr.getHolding(key, b.holdingId))!.costBase).toBe("543.315");
    });
  });

  describe("manual parcels on a sell override the method", () => {
    async function navexa() {
      const p = await newPortfolio();
      const b1 = await buy(p, "CBA", 10, 1, "2024-01-01");
      const b2 = await buy(p, "CBA", 10, 2, "2024-02-01");
      return { p, h: b1.holdingId, b1, b2 };
    }
    const sell7 = (p: number, h: number, parcels: unknown, extra: Json = {}) => ({ portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-03-01", quantity: 7, price: 3, parcels, ...extra });

    it("selling 7 from the $2 parcel leaves 10 @ 1 and 3 @ 2 (cost base 16), and the pick is recorded", async () => {
      const { p, h, b2 } = await navexa();
      const sell = expectOk(await tr.createTrade(key, sell7(p, h, [{ tradeId: b2.id, quantity: 7 }])), 201);
      expect(sell.parcels).toEqual([{ tradeId: b2.id, quantity: "7" }]);
      expect(expectOk(await tr.getTrade(key, sell.id))!.parcels).toEqual([{ tradeId: b2.id, quantity: "7" }]);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "13", costBase: "16" });
    });

    it("picks across parcels: 3 from the first and 4 from the second leave cost base 19", async () => {
      const { p, h, b1, b2 } = await navexa();
      const sell = expectOk(await tr.createTrade(key, sell7(p, h, [{ tradeId: b1.id, quantity: 3 }, { tradeId: b2.id, quantity: 4 }])));
      expect(sell.parcels).toEqual([{ tradeId: b1.id, quantity: "3" }, { tradeId: b2.id, quantity: "4" }]);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "13", costBase: "19" });
    });

    it("updating the sell's picks changes which parcels remain", async () => {
      const { p, h, b1, b2 } = await navexa();
      const sell = expectOk(await tr.createTrade(key, sell7(p, h, [{ tradeId: b2.id, quantity: 7 }])));
      const updated = expectOk(await tr.updateTrade(key, sell.id, sell7(p, h, [{ tradeId: b1.id, quantity: 7 }])));
      expect(updated.parcels).toEqual([{ tradeId: b1.id, quantity: "7" }]);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "13", costBase: "23" });
      // Without picks the sell goes back to FIFO (the same parcels here).
      expect(expectOk(await tr.updateTrade(key, sell.id, sell7(p, h, undefined))).parcels).toEqual([]);
    });

    it("a bad pick is refused with 422 BUSINESS_RULE and nothing is written", async () => {
      const { p, h, b1, b2 } = await navexa();
      const nab = await buy(p, "NAB", 10, 30, "2024-01-01");
      const later = await buy(p, "CBA", 10, 5, "2024-04-01");
      await unchanged(async () => {
        for (const picks of [
          [{ tradeId: b1.id, quantity: 5 }], // 5 picked for a sell of 7
          [{ tradeId: b1.id, quantity: 5 }, { tradeId: b2.id, quantity: 5 }], // 10 picked for 7
          [{ tradeId: nab.id, quantity: 7 }], // another holding's parcel
          [{ tradeId: later.id, quantity: 7 }], // a parcel bought after the sell
          [{ tradeId: 999999, quantity: 7 }], // no such trade
          [{ tradeId: b1.id, quantity: 0 }, { tradeId: b2.id, quantity: 7 }], // a pick of nothing
        ]) {
          expectError(await tr.createTrade(key, sell7(p, h, picks)), "BUSINESS_RULE");
        }
        // More units than the parcel holds (the total matches the sell).
        expectError(await tr.createTrade(key, sell7(p, h, [{ tradeId: b1.id, quantity: 11 }], { quantity: 11 })), "BUSINESS_RULE");
      });
    });

    it("a picked buy cannot be deleted or shrunk below its pick (422)", async () => {
      const { p, h, b2 } = await navexa();
      await trade(p, sell7(p, h, [{ tradeId: b2.id, quantity: 7 }]));
      await unchanged(async () => {
        expectError(await tr.deleteTrade(key, b2.id), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b2.id, { portfolioId: p, holdingId: h, tradeType: "Buy", tradeDate: "2024-02-01", quantity: 5, price: 2 }), "BUSINESS_RULE");
      });
    });
  });

  describe("a sell beyond the units held", () => {
    it("is 422 BUSINESS_RULE and writes nothing; units bought after the sell's date do not count", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await buy(p, "CBA", 10, 100, "2024-03-01");
      const h = b.holdingId;
      await unchanged(async () => {
        expectError(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-02-01", quantity: 11, price: 100 }), "BUSINESS_RULE");
        expectError(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-01-09", quantity: 1, price: 100 }), "BUSINESS_RULE");
        expectError(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-03-01", quantity: 21, price: 100 }), "BUSINESS_RULE");
        expectError(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "TransferOut", tradeDate: "2024-03-02", quantity: 21 }), "BUSINESS_RULE");
        expectError(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Consolidation", tradeDate: "2024-03-02", quantity: 20 }), "BUSINESS_RULE");
      });
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "20", costBase: "2000" });
      // Exactly the units held is fine.
      expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-03-02", quantity: 20, price: 100 }));
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "0", costBase: "0" });
    });

    it("selling a symbol never held is 422 and creates no holding", async () => {
      const p = await newPortfolio();
      await unchanged(async () => {
        expectError(await tr.createTrade(key, { portfolioId: p, symbol: "WBC", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-02-01", quantity: 1, price: 30 }), "BUSINESS_RULE");
      });
      expect(expectOk(await tr.listHoldings(key, p))).toEqual([]);
    });
  });

  describe("update and delete keep every later sell covered", () => {
    async function scenario() {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const s = await trade(p, { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-03-01", quantity: 8, price: 120 });
      return { p, h: b.holdingId, b, s };
    }
    const buyInput = (p: number, h: number, extra: Json = {}) => ({ portfolioId: p, holdingId: h, tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 100, ...extra });

    it("an update replaces the trade and the holding follows", async () => {
      const { p, h, b } = await scenario();
      const updated = expectOk(await tr.updateTrade(key, b.id, buyInput(p, h, { quantity: 12, price: 90, brokerage: "19.95", notes: "corrected" })), 200);
      expect(updated).toMatchObject({ id: b.id, holdingId: h, quantity: "12", price: "90", brokerage: "19.95", value: "1080", notes: "corrected" });
      expect(expectOk(await tr.getTrade(key, b.id))).toEqual(updated);
      // 12 units cost 1,099.95; 8 sold, 4 left: 1,099.95 × 4 / 12 = 366.65.
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "4", costBase: "366.65" });
    });

    it("an update (fewer units, or a later date) that would leave a later sell short is 422 and writes nothing", async () => {
      const { p, h, b, s } = await scenario();
      await unchanged(async () => {
        expectError(await tr.updateTrade(key, b.id, buyInput(p, h, { quantity: 5 })), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b.id, buyInput(p, h, { tradeDate: "2024-03-02" })), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b.id, buyInput(p, h, { tradeType: "Sell" })), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, s.id, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-03-01", quantity: 11, price: 120 }), "BUSINESS_RULE");
      });
    });

    it("a delete that would leave a later sell short is 422 and writes nothing; deleting the sell first works", async () => {
      const { h, b, s } = await scenario();
      await unchanged(async () => expectError(await tr.deleteTrade(key, b.id), "BUSINESS_RULE"));
      expect(expectOk(await tr.deleteTrade(key, s.id), 204)).toBe(true);
      expectAbsent(await tr.getTrade(key, s.id));
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "10", costBase: "1000" });
      expect(expectOk(await tr.deleteTrade(key, b.id))).toBe(true);
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "0", costBase: "0" });
      expectError(await tr.deleteTrade(key, b.id), "NOT_FOUND");
    });

    it("an update cannot move a trade to another holding or portfolio (422), and writes nothing", async () => {
      const { p, h, b } = await scenario();
      const nab = await buy(p, "NAB", 10, 30, "2024-01-10");
      const q = await newPortfolio();
      await unchanged(async () => {
        expectError(await tr.updateTrade(key, b.id, { portfolioId: p, symbol: "NAB", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 100 }), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b.id, buyInput(p, nab.holdingId)), "BUSINESS_RULE");
        expectError(await tr.updateTrade(key, b.id, { portfolioId: q, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 100 }), "BUSINESS_RULE");
        // A ticker not held anywhere would create a holding: refused the same way.
        expectError(await tr.updateTrade(key, b.id, { portfolioId: p, symbol: "WBC", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 100 }), "BUSINESS_RULE");
      });
      // The same holding named by symbol (any case) is not a move.
      expect(expectOk(await tr.updateTrade(key, b.id, { portfolioId: p, symbol: "cba", exchange: "Asx", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 101 })).price).toBe("101");
    });

    it("updating or deleting a trade that does not exist is NOT_FOUND", async () => {
      const { p, h } = await scenario();
      expectError(await tr.updateTrade(key, 999999, buyInput(p, h)), "NOT_FOUND");
      expectError(await tr.deleteTrade(key, 999999), "NOT_FOUND");
      expectAbsent(await tr.getTrade(key, 999999));
    });
  });

  describe("foreign-currency trades carry an exchange rate into the base currency", () => {
    const aapl = (p: number, tradeDate: string, extra: Json = {}) => ({ portfolioId: p, symbol: "AAPL", exchange: "NASDAQ", tradeType: "Buy", tradeDate, quantity: 5, price: 170, ...extra });

    it("without exchangeRate and without an FX rate: 422 BUSINESS_RULE, no holding created", async () => {
      const p = await newPortfolio();
      await unchanged(async () => expectError(await tr.createTrade(key, aapl(p, "2024-03-08")), "BUSINESS_RULE"));
      expect(await count("holding")).toBe(0);
    });

    it("with exchangeRate given: 5 @ 170 USD at 1.52 is a cost base of 1,292 AUD", async () => {
      const p = await newPortfolio();
      const created = expectOk(await tr.createTrade(key, aapl(p, "2024-03-08", { exchangeRate: "1.52" })));
      expect(created).toMatchObject({ currencyCode: "USD", exchangeRate: "1.52", value: "850" });
      expect(expectOk(await tr.getHolding(key, created.holdingId))).toMatchObject({ currencyCode: "USD", quantity: "5", costBase: "1292" });
    });

    it("uses the FX table's rate on or before the trade date, looking back at most 10 days", async () => {
      const p = await newPortfolio();
      await fxRate(p, "USD", "AUD", "2024-03-08", "1.5");
      await fxRate(p, "USD", "AUD", "2024-04-20", "1.7"); // after every trade below: never used
      for (const [date, rate, costBase] of [
        ["2024-03-08", "1.5", "1275"],
        ["2024-03-10", "1.5", "1275"], // a Sunday: Friday's rate
        ["2024-03-18", "1.5", "1275"], // 10 days later, still in reach
      ] as const) {
        const q = await newPortfolio();
        // Each portfolio of the account sees the account's rates.
        const created = expectOk(await tr.createTrade(key, aapl(q, date)));
        expect({ date, rate: created.exchangeRate }).toEqual({ date, rate });
        expect(expectOk(await tr.getHolding(key, created.holdingId))!.costBase).toBe(costBase);
      }
      await unchanged(async () => {
        expectError(await tr.createTrade(key, aapl(p, "2024-03-19")), "BUSINESS_RULE"); // 11 days after the last rate
        expectError(await tr.createTrade(key, aapl(p, "2024-03-07")), "BUSINESS_RULE"); // before any rate
      });
    });

    it("takes the latest rate when several are in reach", async () => {
      const p = await newPortfolio();
      await fxRate(p, "USD", "AUD", "2024-03-08", "1.5");
      await fxRate(p, "USD", "AUD", "2024-03-12", "1.6");
      expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-11"))).exchangeRate).toBe("1.5");
      expect(expectOk(await tr.createTrade(key, aapl(p, "2024-03-12"))).exchangeRate).toBe("1.6");
      const last = expectOk(await tr.createTrade(key, aapl(p, "2024-03-20")));
      expect(last.exchangeRate).toBe("1.6");
      // 5 × 170 × (1.5 + 1.6 + 1.6) = 3,995.
      expect(expectOk(await tr.getHolding(key, last.holdingId))).toMatchObject({ quantity: "15", costBase: "3995" });
    });

    it("uses the inverse AUD→USD rate too (0.625 AUD→USD is 1.6 USD→AUD)", async () => {
      const p = await newPortfolio();
      await fxRate(p, "AUD", "USD", "2024-03-08", "0.625");
      const created = expectOk(await tr.createTrade(key, aapl(p, "2024-03-11")));
      expect(created.exchangeRate).toBe("1.6");
      expect(expectOk(await tr.getHolding(key, created.holdingId))!.costBase).toBe("1360");
    });

    it("another account's FX rates are not used", async () => {
      const other = await t.newAccount();
      await fxRate(await newPortfolio(other), "USD", "AUD", "2024-03-08", "1.5");
      const p = await newPortfolio();
      await unchanged(async () => expectError(await tr.createTrade(key, aapl(p, "2024-03-08")), "BUSINESS_RULE"));
    });

    it("a base-currency trade with exchangeRate other than 1 is VALIDATION_FAILED on exchangeRate; 1 is accepted", async () => {
      const p = await newPortfolio();
      await unchanged(async () => {
        expectInvalid(await tr.createTrade(key, { portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 100, exchangeRate: "1.1" }), ["exchangeRate"]);
      });
      expect(expectOk(await tr.createTrade(key, { portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 100, exchangeRate: 1 })).exchangeRate).toBe("1");
    });
  });

  describe("validation: VALIDATION_FAILED naming the bad path, nothing written", () => {
    const VALID: Json = { symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 10, price: 100 };
    const BAD: [string, Json, string[]][] = [
      ["a date that is not on the calendar (2024-02-30)", { tradeDate: "2024-02-30" }, ["tradeDate"]],
      // A string that is not YYYY-MM-DD, or has month 13, must be a 400 too, not a 500 (src/lib/dates.ts).
      ["a date in another format (10/01/2024)", { tradeDate: "10/01/2024" }, ["tradeDate"]],
      ["a date with month 13 (2024-13-01)", { tradeDate: "2024-13-01" }, ["tradeDate"]],
      ["a date that is not a date at all", { tradeDate: "yesterday" }, ["tradeDate"]],
      ["zero quantity for a Buy", { quantity: 0 }, ["quantity"]],
      ["a negative quantity for a Buy", { quantity: -5 }, ["quantity"]],
      ["a Buy without quantity", { quantity: undefined }, ["quantity"]],
      ["a Buy without price", { price: undefined }, ["price"]],
      ["a negative price", { price: -1 }, ["price"]],
      ["a price on a Split", { tradeType: "Split", price: 5 }, ["price"]],
      ["brokerage on a Bonus", { tradeType: "Bonus", price: undefined, brokerage: 10 }, ["brokerage"]],
      ["a ReturnOfCapital without an amount per unit", { tradeType: "ReturnOfCapital", price: 0 }, ["price"]],
      ["parcels on a Buy", { parcels: [{ tradeId: 1, quantity: 1 }] }, ["parcels"]],
      ["an acquisitionDate after the tradeDate", { tradeType: "OpeningBalance", acquisitionDate: "2024-02-01" }, ["acquisitionDate"]],
      ["an acquisitionDate on a Buy", { acquisitionDate: "2024-01-01" }, ["acquisitionDate"]],
      ["neither symbol nor holdingId", { symbol: undefined, exchange: undefined }, ["symbol"]],
      ["a symbol without its exchange", { exchange: undefined }, ["symbol"]],
      ["a symbol with a space", { symbol: "C BA" }, ["symbol"]],
      ["more than 8 decimals in quantity", { quantity: "1.123456789" }, ["quantity"]],
      ["more than 8 decimals in price", { price: "0.123456789" }, ["price"]],
      ["more than 4 decimals in brokerage", { brokerage: "9.12345" }, ["brokerage"]],
      ["exponent notation in quantity", { quantity: "1e3" }, ["quantity"]],
      ['a currency code that is not ISO 4217 ("usd")', { currencyCode: "usd" }, ["currencyCode"]],
      ["notes with a NUL character", { notes: "a\u0000b" }, ["notes"]],
      ["several bad fields at once", { tradeDate: "2024-02-30", price: "0.123456789", brokerage: "1.12345", currencyCode: "usd" }, ["tradeDate", "price", "brokerage", "currencyCode"]],
    ];

    it.each(BAD)("rejects %s", async (_label, change, paths) => {
      const p = await newPortfolio();
      await unchanged(async () => expectInvalid(await tr.createTrade(key, { portfolioId: p, ...VALID, ...change }), paths));
    });

    it("rejects the same input on update, leaving the trade as it was", async () => {
      const p = await newPortfolio();
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await unchanged(async () => {
        expectInvalid(await tr.updateTrade(key, b.id, { portfolioId: p, ...VALID, tradeDate: "2024-02-30" }), ["tradeDate"]);
        expectInvalid(await tr.updateTrade(key, b.id, { portfolioId: p, ...VALID, quantity: "1.123456789" }), ["quantity"]);
      });
    });

    it("rejects an unknown tradeType (GraphQL: the enum refuses it)", async () => {
      const p = await newPortfolio();
      await unchanged(async () => {
        const o = await tr.createTrade(key, { portfolioId: p, ...VALID, tradeType: "Purchase" });
        if (tr.name === "REST") expectInvalid(o, ["tradeType"]);
        else {
          expect(o.ok).toBe(false);
          if (!o.ok) expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
          expect(o.raw).toContain("tradeType");
        }
      });
    });

    it("accepts exactly 8 decimals in quantity and price, and decimal strings", async () => {
      const p = await newPortfolio();
      const created = expectOk(await tr.createTrade(key, { portfolioId: p, ...VALID, quantity: "1.12345678", price: "0.00000001" }));
      expect(created).toMatchObject({ quantity: "1.12345678", price: "0.00000001" });
    });

    it("rejects a portfolio that does not exist with NOT_FOUND", async () => {
      await unchanged(async () => expectError(await tr.createTrade(key, { portfolioId: 999999, ...VALID }), "NOT_FOUND"));
    });
  });

  describe("a holding's trades are listed oldest first; same day in entry order", () => {
    it("orders by trade date, then by entry", async () => {
      const p = await newPortfolio();
      const t1 = await buy(p, "CBA", 1, 100, "2024-03-01");
      const t2 = await buy(p, "CBA", 2, 100, "2024-01-01");
      const t3 = await buy(p, "CBA", 3, 100, "2024-02-01");
      const t4 = await buy(p, "CBA", 4, 100, "2024-01-01");
      await buy(p, "NAB", 5, 30, "2023-01-01"); // another holding's trade is not listed
      const list = expectOk(await tr.holdingTrades(key, t1.holdingId))!;
      expect(list.map((x) => x.id)).toEqual([t2.id, t4.id, t3.id, t1.id]);
      expect(list[0]).toEqual(expectOk(await tr.getTrade(key, t2.id)));
    });

    it("a same-day sell entered before a buy cannot use that buy's units", async () => {
      const p = await newPortfolio();
      const b1 = await buy(p, "CBA", 10, 5, "2024-01-01");
      const h = b1.holdingId;
      const sell = expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-02-01", quantity: 10, price: 6 }));
      const b2 = expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Buy", tradeDate: "2024-02-01", quantity: 10, price: 7 }));
      expect(expectOk(await tr.getHolding(key, h))).toMatchObject({ quantity: "10", costBase: "70" });
      expect(expectOk(await tr.holdingTrades(key, h))!.map((x) => x.id)).toEqual([b1.id, sell.id, b2.id]);
      // Had the same-day buy come first, 20 units would be there to sell.
      await unchanged(async () => {
        expectError(await tr.updateTrade(key, sell.id, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-02-01", quantity: 20, price: 6 }), "BUSINESS_RULE");
      });
      // A later same-day sell may use them.
      expectOk(await tr.createTrade(key, { portfolioId: p, holdingId: h, tradeType: "Sell", tradeDate: "2024-02-01", quantity: 10, price: 6 }));
      expect(expectOk(await tr.getHolding(key, h))!.quantity).toBe("0");
    });

    it("an unknown or foreign holding lists nothing (REST 404, GraphQL null)", async () => {
      const other = await t.newAccount();
      const foreign = await buy(await newPortfolio(other), "CBA", 1, 100, "2024-01-01", {}, other);
      expectAbsent(await tr.holdingTrades(key, foreign.holdingId));
      expectAbsent(await tr.holdingTrades(key, 999999));
    });
  });
});

describe("REST specifics", () => {
  it("GET /v1/trades/{t} answers exactly the documented fields, numbers as JSON numbers", async () => {
    const p = await newPortfolio();
    const b = await buy(p, "CBA", "10.5", "152.39", "2024-01-10", { brokerage: "9.95" });
    const res = await t.http.get(`/v1/trades/${b.id}`).set("authorization", key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ["acquisitionDate", "brokerage", "currencyCode", "exchange", "exchangeRate", "hasAttachment", "holdingId", "id", "notes", "parcels", "portfolioId", "price", "quantity", "sourceId", "symbol", "tradeDate", "tradeType", "value"].sort(),
    );
    // Exact digits on the wire: 10.5 × 152.39 = 1600.095.
    expect(res.text).toContain('"quantity":10.5');
    expect(res.text).toContain('"price":152.39');
    expect(res.text).toContain('"value":1600.095');
    expect(res.text).toContain('"brokerage":9.95');
  });

  it("GET /v1/holdings/{h}/trades pages with limit and offset, and rejects bad ones naming them", async () => {
    const p = await newPortfolio();
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await buy(p, "CBA", i, 100, `2024-01-0${i}`)).id);
    const h = (await t.http.get(`/v1/trades/${ids[0]}`).set("authorization", key)).body.holdingId;
    const page = async (q: string) => {
      const res = await t.http.get(`/v1/holdings/${h}/trades?${q}`).set("authorization", key);
      expect(res.status).toBe(200);
      return (res.body as Json[]).map((x) => x.id);
    };
    expect(await page("")).toEqual(ids);
    expect(await page("limit=2")).toEqual(ids.slice(0, 2));
    expect(await page("limit=2&offset=2")).toEqual(ids.slice(2, 4));
    expect(await page("offset=4")).toEqual(ids.slice(4));
    expect(await page("offset=5")).toEqual([]);
    for (const [q, path] of [["limit=0", "limit"], ["limit=5001", "limit"], ["limit=abc", "limit"], ["offset=-1", "offset"], ["limit=1.5", "limit"]]) {
      const res = await t.http.get(`/v1/holdings/${h}/trades?${q}`).set("authorization", key);
      expect({ q, status: res.status, code: res.body.code }).toEqual({ q, status: 400, code: "VALIDATION_FAILED" });
      expect(res.body.errors.map((e: FieldError) => e.path)).toContain(path);
    }
  });

  it("bad trade ids: abc and 0 → 400 naming tradeId, 999999 → 404", async () => {
    for (const [id, status] of [["abc", 400], ["0", 400], ["999999", 404]] as const) {
      for (const req of [t.http.get(`/v1/trades/${id}`), t.http.delete(`/v1/trades/${id}`)]) {
        const res = await req.set("authorization", key);
        expect({ id, status: res.status }).toEqual({ id, status });
        if (status === 400) expect(res.body.errors).toEqual([{ path: "tradeId", message: expect.any(String) }]);
      }
    }
  });

  it("POST /v1/trades answers 201 with the trade; a body that is not JSON is 415 naming JSON", async () => {
    const p = await newPortfolio();
    const res = await t.http.post("/v1/trades").set("authorization", key).send({ portfolioId: p, symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 1 });
    expect(res.status).toBe(201);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    await unchanged(async () => {
      const bad = await t.http.post("/v1/trades").set("authorization", key).set("content-type", "text/plain").send("Buy CBA");
      expect(bad.status).toBe(415);
      expect(bad.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      expect(bad.body.detail).toContain("application/json");
    });
  });
});

describe("GraphQL specifics", () => {
  it("a missing tradeDate is refused by the schema (BAD_USER_INPUT), writing nothing", async () => {
    const p = await newPortfolio();
    await unchanged(async () => {
      const res = await t.gql(key, `mutation($input: TradeInput!) { createTrade(input: $input) { id } }`, {
        input: { portfolioId: String(p), symbol: "CBA", exchange: "ASX", tradeType: "Buy", quantity: "1", price: "1" },
      });
      expect(res.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    });
  });

  it("a service validation failure carries VALIDATION_FAILED with the paths in extensions.errors", async () => {
    const p = await newPortfolio();
    const res = await t.gql(key, `mutation($input: TradeInput!) { createTrade(input: $input) { id } }`, {
      input: { portfolioId: String(p), symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-02-30", quantity: "0", price: "1" },
    });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      path: ["createTrade"],
      extensions: { code: "VALIDATION_FAILED", errors: expect.arrayContaining([{ path: "tradeDate", message: expect.any(String) }, { path: "quantity", message: expect.any(String) }]) },
    });
  });

  it("portfolio { holdings { trades } } shows each holding's trades oldest first", async () => {
    const p = await newPortfolio();
    const c2 = await buy(p, "CBA", 2, 100, "2024-02-01");
    const c1 = await buy(p, "CBA", 1, 100, "2024-01-01");
    const n1 = await buy(p, "NAB", 3, 30, "2024-01-05");
    const res = await t.gql(key, `query($id: ID!) { portfolio(id: $id) { holdings { symbol quantity trades { id tradeDate quantity } } } }`, { id: String(p) });
    expect(res.body).toEqual({
      data: {
        portfolio: {
          holdings: [
            { symbol: "CBA", quantity: "3", trades: [{ id: String(c1.id), tradeDate: "2024-01-01", quantity: "1" }, { id: String(c2.id), tradeDate: "2024-02-01", quantity: "2" }] },
            { symbol: "NAB", quantity: "3", trades: [{ id: String(n1.id), tradeDate: "2024-01-05", quantity: "3" }] },
          ],
        },
      },
    });
  });
});

// =============================================================================================
// Tenancy and permissions over every route of holdings, trades, import and attachments.
// =============================================================================================

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63f8cfc0000003010100c9fe92ef0000000049454e44ae426082", "hex");

/** One portfolio's ids: a CBA holding with one buy that has an attachment. */
interface Ids {
  portfolioId: number;
  holdingId: number;
  tradeId: number;
}

interface World {
  owner: string;
  other: string;
  /** Read client key, assigned `readable`. */
  readKey: string;
  /** ReadWrite client key, assigned `writable`. */
  writeKey: string;
  readable: Ids;
  writable: Ids;
  /** A portfolio of the owner assigned to no client. */
  unassigned: Ids;
}

async function seedPortfolio(k: string): Promise<Ids> {
  const portfolioId = await newPortfolio(k);
  const b = await buy(portfolioId, "CBA", 10, 100, "2024-01-10", {}, k);
  const up = await t.http.put(`/v1/trades/${b.id}/attachment`).set("authorization", k).attach("file", PNG, { filename: "note.png", contentType: "image/png" });
  expect(up.status).toBe(200);
  return { portfolioId, holdingId: b.holdingId, tradeId: b.id };
}

async function world(): Promise<World> {
  const owner = key;
  const readable = await seedPortfolio(owner);
  const writable = await seedPortfolio(owner);
  const unassigned = await seedPortfolio(owner);
  return {
    owner,
    other: await t.newAccount(),
    readKey: await t.newClientKey(owner, "Read", [readable.portfolioId]),
    writeKey: await t.newClientKey(owner, "ReadWrite", [writable.portfolioId]),
    readable,
    writable,
    unassigned,
  };
}

interface Route {
  name: string;
  write: boolean;
  /** Success status over REST (GraphQL: 200). */
  ok: number;
  call(k: string, ids: Ids): Promise<Outcome<unknown>>;
}

const restRaw = (req: Test) => restCall(req, (b) => b);
/** A binary answer: its bytes on success, the problem+json outcome otherwise. */
async function restFile(req: Test): Promise<Outcome<Buffer>> {
  const res = await req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on("data", (c: Buffer) => chunks.push(c));
    r.on("end", () => cb(null, Buffer.concat(chunks)));
  });
  const bytes = res.body as Buffer;
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(bytes.toString("utf8"));
    return { ok: false, transport: "REST", status: res.status, code: problem.code, errors: problem.errors, raw: bytes.toString("utf8") };
  }
  return { ok: true, transport: "REST", status: res.status, value: bytes, raw: "" };
}
const tradeBody = (ids: Ids, extra: Json = {}) => ({ portfolioId: ids.portfolioId, holdingId: ids.holdingId, tradeType: "Buy", tradeDate: "2024-02-01", quantity: 1, price: 101, ...extra });

const REST_ROUTES: Route[] = [
  { name: "GET /v1/portfolios/{p}/holdings", write: false, ok: 200, call: (k, i) => restRaw(t.http.get(`/v1/portfolios/${i.portfolioId}/holdings`).set("authorization", k)) },
  {
    name: "POST /v1/portfolios/{p}/holdings",
    write: true,
    ok: 201,
    call: (k, i) => restRaw(t.http.post(`/v1/portfolios/${i.portfolioId}/holdings`).set("authorization", k).send({ symbol: "MYFUND", name: "My fund" })),
  },
  { name: "GET /v1/holdings/{h}", write: false, ok: 200, call: (k, i) => restRaw(t.http.get(`/v1/holdings/${i.holdingId}`).set("authorization", k)) },
  { name: "PUT /v1/holdings/{h}", write: true, ok: 200, call: (k, i) => restRaw(t.http.put(`/v1/holdings/${i.holdingId}`).set("authorization", k).send({ notes: "changed" })) },
  { name: "DELETE /v1/holdings/{h}", write: true, ok: 204, call: (k, i) => restRaw(t.http.delete(`/v1/holdings/${i.holdingId}`).set("authorization", k)) },
  {
    name: "PUT /v1/holdings/{h}/symbol",
    write: true,
    ok: 200,
    call: (k, i) => restRaw(t.http.put(`/v1/holdings/${i.holdingId}/symbol`).set("authorization", k).send({ symbol: "CBAX", exchange: "ASX" })),
  },
  { name: "GET /v1/holdings/{h}/symbol-changes", write: false, ok: 200, call: (k, i) => restRaw(t.http.get(`/v1/holdings/${i.holdingId}/symbol-changes`).set("authorization", k)) },
  { name: "GET /v1/holdings/{h}/trades", write: false, ok: 200, call: (k, i) => restRaw(t.http.get(`/v1/holdings/${i.holdingId}/trades`).set("authorization", k)) },
  { name: "POST /v1/trades (holdingId)", write: true, ok: 201, call: (k, i) => restRaw(t.http.post("/v1/trades").set("authorization", k).send(tradeBody(i))) },
  {
    name: "POST /v1/trades (symbol)",
    write: true,
    ok: 201,
    call: (k, i) => restRaw(t.http.post("/v1/trades").set("authorization", k).send(tradeBody(i, { holdingId: undefined, symbol: "NAB", exchange: "ASX" }))),
  },
  { name: "GET /v1/trades/{t}", write: false, ok: 200, call: (k, i) => restRaw(t.http.get(`/v1/trades/${i.tradeId}`).set("authorization", k)) },
  { name: "PUT /v1/trades/{t}", write: true, ok: 200, call: (k, i) => restRaw(t.http.put(`/v1/trades/${i.tradeId}`).set("authorization", k).send(tradeBody(i, { tradeDate: "2024-01-10" }))) },
  { name: "DELETE /v1/trades/{t}", write: true, ok: 204, call: (k, i) => restRaw(t.http.delete(`/v1/trades/${i.tradeId}`).set("authorization", k)) },
  {
    name: "POST /v1/portfolios/{p}/trades/import",
    write: true,
    ok: 201,
    call: (k, i) => restRaw(t.http.post(`/v1/portfolios/${i.portfolioId}/trades/import`).set("authorization", k).send([{ symbol: "WBC", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 30 }])),
  },
  {
    name: "POST /v1/portfolios/{p}/trades/import?dryRun=true",
    write: true,
    ok: 200,
    call: (k, i) =>
      restRaw(t.http.post(`/v1/portfolios/${i.portfolioId}/trades/import?dryRun=true`).set("authorization", k).send([{ symbol: "WBC", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 30 }])),
  },
  {
    name: "PUT /v1/trades/{t}/attachment",
    write: true,
    ok: 200,
    call: (k, i) => restRaw(t.http.put(`/v1/trades/${i.tradeId}/attachment`).set("authorization", k).attach("file", PNG, { filename: "new.png", contentType: "image/png" })),
  },
  { name: "GET /v1/trades/{t}/attachment", write: false, ok: 200, call: (k, i) => restFile(t.http.get(`/v1/trades/${i.tradeId}/attachment`).set("authorization", k)) },
  { name: "DELETE /v1/trades/{t}/attachment", write: true, ok: 204, call: (k, i) => restRaw(t.http.delete(`/v1/trades/${i.tradeId}/attachment`).set("authorization", k)) },
];

const gqlRaw = (field: string, query: string, variables: (i: Ids) => Json): Route["call"] => (k, i) => gqlCall(k, query, variables(i), field, (d) => d);

const GRAPHQL_ROUTES: Route[] = [
  { name: "portfolio { holdings }", write: false, ok: 200, call: gqlRaw("portfolio", `query($id: ID!) { portfolio(id: $id) { holdings { id trades { id } } } }`, (i) => ({ id: String(i.portfolioId) })) },
  { name: "holding(id)", write: false, ok: 200, call: gqlRaw("holding", `query($id: ID!) { holding(id: $id) { id quantity trades { id } } }`, (i) => ({ id: String(i.holdingId) })) },
  { name: "trade(id)", write: false, ok: 200, call: gqlRaw("trade", `query($id: ID!) { trade(id: $id) { id hasAttachment } }`, (i) => ({ id: String(i.tradeId) })) },
  { name: "createTrade", write: true, ok: 200, call: gqlRaw("createTrade", `mutation($input: TradeInput!) { createTrade(input: $input) { id } }`, (i) => ({ input: tradeBody(i) })) },
  {
    name: "updateTrade",
    write: true,
    ok: 200,
    call: gqlRaw("updateTrade", `mutation($id: ID!, $input: TradeInput!) { updateTrade(id: $id, input: $input) { id } }`, (i) => ({ id: String(i.tradeId), input: tradeBody(i, { tradeDate: "2024-01-10" }) })),
  },
  { name: "deleteTrade", write: true, ok: 200, call: gqlRaw("deleteTrade", `mutation($id: ID!) { deleteTrade(id: $id) }`, (i) => ({ id: String(i.tradeId) })) },
  {
    name: "createHolding",
    write: true,
    ok: 200,
    call: gqlRaw("createHolding", `mutation($p: ID!) { createHolding(portfolioId: $p, input: { symbol: "MYFUND", name: "My fund" }) { id } }`, (i) => ({ p: String(i.portfolioId) })),
  },
  { name: "updateHolding", write: true, ok: 200, call: gqlRaw("updateHolding", `mutation($id: ID!) { updateHolding(id: $id, input: { notes: "changed" }) { id } }`, (i) => ({ id: String(i.holdingId) })) },
  { name: "deleteHolding", write: true, ok: 200, call: gqlRaw("deleteHolding", `mutation($id: ID!) { deleteHolding(id: $id) }`, (i) => ({ id: String(i.holdingId) })) },
  {
    name: "changeHoldingSymbol",
    write: true,
    ok: 200,
    call: gqlRaw("changeHoldingSymbol", `mutation($id: ID!) { changeHoldingSymbol(id: $id, symbol: "CBAX", exchange: "ASX") { id symbol } }`, (i) => ({ id: String(i.holdingId) })),
  },
];

/** Another account's (or an unassigned portfolio's) ids: REST 404, GraphQL reads null, mutations NOT_FOUND. */
function expectHidden(route: Route, o: Outcome<unknown>): void {
  if (o.transport === "GraphQL" && !route.write) expect(expectOk(o)).toBeNull();
  else expectError(o, "NOT_FOUND");
}

describe("tenancy and permissions", () => {
  describe.each([...REST_ROUTES.map((r) => ({ transport: "REST", ...r })), ...GRAPHQL_ROUTES.map((r) => ({ transport: "GraphQL", ...r }))])("$transport $name", (route) => {
    it("hides another account's ids (404 / null / NOT_FOUND) and changes nothing", async () => {
      const w = await world();
      await unchanged(async () => expectHidden(route, await route.call(w.other, w.writable)));
    });

    it(route.write ? "refuses a Read client key with 403 FORBIDDEN, writing nothing" : "lets a Read client key read its own portfolio", async () => {
      const w = await world();
      if (route.write) {
        await unchanged(async () => expectError(await route.call(w.readKey, w.readable), "FORBIDDEN"));
      } else {
        const o = await route.call(w.readKey, w.readable);
        expect(expectOk(o, route.ok)).not.toBeNull();
        // ...but not a portfolio of the account that is not assigned to it.
        expectHidden(route, await route.call(w.readKey, w.unassigned));
      }
    });

    it("lets a ReadWrite client key act on its own portfolio, and answers 404 on one not assigned to it", async () => {
      const w = await world();
      await unchanged(async () => expectHidden(route, await route.call(w.writeKey, w.unassigned)));
      const o = await route.call(w.writeKey, w.writable);
      expect(expectOk(o, route.ok)).not.toBeNull();
    });
  });
});
