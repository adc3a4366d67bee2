import { newPortfolio, newTrade } from "../factories";
import { useTestApp } from "../support/app";
import { chart, FakeMarket } from "../support/fake-market";
import {
  expectError,
  expectInvalid,
  expectInvalidOrBadUserInput,
  expectOk,
  gqlId,
  restCall,
  withApp,
  type Json,
  type Outcome,
  type TransportName,
} from "../support/outcomes";

/**
 * Splits become pending corporate actions (docs/data.md §3): a refresh offers each provider split
 * to every holding with units at the start of its date; applying one records the ledger's Split or
 * Consolidation trade (units after = units × n ÷ d), dismissing one keeps it out of the ledger, and
 * neither is offered again. Every story runs over REST and GraphQL; setup goes through REST.
 */
const market = new FakeMarket();
const t = useTestApp({ marketData: { provider: "yahoo", url: "http://yahoo.test", http: market.http } });
const { gqlCall, unchanged } = withApp(() => t);

interface Action {
  id: number;
  holdingId: number;
  symbol: string;
  exchange: string;
  type: string;
  date: string;
  numerator: number;
  denominator: number;
  status: string;
  tradeId: number | null;
}

const FIELDS = "id holdingId symbol exchange type date numerator denominator status tradeId";
const fromGql = (a: Json): Action =>
  ({
    ...a,
    id: gqlId(a.id),
    holdingId: gqlId(a.holdingId),
    tradeId: a.tradeId === null ? null : gqlId(a.tradeId),
  }) as Action;

interface Transport {
  name: TransportName;
  list(key: string, portfolioId: number | string, status?: string): Promise<Outcome<Action[]>>;
  apply(key: string, id: number | string): Promise<Outcome<Action>>;
  dismiss(key: string, id: number | string): Promise<Outcome<Action>>;
}

const rest: Transport = {
  name: "REST",
  list: (key, p, status) =>
    restCall(
      t.http.get(`/v1/portfolios/${p}/corporate-actions${status ? `?status=${status}` : ""}`).set("authorization", key),
      200,
    ),
  apply: (key, id) => restCall(t.http.post(`/v1/corporate-actions/${id}/apply`).set("authorization", key), 201),
  dismiss: (key, id) => restCall(t.http.post(`/v1/corporate-actions/${id}/dismiss`).set("authorization", key), 200),
};

const graphql: Transport = {
  name: "GraphQL",
  list: (key, p, status) =>
    gqlCall(
      key,
      `query($p: ID!, $s: CorporateActionStatus) { corporateActions(portfolioId: $p, status: $s) { ${FIELDS} } }`,
      { p: String(p), s: status ?? null },
      "corporateActions",
      (l: Json[]) => l.map(fromGql),
    ),
  apply: (key, id) =>
    gqlCall(
      key,
      `mutation($id: ID!) { applyCorporateAction(id: $id) { ${FIELDS} } }`,
      { id: String(id) },
      "applyCorporateAction",
      fromGql,
    ),
  dismiss: (key, id) =>
    gqlCall(
      key,
      `mutation($id: ID!) { dismissCorporateAction(id: $id) { ${FIELDS} } }`,
      { id: String(id) },
      "dismissCorporateAction",
      fromGql,
    ),
};

let key: string;
let portfolioId: number;

/** CBA.ASX closes around the splits (Yahoo's answer: every split up to today is in it). */
const cba = (splits: [string, number, number][]) =>
  market.answer("/v8/finance/chart/CBA.AX", {
    status: 200,
    body: chart(
      "CBA.AX",
      "AUD",
      [
        ["2024-06-03", 60],
        ["2024-06-28", 61],
        ["2024-07-31", 62],
      ],
      { splits },
    ),
  });

const trade = (tradeType: string, tradeDate: string, quantity: number, extra: Json = {}, p = portfolioId, k = key) =>
  newTrade(t, k, {
    portfolioId: p,
    symbol: "CBA",
    exchange: "ASX",
    tradeType,
    tradeDate,
    quantity,
    ...(tradeType === "Buy" || tradeType === "Sell" ? { price: 10 } : {}),
    ...extra,
  });

/** A refresh as a request starts it (202), waited for; answers the run's count of actions offered. */
const refresh = async (k = key) => {
  await t.http.post("/v1/market-data/refresh").set("authorization", k).send({}).expect(202);
  await t.marketData.idle();
  const status = await t.http.get("/v1/market-data/status").set("authorization", k).expect(200);
  return status.body.lastRun.counts.corporateActions as number;
};
const holding = async (holdingId: number) =>
  (await t.http.get(`/v1/holdings/${holdingId}`).set("authorization", key).expect(200)).body as {
    quantity: number;
    costBase: number;
    pendingCorporateActions: number;
  };
