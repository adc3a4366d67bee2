import { newPortfolio, newTrade } from "../factories";
import { useTestApp } from "../support/app";
import { chart, FakeMarket, type Bar } from "../support/fake-market";
import { expectOk, type Json } from "../support/outcomes";
import { performanceTransports } from "./analytics.transports";
import { holdingsApi } from "./holdings.transports";

/**
 * Classification arrives with the market data (docs/data.md §3): a refresh fills each holding's
 * type and asset class from the provider's instrument type, and its sector and industry from the
 * ASX's list of listed companies (GICS), in every account, where the user has not set them.
 * Holdings are read, edited and grouped over REST and GraphQL.
 */
const market = new FakeMarket();
const t = useTestApp({
  marketData: { provider: "yahoo", fxProvider: "none", url: "http://yahoo.test", http: market.http },
});
const { TRANSPORTS, rest } = holdingsApi(t, () => key);
const performance = performanceTransports(() => t);

let key: string;
let portfolioId: number;

const BARS: Bar[] = [
  ["2024-06-27", 11],
  ["2024-06-28", 12],
  ["2024-07-01", 12],
];

beforeEach(async () => {
  market.asked.length = 0;
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
  market
    .answer("/v8/finance/chart/CBA.AX", { status: 200, body: chart("CBA.AX", "AUD", BARS) })
    .answer("/v8/finance/chart/VAS.AX", { status: 200, body: chart("VAS.AX", "AUD", BARS, {}, "ETF") })
    // Not in the master list: its holding starts as a Stock, the provider says ETF.
    .answer("/v8/finance/chart/GHHF.AX", { status: 200, body: chart("GHHF.AX", "AUD", BARS, {}, "ETF") });
});

const buy = (symbol: string, extra: Json = {}, k = key, p = portfolioId) =>
  newTrade(t, k, {
    portfolioId: p,
    symbol,
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-06-25",
    quantity: 100,
    price: 10,
    ...extra,
  });

/**
 * Refreshes the named securities (default: those of CBA, GHHF and VAS that are held), one run
 * each, and answers the holdings the runs classified. One security a run: a run refreshing
 * several at once adds their counts with `+= await`, which can lose one (refresh.ts).
 */
const refresh = async (...symbols: string[]) => {
  let classified = 0;
  for (const symbol of symbols.length ? symbols : ["CBA", "GHHF", "VAS"]) {
    const held = await t.db.sql(`SELECT 1 FROM holding WHERE symbol = $1 AND exchange = 'ASX'`, [symbol]);
    if (held.length === 0) continue;
    const securities = [{ symbol, exchange: "ASX" }];
    await t.http.post("/v1/market-data/refresh").set("authorization", key).send({ securities }).expect(202);
    await t.marketData.idle();
    const status = (await t.http.get("/v1/market-data/status").set("authorization", key).expect(200)).body;
    expect(status.lastRun.status).toBe("Succeeded");
    classified += status.lastRun.counts.classified as number;
  }
  return classified;
};

/** Type and classification of each holding of the portfolio, by symbol, as a transport reads them. */
async function classes(tr = TRANSPORTS[0], k = key, p = portfolioId) {
  const list = expectOk(await tr.list(k, p, { includeClosed: true }))!;
  return Object.fromEntries(list.map((h) => [h.symbol, { holdingType: h.holdingType, ...h.classification }]));
}

const userClassified = async (holdingId: number) =>
  (await t.db.sql<{ uc: string[] }>(`SELECT user_classified AS uc FROM holding WHERE id = $1`, [holdingId]))[0].uc;
const versionOf = async (p: number) =>
  (await t.db.sql<{ v: string }>(`SELECT version::text AS v FROM portfolio_version WHERE portfolio_id = $1`, [p]))[0]
    ?.v;

const CBA = { holdingType: "Stock", assetClass: "Australian Equities", sector: "Financials", industry: "Banks" };
const ETF = { holdingType: "Etf", assetClass: "ETFs", sector: null, industry: null };

describe("a refresh classifies the holdings nobody classified", () => {
  it("type and asset class from the instrument type, sector and industry from the ASX list, in every account", async () => {
    await buy("CBA");
    await buy("VAS");
    await buy("GHHF");
    const other = await t.newAccount();
    const otherPortfolio = await newPortfolio(t, other);
    await buy("CBA", {}, other, otherPortfolio);
    expect(await classes()).toEqual({
      CBA: { holdingType: "Stock", assetClass: null, sector: null, industry: null },
      GHHF: { holdingType: "Stock", assetClass: null, sector: null, industry: null },
      VAS: { holdingType: "Etf", assetClass: null, sector: null, industry: null },
    });

    // One run of CBA changes its holdings in both accounts.
    expect(await refresh("CBA")).toBe(2);
    expect(await refresh("VAS", "GHHF")).toBe(2);
    for (const tr of TRANSPORTS) expect(await classes(tr)).toEqual({ CBA, GHHF: ETF, VAS: ETF });
    expect(await classes(TRANSPORTS[1], other, otherPortfolio)).toEqual({ CBA });
  });

  it("a second run changes nothing and moves no portfolio's version", async () => {
    await buy("CBA");
    await buy("VAS");
    expect(await refresh()).toBe(2);
    const version = await versionOf(portfolioId);
    expect(version).toBeDefined();
    expect(await refresh()).toBe(0);
    expect(await versionOf(portfolioId)).toBe(version);
  });

  it("custom investments are not classified", async () => {
    await buy("CBA");
    const other = await t.newAccount();
    const otherPortfolio = await newPortfolio(t, other);
    const custom = expectOk(
      await rest.create(other, otherPortfolio, { symbol: "CBA", exchange: "ASX", name: "My CBA units" }),
    );
    expect(await refresh()).toBe(1);
    expect(await classes(TRANSPORTS[0], other, otherPortfolio)).toEqual({
      CBA: { holdingType: "Custom", assetClass: null, sector: null, industry: null },
    });
    expect(custom.holdingType).toBe("Custom");
  });
});

