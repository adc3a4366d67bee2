import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";

/**
 * JSON text that JSON.parse would quietly lose part of is refused (src/http/lossless-json.ts), in
 * REST bodies, GraphQL variables and the bulk endpoints' chunked parser alike, and nothing is
 * written:
 * - a number a float cannot hold (docs/conventions.md §4.2): JSON.parse would store
 *   99999999999999.99999999 as 100000000000000. The answer is 400 naming the number; the same
 *   value sent as a string is stored to the last digit.
 * - a name given twice in one object (docs/conventions.md §7.1): JSON.parse would keep the last
 *   value and drop the first without a word. The answer is 400 naming the field and the JSON path
 *   of its object.
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

/** A POST of the JSON text as it is (supertest would serialise an object: rounding its numbers, never repeating a name). */
const postJson = (path: string, text: string) =>
  t.http.post(path).set("authorization", key).set("content-type", "application/json").send(text);

/** A trade body as text; `extra` is written after its last field. */
const buy = (quantity = "10", price = "1", extra = "") =>
  `{"portfolioId":${portfolioId},"symbol":"CBA","exchange":"ASX","tradeType":"Buy","tradeDate":"2024-01-02","quantity":${quantity},"price":${price}${extra}}`;

/** An import row as text; `extra` is written after its last field. */
const row = (price = "10", extra = "") =>
  `{"symbol":"CBA","exchange":"ASX","tradeType":"Buy","tradeDate":"2024-01-02","quantity":1,"price":${price}${extra}}`;

describe("a number a float cannot hold", () => {
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
});

describe("a name given twice in one object", () => {
  it("REST: a field given twice is 400 naming it and its object; given once the same body is stored", async () => {
    const res = await postJson("/v1/trades", buy("10", "1", ',"price":100'));
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
      `{"query":"mutation($input: TradeInput!) { createTrade(input: $input) { id } }","variables":{"input":${buy("10", "1", ',"quantity":1000')}}}`,
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

  it("a body that is not JSON at all is answered with its syntax error, though it also repeats a name", async () => {
    for (const path of ["/v1/trades", `/v1/portfolios/${portfolioId}/trades/import`]) {
      const body = path === "/v1/trades" ? buy("10", "1", ',"price":100').slice(0, -1) : `[${row("10", ',"price":1')}`;
      const res = await postJson(path, body);
      expect({ path, status: res.status, code: res.body.code }).toEqual({
        path,
        status: 400,
        code: "VALIDATION_FAILED",
      });
      expect(res.body.detail).not.toContain("twice");
      expect(res.body.detail).toMatch(/JSON/);
    }
    expect(await trades()).toBe(0);
  });

  it("the bulk import (parsed in chunks): 400 naming the row's path, nothing written", async () => {
    const res = await postJson(
      `/v1/portfolios/${portfolioId}/trades/import`,
      `[${row()},${row()},${row("10", ',"tradeType":"Sell"')}]`,
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: "$[2]", message: 'names "tradeType" twice; send each field once' }]);
    expect(await trades()).toBe(0);
  });
});
