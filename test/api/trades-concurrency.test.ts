import { useTestApp } from "../support/app";

/**
 * Concurrent writes on one holding. On PostgreSQL they really run at once; on PGlite they queue,
 * and the same outcome must hold.
 */
const t = useTestApp({ reset: "none" });

it("ten first trades of one new symbol at once make one holding and ten trades", async () => {
  const key = await t.newAccount();
  const { body: p } = await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Race" }).expect(201);
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      t.http
        .post("/v1/trades")
        .set("authorization", key)
        .send({
          portfolioId: p.id,
          symbol: "NEWCO",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: i + 1,
          price: 1,
        }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
  const holdings = await t.db.sql<{ id: number }>("SELECT id FROM holding WHERE portfolio_id = $1", [p.id]);
  expect(holdings).toHaveLength(1);
  expect(new Set(results.map((r) => r.body.holdingId))).toEqual(new Set([holdings[0].id]));
  const { body: h } = await t.http.get(`/v1/holdings/${holdings[0].id}`).set("authorization", key).expect(200);
  expect(h.quantity).toBe(55);
  expect(await t.db.sql("SELECT id FROM security WHERE symbol = 'NEWCO'")).toHaveLength(1);
});

it("concurrent sells of the last units: exactly the ones the units allow succeed", async () => {
  const key = await t.newAccount();
  const { body: p } = await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Sells" }).expect(201);
  await t.http
    .post("/v1/trades")
    .set("authorization", key)
    .send({
      portfolioId: p.id,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 1,
    })
    .expect(201);
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p.id,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Sell",
        tradeDate: "2024-02-10",
        quantity: 3,
        price: 2,
      }),
    ),
  );
  expect(results.filter((r) => r.status === 201)).toHaveLength(3);
  expect(results.filter((r) => r.status === 422)).toHaveLength(5);
});
