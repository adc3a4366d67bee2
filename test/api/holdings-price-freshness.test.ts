import { newCustomHolding, newPortfolio } from "../factories";
import { expectOk } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { measured, utcDate } from "../support/kit";
import { holdingsApi } from "./holdings.transports";

/**
 * A holding's price freshness in the holdings list (docs/data.md §2, PRICE_STALE_DAYS = 3 in the
 * test app): `priceStale` when the price is more than 3 calendar days older than its exchange's
 * last trading day on or before the list's date. That day is the latest close (the account's own
 * or the provider's) of a security of that exchange the account holds, else the last weekday.
 * June 2024: Fri 7, Sat 8, Sun 9, Mon 10 (King's Birthday: the ASX is closed), Tue 11, Wed 12,
 * Thu 13, Fri 14, Sat 15, Sun 16, Mon 17.
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { TRANSPORTS, trade, buy, customPrice } = holdingsApi(t, () => key);

/** Closes imported into the account over REST, as a user would. */
async function closes(rows: [symbol: string, exchange: string, date: string, close: number][], k = key) {
  const res = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", k)
    .send(rows.map(([symbol, exchange, date, close]) => ({ symbol, exchange, date, close })));
  expect(res.status).toBe(200);
}

describe.each(TRANSPORTS)("price freshness over $name", (tr) => {
  /** symbol → how its price is dated and whether it is stale, on `date` (today without one). */
  const freshness = async (p: number, date?: string) =>
    Object.fromEntries(
      expectOk(await tr.list(key, p, date ? { date } : {}))!.map((h) => [
        h.symbol,
        { priceDate: h.priceDate, priceSource: h.priceSource, priceStale: h.priceStale },
      ]),
    );

  it("a price 5 days older than the exchange's last close is stale; one on it is not; an old trade price is stale", async () => {
    const p = await newPortfolio(t, key);
    await buy(p, "CBA", 10, 100, "2024-05-01");
    await buy(p, "NAB", 10, 30, "2024-05-01");
    await buy(p, "BHP", 10, 45, "2024-01-10");
    await closes([
      ["CBA", "ASX", "2024-06-11", 101],
      ["CBA", "ASX", "2024-06-12", 102],
      ["NAB", "ASX", "2024-06-06", 31],
      ["NAB", "ASX", "2024-06-07", 32],
    ]);
    // On Wed 12: the ASX's last close is CBA's of the 12th. NAB's 7th is 12 − 7 = 5 days behind
    // (> 3); BHP's only price, its trade of 10 January, 154 days.
    expect(await freshness(p, "2024-06-12")).toEqual({
      BHP: { priceDate: "2024-01-10", priceSource: "LastTrade", priceStale: true },
      CBA: { priceDate: "2024-06-12", priceSource: "Market", priceStale: false },
      NAB: { priceDate: "2024-06-07", priceSource: "Market", priceStale: true },
    });
    // On the King's Birthday (Mon 10) nothing closed: the last trading day is Fri 7, which NAB's
    // price is (0 days); CBA has no close yet, so its trade of 1 May counts: 37 days behind.
    expect(await freshness(p, "2024-06-10")).toEqual({
      BHP: { priceDate: "2024-01-10", priceSource: "LastTrade", priceStale: true },
      CBA: { priceDate: "2024-05-01", priceSource: "LastTrade", priceStale: true },
      NAB: { priceDate: "2024-06-07", priceSource: "Market", priceStale: false },
    });
    // Without a date: as of today, at the latest prices. The last ASX close the account has, CBA's
    // of 12 June 2024, is itself years behind today's last weekday: the closes stopped arriving,
    // so the last trading day is that weekday and every price is stale (a stopped feed must show).
    expect(Object.values(await freshness(p)).map((h) => h.priceStale)).toEqual([true, true, true]);
  });

  it("a price exactly 3 days behind is not stale, on the day and over the weekend after it", async () => {
    const p = await newPortfolio(t, key);
    await buy(p, "CBA", 10, 100, "2024-05-01");
    await buy(p, "NAB", 10, 30, "2024-05-01");
    await closes([
      ["CBA", "ASX", "2024-06-13", 101],
      ["CBA", "ASX", "2024-06-14", 102],
      ["NAB", "ASX", "2024-06-11", 31],
    ]);
    // Fri 14 − Tue 11 = 3 days: not more than 3.
    for (const date of ["2024-06-14", "2024-06-15", "2024-06-16"])
      expect({ date, ...(await freshness(p, date)) }).toEqual({
        date,
        CBA: { priceDate: "2024-06-14", priceSource: "Market", priceStale: false },
        NAB: { priceDate: "2024-06-11", priceSource: "Market", priceStale: false },
      });
    // One more close of CBA on Mon 17: NAB is 17 − 11 = 6 days behind.
    await closes([["CBA", "ASX", "2024-06-17", 103]]);
    expect(await freshness(p, "2024-06-17")).toMatchObject({ NAB: { priceStale: true } });
  });

  it("a provider's close marks the exchange's trading day as the account's own does", async () => {
    const p = await newPortfolio(t, key);
    await buy(p, "CBA", 10, 100, "2024-05-01");
    await buy(p, "NAB", 10, 30, "2024-05-01");
    await closes([["NAB", "ASX", "2024-06-07", 32]]);
    await t.db.prisma.providerPrice.create({
      data: { symbol: "CBA", exchange: "ASX", date: utcDate("2024-06-14"), close: "102", currencyCode: "AUD" },
    });
    // Fri 14 − Fri 7 = 7 days.
    expect(await freshness(p, "2024-06-14")).toEqual({
      CBA: { priceDate: "2024-06-14", priceSource: "Market", priceStale: false },
      NAB: { priceDate: "2024-06-07", priceSource: "Market", priceStale: true },
    });
  });

  it("another account's closes are not this account's calendar", async () => {
    const p = await newPortfolio(t, key);
    await buy(p, "CBA", 10, 100, "2024-05-01");
    await buy(p, "NAB", 10, 30, "2024-05-01");
    await closes([
      ["CBA", "ASX", "2024-06-03", 101],
      ["NAB", "ASX", "2024-06-05", 31],
    ]);
    const other = await t.newAccount();
    const q = await newPortfolio(t, other);
    await buy(q, "CBA", 1, 100, "2024-05-01", {}, other);
    await closes([["CBA", "ASX", "2024-06-07", 110]], other);
    // On Fri 7 its own latest ASX close is NAB's of Wed 5 (2 days behind Fri 7: the feed flows),
    // so Wed 5 is the last trading day: CBA's Mon 3 is 2 days behind, fresh. The other account's
    // close of Fri 7 would make it 4 days behind, stale.
    expect(await freshness(p, "2024-06-07")).toEqual({
      CBA: { priceDate: "2024-06-03", priceSource: "Market", priceStale: false },
      NAB: { priceDate: "2024-06-05", priceSource: "Market", priceStale: false },
    });
  });

  it("an exchange without any close falls back to the last weekday: a weekend does not age a price", async () => {
    const p = await newPortfolio(t, key);
    await trade(p, {
      symbol: "AIR",
      exchange: "NZX",
      tradeType: "Buy",
      quantity: 10,
      price: 5,
      tradeDate: "2024-06-11",
      exchangeRate: "0.92",
    });
    await buy(p, "CBA", 10, 100, "2024-05-01");
    // An ASX close is no NZX trading day.
    await closes([["CBA", "ASX", "2024-06-16", 101]]);
    // Sat 15 and Sun 16 → Fri 14: 14 − 11 = 3 days, fresh; Mon 17: 6 days, stale.
    for (const [date, stale] of [
      ["2024-06-14", false],
      ["2024-06-15", false],
      ["2024-06-16", false],
      ["2024-06-17", true],
    ] as const)
      expect({ date, ...(await freshness(p, date)).AIR }).toEqual({
        date,
        priceDate: "2024-06-11",
        priceSource: "LastTrade",
        priceStale: stale,
      });
  });

  it("a custom investment is never stale: neither its old purchase price nor its old valuation", async () => {
    const p = await newPortfolio(t, key);
    const farm = await newCustomHolding(t, key, p, { symbol: "FARM", name: "Family farm" });
    await trade(p, { holdingId: farm, tradeType: "Buy", tradeDate: "2020-01-10", quantity: 1, price: 500000 });
    expect(await freshness(p, "2024-06-12")).toEqual({
      FARM: { priceDate: "2020-01-10", priceSource: "LastTrade", priceStale: false },
    });
    await customPrice(farm, "2021-06-30", "650000");
    expect(await freshness(p, "2024-06-12")).toEqual({
      FARM: { priceDate: "2021-06-30", priceSource: "Custom", priceStale: false },
    });
    expect(expectOk(await tr.get(key, farm))).toMatchObject({ priceSource: "Custom", priceStale: false });
  });

  it("a single holding's read agrees with the list (the calendar is the account's, not the request's holdings')", async () => {
    const p = await newPortfolio(t, key);
    await buy(p, "CBA", 10, 100, "2024-05-01");
    const nab = await buy(p, "NAB", 10, 30, "2020-05-01");
    const today = new Date().toISOString().slice(0, 10);
    await closes([
      ["CBA", "ASX", today, 101],
      ["NAB", "ASX", "2024-06-07", 32],
    ]);
    const listed = expectOk(await tr.list(key, p))!.find((h) => h.symbol === "NAB")!;
    expect(listed).toMatchObject({ priceDate: "2024-06-07", priceStale: true });
    expect(expectOk(await tr.get(key, nab.holdingId))).toEqual(listed);
  });
});