describe.each(TRANSPORTS)("what the user sets stays theirs, over $name", (tr) => {
  it("fields set through the holdings API and a trade's holding type are kept; the others are filled", async () => {
    const cba = (await buy("CBA")).holdingId;
    const ghhf = (await buy("GHHF", { holdingType: "Fund" })).holdingId;
    expectOk(await tr.update(key, cba, { classification: { assetClass: "Income", sector: "Banking" } }));
    expect(await userClassified(cba)).toEqual(["assetClass", "sector"]);
    expect(await userClassified(ghhf)).toEqual(["holdingType"]);

    expect(await refresh()).toBe(2);
    expect(await classes(tr)).toEqual({
      CBA: { holdingType: "Stock", assetClass: "Income", sector: "Banking", industry: "Banks" },
      GHHF: { holdingType: "Fund", assetClass: "ETFs", sector: null, industry: null },
    });
  });

  it("a ticker change empties what the provider filled for the old ticker; the next refresh fills the new one's", async () => {
    const cba = (await buy("CBA")).holdingId;
    expect(await refresh("CBA")).toBe(1);
    expectOk(await tr.update(key, cba, { classification: { industry: "My banks" } }));
    expectOk(await tr.changeSymbol(key, cba, "BHP", "ASX"));
    expect((await classes(tr)).BHP).toEqual({
      holdingType: "Stock",
      assetClass: null,
      sector: null,
      industry: "My banks",
    });
    market.answer("/v8/finance/chart/BHP.AX", { status: 200, body: chart("BHP.AX", "AUD", BARS) });
    expect(await refresh("BHP")).toBe(1);
    // BHP GROUP LIMITED is in the ASX list under the Materials industry group, sector Materials.
    expect((await classes(tr)).BHP).toEqual({
      holdingType: "Stock",
      assetClass: "Australian Equities",
      sector: "Materials",
      industry: "My banks",
    });
  });

  it("an explicit null hands a field back: the next refresh fills it", async () => {
    const cba = (await buy("CBA")).holdingId;
    expectOk(await tr.update(key, cba, { classification: { sector: "Banking", industry: "Big Four" } }));
    expect(await refresh()).toBe(1); // the asset class only
    expect(await classes(tr)).toEqual({ CBA: { ...CBA, sector: "Banking", industry: "Big Four" } });

    expectOk(await tr.update(key, cba, { classification: { sector: null } }));
    expect(await userClassified(cba)).toEqual(["industry"]);
    expect(await refresh()).toBe(1);
    expect(await classes(tr)).toEqual({ CBA: { ...CBA, industry: "Big Four" } });
  });

  it("a holding sent back as it was read claims none of the provider's values", async () => {
    const cba = (await buy("CBA")).holdingId;
    await refresh();
    const read = expectOk(await tr.get(key, cba))!;
    expectOk(await tr.update(key, cba, { name: "Commonwealth Bank", classification: read.classification }));
    expect(await userClassified(cba)).toEqual([]);
    // Changing one of them makes that one the user's.
    expectOk(await tr.update(key, cba, { classification: { ...read.classification, industry: "Diversified Banks" } }));
    expect(await userClassified(cba)).toEqual(["industry"]);
  });
});

describe.each(performance)("performance grouped by what the refresh filled, over $name", (tr) => {
  it("groupBy assetClass, sector and holdingType: the classified holdings are Unclassified no more", async () => {
    await buy("CBA");
    await buy("GHHF");
    const period = { from: "2024-06-24", to: "2024-07-01" };
    const labels = async (groupBy: string) => {
      const r = expectOk(await tr.performance(key, portfolioId, { ...period, groupBy }));
      return {
        holdings: Object.fromEntries(r.holdings.map((h) => [h.symbol, h.groupedByValue])),
        groups: r.groups!.map((g) => [g.label, g.marketValue]),
      };
    };
    expect(await labels("assetClass")).toEqual({
      holdings: { CBA: "Unclassified", GHHF: "Unclassified" },
      groups: [["Unclassified", "2000"]],
    });

    await refresh();
    expect(await labels("assetClass")).toEqual({
      holdings: { CBA: "Australian Equities", GHHF: "ETFs" },
      groups: [
        ["Australian Equities", "1200"],
        ["ETFs", "1200"],
      ],
    });
    expect(await labels("sector")).toEqual({
      holdings: { CBA: "Financials", GHHF: "Unclassified" },
      groups: [
        ["Financials", "1200"],
        ["Unclassified", "1200"],
      ],
    });
    expect((await labels("holdingType")).holdings).toEqual({ CBA: "Stock", GHHF: "Etf" });
  });
});
