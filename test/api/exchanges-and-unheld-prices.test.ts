import { useTestApp } from "../support/app";
import { newPortfolio, postCreated } from "../factories";
import { cbaHolding } from "../scenarios/holdings";
import { expectInvalid, expectOk, gqlOutcome, restCall, type Json, type Outcome } from "../support/outcomes";

/**
 * Known exchanges (README "Known exchanges"): an exchange a request names must be one the service
 * knows (or CUSTOM), so a typo (`AX` for ASX) is refused, naming the one meant, instead of making a
 * second holding; a custom investment keeps any code it is created with. And a market-price import
 * counts the securities no holding of the account has (stored all the same).
 */
const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});

const holdingCount = async (portfolioId: number) =>
  Number(
    (await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM holding WHERE portfolio_id = $1", [portfolioId]))[0].n,
  );

describe.each(["REST", "GraphQL"] as const)("exchanges over %s", (transport) => {
  const createTrade = async (input: Json): Promise<Outcome<unknown>> =>
    transport === "REST"
      ? restCall(t.http.post("/v1/trades").set("authorization", key).send(input), 201)
      : gqlOutcome(
          await t.gql(key, "mutation($input: TradeInput!) { createTrade(input: $input) { id } }", {
            input: { ...input, portfolioId: String(input.portfolioId) },
          }),
          "createTrade",
        );

  it("refuses a trade on an unknown exchange with 'did you mean ASX?' and makes no second holding", async () => {
    const { portfolioId } = await cbaHolding(t, key);
    const o = await createTrade({
      portfolioId,
      symbol: "CBA",
      exchange: "AX",
      tradeType: "Buy",
      tradeDate: "2024-02-01",
      quantity: 1,
      price: 100,
    });
    expectInvalid(o, "exchange");
    if (!o.ok) expect(o.errors![0].message).toMatch(/^is not a known exchange; did you mean ASX\? \(one of ASX, /);
    expect(await holdingCount(portfolioId)).toBe(1);
  });

  it("takes a known exchange in any case", async () => {
    const { portfolioId } = await cbaHolding(t, key);
    expectOk(
      await createTrade({
        portfolioId,
        symbol: "cba",
        exchange: "asx",
        tradeType: "Buy",
        tradeDate: "2024-02-01",
        quantity: 1,
        price: 100,
      }),
    );
    expect(await holdingCount(portfolioId)).toBe(1);
  });

  it("refuses an unknown exchange in a market price, naming no near one when none is close", async () => {
    const rows = [{ symbol: "CBA", exchange: "MOON", date: "2024-01-02", close: 1 }];
    const o =
      transport === "REST"
        ? await restCall(t.http.post("/v1/market-prices/bulk").set("authorization", key).send(rows), 200)
        : gqlOutcome(
            await t.gql(
              key,
              "mutation($input: [MarketPriceInput!]!) { upsertMarketPrices(input: $input) { upserted } }",
              {
                input: rows,
              },
            ),
            "upsertMarketPrices",
          );
    expectInvalid(o, "line 1.exchange");
    if (!o.ok) expect(o.errors![0].message).toMatch(/^is not a known exchange \(one of /);
  });
});

describe("a custom investment", () => {
  it("keeps a code of its own (POST /v1/portfolios/{p}/holdings), CUSTOM by default", async () => {
    const p = await newPortfolio(t, key);
    const own = await postCreated<Json>(t, key, `/v1/portfolios/${p}/holdings`, {
      symbol: "PRIVFUND",
      exchange: "unlisted",
      name: "Private fund",
    });
    expect(own.exchange).toBe("UNLISTED");
    const plain = await postCreated<Json>(t, key, `/v1/portfolios/${p}/holdings`, { symbol: "FARM", name: "Farm" });
    expect(plain.exchange).toBe("CUSTOM");
  });
});

describe.each(["REST", "GraphQL"] as const)("market prices of securities nobody holds, over %s", (transport) => {
  interface Answer {
    upserted: number;
    unheld: number;
    unheldSecurities: { symbol: string; exchange: string }[];
  }
  const upsert = async (rows: Json[]): Promise<Answer> => {
    if (transport === "REST")
      return expectOk(
        await restCall<Answer>(t.http.post("/v1/market-prices/bulk").set("authorization", key).send(rows), 200),
      );
    const res = await t.gql(
      key,
      "mutation($input: [MarketPriceInput!]!) { upsertMarketPrices(input: $input) { upserted unheld unheldSecurities { symbol exchange } } }",
      { input: rows },
    );
    return expectOk(gqlOutcome<Answer>(res, "upsertMarketPrices"));
  };

  it("stores them and counts them: BHPX.ASX, held by no holding of the account", async () => {
    await cbaHolding(t, key);
    // Another account's holding of BHPX does not make it held here.
    const other = await t.newAccount();
    await t.http
      .post("/v1/trades")
      .set("authorization", other)
      .send({
        portfolioId: await newPortfolio(t, other),
        symbol: "BHPX",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 1,
        price: 1,
      })
      .expect(201);
    const answer = await upsert([
      { symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 },
      { symbol: "BHPX", exchange: "ASX", date: "2024-01-02", close: 45 },
      { symbol: "bhpx", exchange: "asx", date: "2024-01-03", close: 46 },
    ]);
    expect(answer).toEqual({ upserted: 3, unheld: 1, unheldSecurities: [{ symbol: "BHPX", exchange: "ASX" }] });
    const stored = await t.http.get("/v1/market-prices?symbol=BHPX&exchange=ASX").set("authorization", key);
    expect(stored.body).toHaveLength(2);
  });

  it("lists the first 20 by symbol and exchange and counts them all", async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({
      symbol: `Z${String(24 - i).padStart(2, "0")}`,
      exchange: "ASX",
      date: "2024-01-02",
      close: 1,
    }));
    const answer = await upsert(rows);
    expect(answer.upserted).toBe(25);
    expect(answer.unheld).toBe(25);
    expect(answer.unheldSecurities).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ symbol: `Z${String(i).padStart(2, "0")}`, exchange: "ASX" })),
    );
  });
});