describe("statement count", () => {
  const listed = async (p: number) => {
    const { res, statements } = await measured(t.db, () =>
      t.http.get(`/v1/portfolios/${p}/holdings`).query({ date: "2024-06-14" }).set("authorization", key),
    );
    expect(res.status).toBe(200);
    return statements;
  };

  it("the freshness costs one statement whatever the number of holdings and exchanges (none for custom investments alone)", async () => {
    const custom = await newPortfolio(t, key);
    const farm = await newCustomHolding(t, key, custom, { symbol: "FARM", name: "Family farm" });
    await trade(custom, { holdingId: farm, tradeType: "Buy", tradeDate: "2020-01-10", quantity: 1, price: 500000 });
    const one = await newPortfolio(t, key);
    await buy(one, "CBA", 10, 100, "2024-05-01");
    const many = await newPortfolio(t, key);
    for (const [symbol, exchange] of [
      ["CBA", "ASX"],
      ["NAB", "ASX"],
      ["AIR", "NZX"],
      ["VOD", "LSE"],
      ["IBM", "NYSE"],
    ])
      await trade(many, {
        symbol,
        exchange,
        tradeType: "Buy",
        quantity: 10,
        price: 5,
        tradeDate: "2024-05-01",
        exchangeRate: "1",
      });
    await closes([
      ["CBA", "ASX", "2024-06-14", 101],
      ["VOD", "LSE", "2024-06-13", 1],
    ]);
    const base = await listed(custom);
    expect(await listed(one)).toBe(base + 1);
    expect(await listed(many)).toBe(base + 1);
  });
});
