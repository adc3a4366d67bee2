import { ledgerFingerprint, useTestApp } from "../support/app";
import { newTrade, postCreated } from "../factories";
import { expectError, expectInvalid, restCall, type Json, type Outcome } from "../support/outcomes";
import { gqlSimInput, taxReportsApi } from "./tax-hostile.transports";

/**
 * An attacker's input to the tax reports (docs/reports.md §0, §5): bad input on every field of every
 * operation is a 4xx naming the field, never a 500, and writes nothing.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, gql, basic } = taxReportsApi(t, () => key);

const NUL = "\u0000";

describe("bad input: 400 problem+json naming the field, never a 500, nothing written", () => {
  const yearReports = [
    ["capital-gains", rest.capitalGains],
    ["taxable-income", rest.income],
    ["ato-mytax", rest.myTax],
  ] as const;

  it.each(yearReports)("%s: every malformed financialYear is a 400 at financialYear", async (_, call) => {
    const s = await basic();
    const before = await ledgerFingerprint(t.db);
    for (const fy of [
      "2025.0",
      " 2025",
      "2025 ",
      "02025",
      "-1",
      "0",
      "",
      "abc",
      `2025${NUL}`,
      "99999999999999999999",
      "1e3",
      "1985",
      "2201",
      "0x7E9",
      "२०२५",
    ]) {
      const o = await call(key, s.p, { financialYear: fy });
      expect({ fy, status: o.status }).toEqual({ fy, status: 400 });
      expectInvalid(o, "financialYear");
    }
    // Repeated: ?financialYear=2025&financialYear=2026.
    const repeated = await restCall(
      t.http.get(`/v1/portfolios/${s.p}/reports/${_}?financialYear=2025&financialYear=2026`).set("authorization", key),
    );
    expectInvalid(repeated, "financialYear");
    // An unknown field, and one with a NUL in its name.
    expectInvalid(await call(key, s.p, { financialYear: 2025, year: 2025 }), "year");
    const nulName = await restCall(
      t.http.get(`/v1/portfolios/${s.p}/reports/${_}?financialYear=2025&x%00y=1`).set("authorization", key),
    );
    expectError(nulName, "VALIDATION_FAILED");
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("the PDF refuses the same years the JSON does, as problem+json", async () => {
    const s = await basic();
    for (const fy of ["2025.0", " 2025", "02025", "-1", "1985"]) {
      const res = await t.http
        .get(`/v1/portfolios/${s.p}/reports/ato-mytax/pdf`)
        .query({ financialYear: fy })
        .set("authorization", key);
      expect({ fy, status: res.status, type: res.headers["content-type"] }).toEqual({
        fy,
        status: 400,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
    }
  });

  it("unrealised: bad dates, future dates, bad flags are 400 at the field", async () => {
    const s = await basic();
    const before = await ledgerFingerprint(t.db);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    for (const date of [
      "2025-02-30",
      "2025-2-3",
      "2025-13-01",
      "",
      "25-03-01",
      `2025-03-01${NUL}`,
      "2025-03-01T00:00:00Z",
      "1899-12-31",
      future,
      "9999-12-31",
    ]) {
      const o = await rest.unrealised(key, s.p, { date });
      expect({ date, status: o.status }).toEqual({ date, status: 400 });
      expectInvalid(o, "date");
    }
    for (const flag of ["yes", "1", "TRUE", "", `true${NUL}`])
      expectInvalid(
        await rest.unrealised(key, s.p, { date: "2025-03-01", includeCarriedForward: flag }),
        "includeCarriedForward",
      );
    expectInvalid(await rest.unrealised(key, s.p, { date: "2025-03-01", financialYear: 2025 }), "financialYear");
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("simulate sell: every bad field of the body is a 400 at that field, and nothing is written", async () => {
    const s = await basic();
    const ok = { holdingId: s.holdingId, quantity: 10, price: 15, date: "2025-03-01" };
    const cases: [string, Json, string][] = [
      ["holdingId text", { holdingId: "abc" }, "holdingId"],
      ["holdingId negative", { holdingId: -1 }, "holdingId"],
      ["holdingId zero", { holdingId: 0 }, "holdingId"],
      ["holdingId fraction", { holdingId: 1.5 }, "holdingId"],
      ["holdingId huge", { holdingId: 1e20 }, "holdingId"],
      ["holdingId null", { holdingId: null }, "holdingId"],
      ["holdingId missing", { holdingId: undefined }, "holdingId"],
      ["quantity negative", { quantity: -1 }, "quantity"],
      ["quantity zero", { quantity: 0 }, "quantity"],
      ["quantity text", { quantity: "ten" }, "quantity"],
      ["quantity huge", { quantity: 1e16 }, "quantity"],
      ["quantity too precise", { quantity: "1.123456789" }, "quantity"],
      ["quantity NUL", { quantity: `10${NUL}` }, "quantity"],
      ["quantity boolean", { quantity: true }, "quantity"],
      ["quantity array", { quantity: [10] }, "quantity"],
      ["price negative", { price: -1 }, "price"],
      ["price missing", { price: undefined }, "price"],
      ["price NaN text", { price: "NaN" }, "price"],
      ["price Infinity text", { price: "Infinity" }, "price"],
      ["date not a day", { date: "2025-02-30" }, "date"],
      ["date shape", { date: "01/03/2025" }, "date"],
      ["date NUL", { date: `2025-03-01${NUL}` }, "date"],
      ["date number", { date: 20250301 }, "date"],
      ["brokerage negative", { brokerage: -1 }, "brokerage"],
      ["brokerage huge", { brokerage: 1e16 }, "brokerage"],
      // Trades take brokerage below 10^15 (DECIMAL(19,4)): a simulated sell's is bound the same.
      ["brokerage 10^15", { brokerage: 1e15 }, "brokerage"],
      ["exchangeRate zero", { exchangeRate: 0 }, "exchangeRate"],
      ["exchangeRate negative", { exchangeRate: -2 }, "exchangeRate"],
      ["method unknown", { method: "Bogus" }, "method"],
      ["method NUL", { method: `FIFO${NUL}` }, "method"],
      ["parcels empty", { parcels: [] }, "parcels"],
      ["parcels not a list", { parcels: { tradeId: s.buyId, quantity: 1 } }, "parcels"],
      ["parcel without quantity", { parcels: [{ tradeId: s.buyId }] }, "parcels[0].quantity"],
      ["parcel with a bad tradeId", { parcels: [{ tradeId: "x", quantity: 1 }] }, "parcels[0].tradeId"],
      ["parcel with an extra field", { parcels: [{ tradeId: s.buyId, quantity: 1, note: "x" }] }, "parcels[0].note"],
      ["an extra field", { portfolioId: s.p }, "portfolioId"],
      ["a NUL-named field", { [`a${NUL}b`]: 1 }, `a${NUL}b`],
    ];
    const before = await ledgerFingerprint(t.db);
    for (const [name, change, path] of cases) {
      const o = await rest.simulate(key, s.p, { ...ok, ...change });
      expect({ name, status: o.status, code: o.code }).toEqual({ name, status: 400, code: "VALIDATION_FAILED" });
      expect({ name, paths: (o.errors ?? []).map((e) => e.path) }).toEqual({
        name,
        paths: expect.arrayContaining([path]),
      });
    }
    for (const body of [[ok], "text", 42]) {
      const res = await t.http
        .post(`/v1/portfolios/${s.p}/simulate-sell`)
        .set("authorization", key)
        .set("content-type", "application/json")
        .send(JSON.stringify(body));
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const broken = await t.http
      .post(`/v1/portfolios/${s.p}/simulate-sell`)
      .set("authorization", key)
      .set("content-type", "application/json")
      .send('{"holdingId": 1,');
    expect(broken.status).toBe(400);
    expect(broken.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("simulate sell: refusals of the rules are 4xx, never 500 (parcels of another holding or account, more than held, before any buy)", async () => {
    const s = await basic();
    const other = await newTrade(t, key, {
      portfolioId: s.p,
      symbol: "BBB",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2023-05-02",
      quantity: 10,
      price: 1,
    });
    const stranger = await t.newAccount("stranger");
    const foreign = await basic(stranger);
    const before = await ledgerFingerprint(t.db);
    const ok = { holdingId: s.holdingId, quantity: 10, price: 15, date: "2025-03-01" };
    for (const [name, body] of [
      ["a parcel of another holding", { ...ok, parcels: [{ tradeId: other.id, quantity: 10 }] }],
      ["a parcel of another account", { ...ok, parcels: [{ tradeId: foreign.buyId, quantity: 10 }] }],
      ["a parcel that does not exist", { ...ok, parcels: [{ tradeId: 987654321, quantity: 10 }] }],
      ["a parcel for fewer units than the quantity", { ...ok, parcels: [{ tradeId: s.buyId, quantity: 5 }] }],
      ["a parcel for more units than it has", { ...ok, quantity: 60, parcels: [{ tradeId: s.buyId, quantity: 60 }] }],
      ["more than held", { ...ok, quantity: 51 }],
      ["before any buy", { ...ok, date: "2020-01-01" }],
    ] as const) {
      const o = await rest.simulate(key, s.p, body);
      expect({ name, ok: o.ok, status: o.status >= 400 && o.status < 500 }).toEqual({ name, ok: false, status: true });
    }
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  // A zod union of number | digit-string reports only zod's generic "Invalid input" when both
  // members fail unless the union carries its own message (tax.schemas.ts gives it one).
  it("a malformed financialYear or includeCarriedForward is refused with a message saying what is expected, not zod's 'Invalid input'", async () => {
    const s = await basic();
    for (const fy of ["abc", "2025.0", " 2025"]) {
      const o = await rest.capitalGains(key, s.p, { financialYear: fy });
      expectInvalid(o, "financialYear");
      expect({ fy, message: o.errors![0].message }).toEqual({ fy, message: expect.stringMatching(/year/) });
    }
    const flag = await rest.unrealised(key, s.p, { date: "2025-03-01", includeCarriedForward: "yes" });
    expectInvalid(flag, "includeCarriedForward");
    expect(flag.errors![0].message).toMatch(/true|false/);
  });

  it("interest in a foreign cash account with no rate to convert it: a 422 naming the rate, not a 500", async () => {
    const s = await basic();
    const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId: s.p,
      name: "US savings",
      currencyCode: "USD",
    });
    await postCreated(t, key, "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "InterestPayment",
      date: "2024-12-31",
      amount: 5,
    });
    for (const o of [
      await rest.income(key, s.p, { financialYear: 2025 }),
      await rest.myTax(key, s.p, { financialYear: 2025 }),
    ]) {
      expectError(o, "BUSINESS_RULE");
      expect(o.message).toMatch(/USD/);
    }
  });

  it("GraphQL: variables of the wrong type are coded errors, never INTERNAL", async () => {
    const s = await basic();
    const codeOf = (o: Outcome<Json>) => (o.ok ? "ok" : o.code);
    for (const fy of ["2025", 2025.5, -1, 1985, 2201, 2 ** 31, true]) {
      for (const call of [gql.capitalGains, gql.income, gql.myTax]) {
        const o = await call(key, s.p, fy);
        expect({ fy, code: codeOf(o) }).toEqual({
          fy,
          code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED)$/),
        });
        if (!o.ok && o.code === "VALIDATION_FAILED") expect(o.errors?.map((e) => e.path)).toContain("financialYear");
      }
    }
    for (const [d, cf] of [
      ["2025-02-30", undefined],
      [20250301, undefined],
      ["2025-03-01", "yes"],
      [`2025-03-01${NUL}`, undefined],
    ] as const) {
      const o = await gql.unrealised(key, s.p, d, cf);
      expect({ d, code: codeOf(o) }).toEqual({
        d,
        code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED)$/),
      });
    }
    const ok = gqlSimInput({ holdingId: s.holdingId, quantity: "10", price: "15", date: "2025-03-01" });
    for (const [name, input, field] of [
      ["quantity negative", { ...ok, quantity: "-1" }, "quantity"],
      ["quantity not a decimal", { ...ok, quantity: "ten" }, "quantity"],
      ["price negative", { ...ok, price: "-15" }, "price"],
      ["date not a day", { ...ok, date: "2025-02-30" }, "date"],
      ["method unknown", { ...ok, method: "Bogus" }, "method"],
      ["holdingId not an id", { ...ok, holdingId: "abc" }, "holdingId"],
      ["extra field", { ...ok, portfolioId: String(s.p) }, "portfolioId"],
      ["parcels empty", { ...ok, parcels: [] }, "parcels"],
    ] as const) {
      const o = await gql.simulate(key, s.p, input);
      expect({ name, code: codeOf(o) }).toEqual({
        name,
        code: expect.stringMatching(/^(BAD_USER_INPUT|VALIDATION_FAILED)$/),
      });
      if (!o.ok)
        expect({ name, names: `${o.message} ${JSON.stringify(o.errors ?? [])}`.includes(field) }).toEqual({
          name,
          names: true,
        });
    }
  });
});