const holdingOn = async (date: string) =>
  (await t.http.get(`/v1/portfolios/${portfolioId}/holdings?date=${date}`).set("authorization", key).expect(200))
    .body[0] as { pendingCorporateActions: number };
const pending = async (k = key, p = portfolioId) => expectOk(await rest.list(k, p, "Pending"));

beforeEach(async () => {
  market.asked.length = 0;
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
});

describe.each([rest, graphql])("corporate actions over $name", (tr) => {
  it("a 2:1 split after the buy is offered once; applying it records +100 units at the same cost", async () => {
    const buy = await trade("Buy", "2024-06-03", 100);
    cba([["2024-06-20", 2, 1]]);
    expect(await refresh()).toBe(1);
    const offered = expectOk(await tr.list(key, portfolioId));
    expect(offered).toEqual([
      {
        id: expect.any(Number),
        holdingId: buy.holdingId,
        symbol: "CBA",
        exchange: "ASX",
        type: "Split",
        date: "2024-06-20",
        numerator: 2,
        denominator: 1,
        status: "Pending",
        tradeId: null,
      },
    ]);
    expect(expectOk(await tr.list(key, portfolioId, "Applied"))).toEqual([]);
    // Pending changes nothing but says so on the holding, valued on or after its date only.
    expect(await holding(buy.holdingId)).toMatchObject({ quantity: 100, costBase: 1000, pendingCorporateActions: 1 });
    expect(await holdingOn("2024-06-19")).toMatchObject({ pendingCorporateActions: 0 });
    expect(await holdingOn("2024-06-20")).toMatchObject({ pendingCorporateActions: 1 });

    const applied = expectOk(await tr.apply(key, offered[0].id), 201);
    expect(applied).toEqual({ ...offered[0], status: "Applied", tradeId: expect.any(Number) });
    const recorded = (await t.http.get(`/v1/trades/${applied.tradeId}`).set("authorization", key).expect(200)).body;
    expect(recorded).toMatchObject({
      holdingId: buy.holdingId,
      tradeType: "Split",
      tradeDate: "2024-06-20",
      quantity: 100,
      price: 0,
    });
    expect(await holding(buy.holdingId)).toMatchObject({ quantity: 200, costBase: 1000, pendingCorporateActions: 0 });
    expect(expectOk(await tr.list(key, portfolioId, "Applied"))).toEqual([applied]);

    // Settled: applying or dismissing it again is a conflict, and writes nothing.
    await unchanged(async () => {
      expectError(await tr.apply(key, applied.id), "CONFLICT");
      expectError(await tr.dismiss(key, applied.id), "CONFLICT");
    });
    // A later refresh offers it no more.
    expect(await refresh()).toBe(0);
    expect(expectOk(await tr.list(key, portfolioId))).toEqual([applied]);
  });

  it("a 1:10 consolidation removes nine units in ten", async () => {
    const buy = await trade("Buy", "2024-06-03", 1000);
    cba([["2024-06-20", 1, 10]]);
    await refresh();
    const [offered] = await pending();
    expect(offered).toMatchObject({ type: "Consolidation", numerator: 1, denominator: 10 });
    const applied = expectOk(await tr.apply(key, offered.id), 201);
    const recorded = (await t.http.get(`/v1/trades/${applied.tradeId}`).set("authorization", key).expect(200)).body;
    // Stored signed, as every trade of units leaving.
    expect(recorded).toMatchObject({ tradeType: "Consolidation", tradeDate: "2024-06-20", quantity: -900 });
    expect(await holding(buy.holdingId)).toMatchObject({ quantity: 100, costBase: 10000 });
  });

  it("dismissing keeps it out of the ledger; again answers it unchanged; it is never applied nor offered again", async () => {
    const buy = await trade("Buy", "2024-06-03", 100);
    cba([
      ["2024-06-20", 2, 1],
      ["2024-07-15", 3, 1],
    ]);
    expect(await refresh()).toBe(2);
    const [first, second] = await pending();
    expect(await holding(buy.holdingId)).toMatchObject({ pendingCorporateActions: 2 });
    const dismissed = expectOk(await tr.dismiss(key, first.id), 200);
    expect(dismissed).toEqual({ ...first, status: "Dismissed" });
    expect(await holding(buy.holdingId)).toMatchObject({ pendingCorporateActions: 1 });
    await unchanged(async () => {
      expect(expectOk(await tr.dismiss(key, first.id), 200)).toEqual(dismissed);
      expectError(await tr.apply(key, first.id), "CONFLICT");
    });
    // The second applies to the units held at its date: 100 (the first was dismissed) → 300.
    expect(expectOk(await tr.apply(key, second.id), 201)).toMatchObject({ status: "Applied" });
    expect(await holding(buy.holdingId)).toMatchObject({ quantity: 300 });
    expect(await refresh()).toBe(0);
    expect(expectOk(await tr.list(key, portfolioId)).map((a) => a.status)).toEqual(["Dismissed", "Applied"]);
    expect(expectOk(await tr.list(key, portfolioId, "Dismissed"))).toEqual([dismissed]);
  });

  it("only holdings with units at the start of the date are offered one, in every account", async () => {
    // Units from the day before: offered. Bought on the date itself, or sold out before it: none.
    const held = await trade("Buy", "2024-06-19", 10);
    const other = await newPortfolio(t, key, { name: "Bought on the day" });
    await trade("Buy", "2024-06-20", 10, {}, other);
    const soldOut = await newPortfolio(t, key, { name: "Sold out" });
    await trade("Buy", "2024-06-03", 10, {}, soldOut);
    await trade("Sell", "2024-06-10", 10, {}, soldOut);
    const stranger = await t.newAccount();
    const theirs = await newPortfolio(t, stranger);
    await trade("Buy", "2024-06-03", 5, {}, theirs, stranger);
    cba([["2024-06-20", 2, 1]]);
    expect(await refresh()).toBe(2);
    expect(expectOk(await tr.list(key, portfolioId)).map((a) => a.holdingId)).toEqual([held.holdingId]);
    expect(expectOk(await tr.list(key, other))).toEqual([]);
    expect(expectOk(await tr.list(key, soldOut))).toEqual([]);
    expect(await pending(stranger, theirs)).toHaveLength(1);
  });

  it("a Split the user recorded on the date suppresses the offer", async () => {
    await trade("Buy", "2024-06-03", 100);
    await trade("Split", "2024-06-20", 100);
    cba([["2024-06-20", 2, 1]]);
    expect(await refresh()).toBe(0);
    expect(expectOk(await tr.list(key, portfolioId))).toEqual([]);
  });

  it("applying one whose units are gone since is refused (422) and it stays pending", async () => {
    const buy = await trade("Buy", "2024-06-03", 100);
    cba([["2024-06-20", 2, 1]]);
    await refresh();
    const [offered] = await pending();
    await t.http.delete(`/v1/trades/${buy.id}`).set("authorization", key).expect(204);
    await unchanged(async () => expectError(await tr.apply(key, offered.id), "BUSINESS_RULE"));
    expect(await pending()).toEqual([offered]);
  });

  it("another account's portfolio and actions are not found; a Read client key may list but not settle", async () => {
    await trade("Buy", "2024-06-03", 100);
    cba([["2024-06-20", 2, 1]]);
    await refresh();
    const [offered] = await pending();
    const stranger = await t.newAccount();
    const reader = await t.newClientKey(key, "Read", [portfolioId]);
    await unchanged(async () => {
      expectError(await tr.list(stranger, portfolioId), "NOT_FOUND");
      expectError(await tr.apply(stranger, offered.id), "NOT_FOUND");
      expectError(await tr.dismiss(stranger, offered.id), "NOT_FOUND");
      expect(expectOk(await tr.list(reader, portfolioId))).toEqual([offered]);
      expectError(await tr.apply(reader, offered.id), "FORBIDDEN");
      expectError(await tr.dismiss(reader, offered.id), "FORBIDDEN");
    });
  });

  it("bad ids and a bad status are refused (400) and write nothing", async () => {
    await trade("Buy", "2024-06-03", 100);
    cba([["2024-06-20", 2, 1]]);
    await refresh();
    await unchanged(async () => {
      expectInvalid(await tr.apply(key, "abc"), "corporateActionId");
      expectInvalid(await tr.dismiss(key, "0"), "corporateActionId");
      expectInvalid(await tr.list(key, "1.5"), "portfolioId");
      expectInvalidOrBadUserInput(await tr.list(key, portfolioId, "Done"), "status");
      expectError(await tr.apply(key, 2147483647), "NOT_FOUND");
    });
  });
});

it("REST: applying answers Location of the trade it recorded", async () => {
  await trade("Buy", "2024-06-03", 100);
  cba([["2024-06-20", 2, 1]]);
  await refresh();
  const [offered] = await pending();
  const res = await t.http.post(`/v1/corporate-actions/${offered.id}/apply`).set("authorization", key).expect(201);
  expect(res.headers.location).toBe(`/v1/trades/${res.body.tradeId}`);
});
