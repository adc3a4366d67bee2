import { newPortfolio } from "../factories";
import { type FieldError } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { holdingsApi } from "./holdings.transports";

/**
 * What only REST shows about holdings: exact fields, query-string validation, bad ids.
 * (Split from holdings.test.ts by story; the transports and setup functions are in ./holdings.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { buy } = holdingsApi(t, () => key);

describe("REST specifics", () => {
  it("a holding answers exactly the documented fields, numbers as JSON numbers", async () => {
    const p = await newPortfolio(t, key);
    const b = await buy(p, "CBA", "10.5", "152.39", "2024-01-10");
    const res = await t.http.get(`/v1/holdings/${b.holdingId}`).set("authorization", key);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "baseCurrencyCode",
        "classification",
        "costBase",
        "currencyCode",
        "drp",
        "exchange",
        "exchangeRate",
        "holdingType",
        "id",
        "marketValue",
        "name",
        "notes",
        "pendingCorporateActions",
        "portfolioId",
        "price",
        "priceDate",
        "priceSource",
        "priceStale",
        "quantity",
        "symbol",
        "unrealisedGain",
      ].sort(),
    );
    expect(res.text).toContain('"costBase":1600.095');
  });

  it("rejects a missing or bad q, limit and includeClosed on the query string", async () => {
    const p = await newPortfolio(t, key);
    for (const [url, path] of [
      ["/v1/securities/search", "q"],
      ["/v1/securities/search?q=CBA&limit=abc", "limit"],
      [`/v1/portfolios/${p}/holdings?includeClosed=yes`, "includeClosed"],
      [`/v1/portfolios/${p}/holdings?date=2024-02-30`, "date"],
    ]) {
      const res = await t.http.get(url).set("authorization", key);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: "VALIDATION_FAILED" });
      expect(res.body.errors.map((e: FieldError) => e.path)).toContain(path);
    }
  });

  it("a date query that is not YYYY-MM-DD, or has month 13, is 400 naming date (not a 500)", async () => {
    const p = await newPortfolio(t, key);
    for (const date of ["2024-13-01", "01/02/2024", "today"]) {
      const res = await t.http.get(`/v1/portfolios/${p}/holdings`).query({ date }).set("authorization", key);
      expect({ date, status: res.status, code: res.body.code }).toEqual({
        date,
        status: 400,
        code: "VALIDATION_FAILED",
      });
      expect(res.body.errors).toEqual([{ path: "date", message: expect.any(String) }]);
    }
  });

  it("POST /v1/portfolios/{p}/holdings answers 201; bad holding ids are 400 naming holdingId", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.http
      .post(`/v1/portfolios/${p}/holdings`)
      .set("authorization", key)
      .send({ symbol: "FARM", name: "Farm" });
    expect(res.status).toBe(201);
    for (const id of ["abc", "0", "-3"]) {
      const bad = await t.http.get(`/v1/holdings/${id}`).set("authorization", key);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ path: "holdingId", message: expect.any(String) }]);
    }
  });
});
