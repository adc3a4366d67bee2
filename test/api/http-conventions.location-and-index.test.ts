import type request from "supertest";
import { endpoints } from "../../src/http/router";
import { useTestApp } from "../support/app";

/**
 * Location on every 201 (docs/conventions.md §7.3), and the index at GET / (no key).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

describe("Location on 201 (API.md §1 writes)", () => {
  it("points at the created resource, under the prefix the request used", async () => {
    const auth = { authorization: key };
    const follow = async (res: request.Response, prefix = "/v1") => {
      expect(res.status).toBe(201);
      expect(res.headers["location"]).toMatch(new RegExp(`^${prefix.replace(/\//g, "\\/")}/`));
      const got = await t.http.get(res.headers["location"]).set(auth);
      expect({ location: res.headers["location"], status: got.status }).toEqual({
        location: res.headers["location"],
        status: 200,
      });
      return got.body;
    };
    const portfolio = await t.http.post("/v1/portfolios").set(auth).send({ name: "Located" });
    expect(portfolio.headers["location"]).toBe(`/v1/portfolios/${portfolio.body.id}`);
    expect(await follow(portfolio)).toEqual(portfolio.body);
    const alias = await t.http.post("/api/v1/portfolios").set(auth).send({ name: "Via alias" });
    expect(alias.headers["location"]).toBe(`/api/v1/portfolios/${alias.body.id}`);
    const p = portfolio.body.id;

    const holding = await t.http.post(`/v1/portfolios/${p}/holdings`).set(auth).send({ symbol: "FARM", name: "Farm" });
    expect((await follow(holding)).id).toBe(holding.body.id);
    const account = await t.http
      .post("/v1/cash-accounts")
      .set(auth)
      .send({ portfolioId: p, name: "Cash", currencyCode: "AUD" });
    expect((await follow(account)).id).toBe(account.body.id);
    const deposit = await t.http
      .post("/v1/cash-transactions")
      .set(auth)
      .send({ cashAccountId: account.body.id, type: "Deposit", date: "2024-01-02", amount: 100 });
    expect((await follow(deposit)).id).toBe(deposit.body.id);
    const group = await t.http
      .post("/v1/custom-groups")
      .set(auth)
      .send({ name: "Risk", labels: ["High", "Low"] });
    expect((await follow(group)).id).toBe(group.body.id);
    const client = await t.http.post("/v1/clients").set(auth).send({ firstName: "Ada", lastName: "Lovelace" });
    expect((await follow(client)).id).toBe(client.body.id);
    const clientKey = await t.http.post(`/v1/clients/${client.body.id}/api-keys`).set(auth);
    expect(clientKey.status).toBe(201);
    // A key is shown once and can never be read back: there is nowhere to point.
    expect(clientKey.headers["location"]).toBeUndefined();
    const model = await t.http
      .post(`/v1/portfolios/${p}/allocation-models`)
      .set(auth)
      .send({ name: "Balanced", dimension: "assetClass", buckets: [{ label: "Equities", targetPct: 100 }] });
    expect((await follow(model)).publicId).toBe(model.body.publicId);
    // An update of the same model answers 200, with no Location.
    const updated = await t.http
      .post(`/v1/portfolios/${p}/allocation-models`)
      .set(auth)
      .send({
        publicId: model.body.publicId,
        name: "Balanced",
        dimension: "assetClass",
        buckets: [{ label: "Equities", targetPct: 100 }],
      });
    expect(updated.status).toBe(200);
    expect(updated.headers["location"]).toBeUndefined();
  });

  it("every route answering 201 with one resource says where it is", () => {
    // Bulk answers hold many rows; a new API key cannot be read back.
    const exempt = new Set([
      "importTrades",
      "importIncome",
      "addCustomPrices",
      "upsertMarketPrices",
      "upsertFxRates",
      "createClientApiKey",
      "createApiKey",
      "rotateApiKey",
    ]);
    const missing = endpoints
      .filter((e) => e.status === 201 && !e.location && !exempt.has(e.operationId))
      .map((e) => e.operationId);
    expect(missing).toEqual([]);
  });
});

describe("GET / (no key)", () => {
  const LINKS = ["/docs/", "/graphiql", "/graphql", "/v1/openapi.json", "/health", "/ready"];

  it("answers JSON for an API client with the links", async () => {
    const res = await t.http.get("/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body.links.map((l: { href: string }) => l.href).sort()).toEqual([...LINKS].sort());
    for (const href of ["/v1/openapi.json", "/health", "/ready", "/docs/"])
      expect({ href, status: (await t.http.get(href)).status }).toEqual({ href, status: 200 });
  });

  it("answers HTML for a browser", async () => {
    const res = await t.http.get("/").set("accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    for (const href of LINKS) expect(res.text).toContain(`href="${href}"`);
  });
});
