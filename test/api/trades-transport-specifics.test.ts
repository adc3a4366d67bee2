import { newPortfolio } from "../factories";
import { type FieldError, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * What only one transport shows about trades: REST wire details, GraphQL schema refusals and nesting.
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { unchanged, trade, buy } = tradesApi(t, () => key);

describe("REST specifics", () => {
  it("GET /v1/trades/{t} answers exactly the documented fields, numbers as JSON numbers", async () => {
    const p = await newPortfolio(t, key);
    const b = await buy(p, "CBA", "10.5", "152.39", "2024-01-10", { brokerage: "9.95" });
    const res = await t.http.get(`/v1/trades/${b.id}`).set("authorization", key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "acquisitionDate",
        "brokerage",
        "currencyCode",
        "exchange",
        "exchangeRate",
        "hasAttachment",
        "holdingId",
        "id",
        "notes",
        "parcels",
        "reference",
        "portfolioId",
        "price",
        "quantity",
        "sourceId",
        "symbol",
        "tradeDate",
        "tradeType",
        "value",
      ].sort(),
    );
    // Exact digits on the wire: 10.5 × 152.39 = 1600.095.
    expect(res.text).toContain('"quantity":10.5');
    expect(res.text).toContain('"price":152.39');
    expect(res.text).toContain('"value":1600.095');
    expect(res.text).toContain('"brokerage":9.95');
  });

  it("GET /v1/holdings/{h}/trades pages with limit and offset, and rejects bad ones naming them", async () => {
    const p = await newPortfolio(t, key);
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
    for (const [q, path] of [
      ["limit=0", "limit"],
      ["limit=5001", "limit"],
      ["limit=abc", "limit"],
      ["offset=-1", "offset"],
      ["limit=1.5", "limit"],
    ]) {
      const res = await t.http.get(`/v1/holdings/${h}/trades?${q}`).set("authorization", key);
      expect({ q, status: res.status, code: res.body.code }).toEqual({ q, status: 400, code: "VALIDATION_FAILED" });
      expect(res.body.errors.map((e: FieldError) => e.path)).toContain(path);
    }
  });

  it("bad trade ids: abc and 0 → 400 naming tradeId, 999999 → 404", async () => {
    for (const [id, status] of [
      ["abc", 400],
      ["0", 400],
      ["999999", 404],
    ] as const) {
      for (const req of [t.http.get(`/v1/trades/${id}`), t.http.delete(`/v1/trades/${id}`)]) {
        const res = await req.set("authorization", key);
        expect({ id, status: res.status }).toEqual({ id, status });
        if (status === 400) expect(res.body.errors).toEqual([{ path: "tradeId", message: expect.any(String) }]);
      }
    }
  });

  it("POST /v1/trades answers 201 with the trade; a body that is not JSON is 415 naming JSON", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http.post("/v1/trades").set("authorization", key).send({
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 1,
      price: 1,
    });
    expect(res.status).toBe(201);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    await unchanged(async () => {
      const bad = await t.http
        .post("/v1/trades")
        .set("authorization", key)
        .set("content-type", "text/plain")
        .send("Buy CBA");
      expect(bad.status).toBe(415);
      expect(bad.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      expect(bad.body.detail).toContain("application/json");
    });
  });
});

describe("GraphQL specifics", () => {
  it("a missing tradeDate is refused by the schema (BAD_USER_INPUT), writing nothing", async () => {
    const p = await newPortfolio(t, key);
    await unchanged(async () => {
      const res = await t.gql(key, `mutation($input: TradeInput!) { createTrade(input: $input) { id } }`, {
        input: { portfolioId: String(p), symbol: "CBA", exchange: "ASX", tradeType: "Buy", quantity: "1", price: "1" },
      });
      expect(res.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    });
  });

  it("a service validation failure carries VALIDATION_FAILED with the paths in extensions.errors", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.gql(key, `mutation($input: TradeInput!) { createTrade(input: $input) { id } }`, {
      input: {
        portfolioId: String(p),
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-02-30",
        quantity: "0",
        price: "1",
      },
    });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      path: ["createTrade"],
      extensions: {
        code: "VALIDATION_FAILED",
        errors: expect.arrayContaining([
          { path: "tradeDate", message: expect.any(String) },
          { path: "quantity", message: expect.any(String) },
        ]),
      },
    });
  });

  it("portfolio { holdings { trades } } shows each holding's trades oldest first", async () => {
    const p = await newPortfolio(t, key);
    const c2 = await buy(p, "CBA", 2, 100, "2024-02-01");
    const c1 = await buy(p, "CBA", 1, 100, "2024-01-01");
    const n1 = await buy(p, "NAB", 3, 30, "2024-01-05");
    const res = await t.gql(
      key,
      `query($id: ID!) { portfolio(id: $id) { holdings { symbol quantity trades { id tradeDate quantity } } } }`,
      { id: String(p) },
    );
    expect(res.body).toEqual({
      data: {
        portfolio: {
          holdings: [
            {
              symbol: "CBA",
              quantity: "3",
              trades: [
                { id: String(c1.id), tradeDate: "2024-01-01", quantity: "1" },
                { id: String(c2.id), tradeDate: "2024-02-01", quantity: "2" },
              ],
            },
            { symbol: "NAB", quantity: "3", trades: [{ id: String(n1.id), tradeDate: "2024-01-05", quantity: "3" }] },
          ],
        },
      },
    });
  });
});
