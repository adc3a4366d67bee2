import type request from "supertest";
import { endpoints } from "../../src/http/router";
import { listHoldingTrades } from "../../src/modules/trades/trades.service";
import { useTestApp } from "../support/app";
import { serviceContext } from "../support/kit";

/**
 * Paging headers on lists (docs/conventions.md §6): the row count and the links to the pages, the same page
 * over GraphQL.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

describe("paging headers (API.md §1 lists)", () => {
  async function ledger(n: number) {
    const p = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Paged" }).expect(201)).body
      .id as number;
    let holdingId = 0;
    for (let i = 0; i < n; i++) {
      const day = String(i + 1).padStart(2, "0");
      const trade = {
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: `2024-01-${day}`,
        quantity: 1,
        price: 100,
      };
      holdingId = (await t.http.post("/v1/trades").set("authorization", key).send(trade).expect(201)).body.holdingId;
    }
    const account = (
      await t.http
        .post("/v1/cash-accounts")
        .set("authorization", key)
        .send({ portfolioId: p, name: "Cash", currencyCode: "AUD" })
        .expect(201)
    ).body.id;
    await t.http
      .post("/v1/cash-transactions")
      .set("authorization", key)
      .send({ cashAccountId: account, type: "Deposit", date: "2023-12-01", amount: 1000 })
      .expect(201);
    return { p, holdingId };
  }

  /** rel → the link's offset and limit, with the rest of its query. */
  function links(header: string | undefined): Record<string, { path: string; query: Record<string, string> }> {
    const out: Record<string, { path: string; query: Record<string, string> }> = {};
    for (const m of (header ?? "").matchAll(/<([^>]*)>;\s*rel="(\w+)"/g)) {
      const url = new URL(m[1], "http://x");
      out[m[2]] = { path: url.pathname, query: Object.fromEntries(url.searchParams) };
    }
    return out;
  }

  it("GET /v1/portfolios/{p}/transactions says how many rows there are and links the pages", async () => {
    const { p } = await ledger(5); // 5 trades + 1 deposit = 6 rows
    const path = `/v1/portfolios/${p}/transactions`;
    const first = await t.http.get(`${path}?limit=2`).set("authorization", key);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    expect(first.headers["x-total-count"]).toBe("6");
    expect(links(first.headers["link"])).toEqual({
      first: { path, query: { limit: "2", offset: "0" } },
      next: { path, query: { limit: "2", offset: "2" } },
      last: { path, query: { limit: "2", offset: "4" } },
    });

    // Following next to the end visits every row once, in order, as one unpaged call lists them.
    const all = (await t.http.get(path).set("authorization", key)).body;
    expect(all).toHaveLength(6);
    const seen = [];
    let url: string | undefined = `${path}?limit=2`;
    while (url) {
      const res: request.Response = await t.http.get(url).set("authorization", key);
      expect(res.headers["x-total-count"]).toBe("6");
      seen.push(...res.body);
      const next = links(res.headers["link"]).next;
      url = next ? `${next.path}?${new URLSearchParams(next.query)}` : undefined;
    }
    expect(seen).toEqual(all);

    // Filters are kept in the links and counted; the alias links under its own prefix.
    const trades = await t.http
      .get(`/api/v1/portfolios/${p}/transactions?type=Trade&limit=4&offset=1`)
      .set("authorization", key);
    expect(trades.headers["x-total-count"]).toBe("5");
    expect(trades.body).toHaveLength(4);
    expect(links(trades.headers["link"])).toEqual({
      first: { path: `/api/v1/portfolios/${p}/transactions`, query: { type: "Trade", limit: "4", offset: "0" } },
      prev: { path: `/api/v1/portfolios/${p}/transactions`, query: { type: "Trade", limit: "4", offset: "0" } },
      last: { path: `/api/v1/portfolios/${p}/transactions`, query: { type: "Trade", limit: "4", offset: "1" } },
    });
    const cash = await t.http.get(`${path}?type=Deposit&from=2023-01-01&to=2023-12-31`).set("authorization", key);
    expect(cash.headers["x-total-count"]).toBe("1");
    // Past the end: no rows, the count still there.
    const beyond = await t.http.get(`${path}?offset=50&limit=10`).set("authorization", key);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers["x-total-count"]).toBe("6");
    expect(links(beyond.headers["link"]).next).toBeUndefined();
    expect(links(beyond.headers["link"]).prev.query.offset).toBe("0");
  });

  it("GraphQL lists the same page REST does", async () => {
    const { p } = await ledger(3);
    const rest = await t.http.get(`/v1/portfolios/${p}/transactions?limit=2&offset=1`).set("authorization", key);
    const gql = await t.gql(
      key,
      "query($p: ID!) { portfolio(id: $p) { transactions(limit: 2, offset: 1) { kind id date } } }",
      { p: String(p) },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(
      gql.body.data.portfolio.transactions.map((l: { kind: string; id: string; date: string }) => ({
        ...l,
        id: Number(l.id),
      })),
    ).toEqual(
      rest.body.map((l: { kind: string; id: number; date: string }) => ({ kind: l.kind, id: l.id, date: l.date })),
    );
  });

  it("a holding's trades: the service counts what the page is cut from", async () => {
    const { holdingId } = await ledger(5);
    const ctx = await serviceContext(t, key);
    const page = await listHoldingTrades(ctx, holdingId, { limit: "2", offset: "3" });
    expect({
      total: page.total,
      limit: page.limit,
      offset: page.offset,
      dates: page.items.map((x) => x.tradeDate),
    }).toEqual({ total: 5, limit: 2, offset: 3, dates: ["2024-01-04", "2024-01-05"] });
    // Once the REST route is paged, its headers say the same.
    if (endpoints.find((e) => e.operationId === "listHoldingTrades")?.paged) {
      const res = await t.http.get(`/v1/holdings/${holdingId}/trades?limit=2&offset=3`).set("authorization", key);
      expect(res.headers["x-total-count"]).toBe("5");
      expect(links(res.headers["link"]).prev.query).toEqual({ limit: "2", offset: "1" });
    }
  });
});
