import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";

/**
 * A JSON body that names a field twice in one object is refused (docs/conventions.md §7.1):
 * JSON.parse would keep the last value and drop the first without a word. REST bodies, GraphQL
 * variables and the bulk endpoints' chunked parser all answer 400 naming the field and the path of
 * its object, and write nothing.
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

/** A POST of the JSON text as it is (supertest would serialise an object, which cannot repeat a name). */
const postJson = (path: string, text: string) =>
  t.http.post(path).set("authorization", key).set("content-type", "application/json").send(text);

const buy = (extra = "") =>
  `{"portfolioId":${portfolioId},"symbol":"CBA","exchange":"ASX","tradeType":"Buy","tradeDate":"2024-01-02","quantity":10,"price":1${extra}}`;

it("REST: a field given twice is 400 naming it and its object; given once the same body is stored", async () => {
  const res = await postJson("/v1/trades", buy(',"price":100'));
  expect(res.status).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    code: "VALIDATION_FAILED",
    errors: [{ path: "$", message: 'names "price" twice; send each field once' }],
  });
  expect(res.body.detail).toContain('names "price" twice');
  expect(await trades()).toBe(0);
  expect((await postJson("/v1/trades", buy())).status).toBe(201);
});

it("GraphQL: a field given twice in the variables is refused before the operation runs", async () => {
  const res = await postJson(
    "/graphql",
    `{"query":"mutation($input: TradeInput!) { createTrade(input: $input) { id } }","variables":{"input":${buy(',"quantity":1000')}}}`,
  );
  expect(res.status).toBe(400);
  expect(res.text).toContain('names \\"quantity\\" twice');
  expect(res.text).toContain("$.variables.input");
  expect(await trades()).toBe(0);
});

it("GraphQL over GET: a field given twice in the variables of the query string is refused too", async () => {
  const query = "query($id: ID!) { portfolio(id: $id) { id name } }";
  // Apollo's CSRF guard wants a preflight header on a GET.
  const get = (variables: string) =>
    t.http.get("/graphql").set("authorization", key).set("apollo-require-preflight", "1").query({ query, variables });
  const res = await get(`{"id":"${portfolioId}","id":"0"}`);
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([
    expect.objectContaining({
      message: expect.stringMatching(/^The request is refused: The object at \$ names "id" twice/),
      extensions: expect.objectContaining({
        code: "VALIDATION_FAILED",
        errors: [{ path: "$", message: 'names "id" twice; send each field once' }],
      }),
    }),
  ]);
  const ok = await get(`{"id":"${portfolioId}"}`);
  expect(ok.status).toBe(200);
  expect(ok.body.data.portfolio.id).toBe(String(portfolioId));
});

it("the bulk import (parsed in chunks): 400 naming the row's path, nothing written", async () => {
  const row = (extra = "") =>
    `{"symbol":"CBA","exchange":"ASX","tradeType":"Buy","tradeDate":"2024-01-02","quantity":1,"price":10${extra}}`;
  const res = await postJson(
    `/v1/portfolios/${portfolioId}/trades/import`,
    `[${row()},${row()},${row(',"tradeType":"Sell"')}]`,
  );
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([{ path: "$[2]", message: 'names "tradeType" twice; send each field once' }]);
  expect(await trades()).toBe(0);
});
