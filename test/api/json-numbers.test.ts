import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";

/**
 * A JSON number a float cannot hold is refused, not rounded (docs/conventions.md §4.2): JSON.parse
 * would store 99999999999999.99999999 as 100000000000000. REST bodies, GraphQL variables and the
 * bulk endpoints' chunked parser all answer 400 naming the number, and write nothing; the same
 * value sent as a string is stored to the last digit.
 */
const t = useTestApp();
let key: string;
let portfolioId: number;

beforeEach(async () => {
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key);
});

const trades = async () =>
  (await t.db.sql<{ n: number }>(`SELECT count(*)::int AS n FROM trade WHERE portfolio_id = $1`, [portfolioId]))[0].n;

/** A POST of the JSON text as it is (supertest would serialise an object, rounding its numbers first). */
const postJson = (path: string, text: string) =>
  t.http.post(path).set("authorization", key).set("content-type", "application/json").send(text);

const buy = (quantity: string, price: string) =>
  `{"portfolioId":${portfolioId},"symbol":"CBA","exchange":"ASX","tradeType":"Buy","tradeDate":"2024-01-02","quantity":${quantity},"price":${price}}`;

it("REST: a number with more digits than a float keeps is 400 naming it; as a string it is stored exactly", async () => {
  const res = await postJson("/v1/trades", buy("99999999999999.99999999", "1"));
  expect(res.status).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path: "(body)" }] });
  expect(res.body.detail).toContain("99999999999999.99999999");
  expect(res.body.detail).toContain("send it as a string");
  expect(await trades()).toBe(0);

  const exact = await postJson("/v1/trades", buy("1", '"123456789012.12345678"'));
  expect(exact.status).toBe(201);
  const read = await t.http.get(`/v1/trades/${exact.body.id}`).set("authorization", key);
  // Written as a bare JSON number from the stored digits (a float would give 123456789012.12346).
  expect(read.text).toContain('"price":123456789012.12345678');
});

it("GraphQL: the same number in the variables is refused before the operation runs", async () => {
  const res = await postJson(
    "/graphql",
    `{"query":"mutation($input: TradeInput!) { createTrade(input: $input) { id } }","variables":{"input":${buy("1.0000000000000000000001", "10")}}}`,
  );
  expect(res.status).toBe(400);
  expect(res.text).toContain("send it as a string");
  expect(await trades()).toBe(0);
});

it("the bulk import (parsed in chunks): 400 naming the number, nothing written", async () => {
  const row = (price: string) =>
    `{"symbol":"CBA","exchange":"ASX","tradeType":"Buy","tradeDate":"2024-01-02","quantity":1,"price":${price}}`;
  const res = await postJson(
    `/v1/portfolios/${portfolioId}/trades/import`,
    `[${row("10")},${row("123456789012.12345678")}]`,
  );
  expect(res.status).toBe(400);
  expect(res.body.detail).toContain("123456789012.12345678");
  expect(await trades()).toBe(0);
  const ok = await postJson(
    `/v1/portfolios/${portfolioId}/trades/import`,
    `[${row("10")},${row('"123456789012.12345678"')}]`,
  );
  expect(ok.status).toBe(201);
  expect(await trades()).toBe(2);
});
