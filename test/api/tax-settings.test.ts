import type request from "supertest";
import { ledgerSnapshot, startTestApp, type TestApp } from "../support/app";
import { newPortfolio, newTrade } from "../support/kit";
import {
  expectAbsent,
  expectError,
  expectInvalid,
  failureMessage,
  gqlOutcome,
  restCall,
  type Outcome,
} from "../support/outcomes";

/**
 * Tax settings (API.md §2 Tax settings): over REST and over GraphQL on the same scenarios. They
 * follow the portfolio's scope (another account's portfolio: NOT_FOUND; a client key reads them,
 * and changes them with ReadWrite only), lists are replaced as a whole, and a change of parcel
 * methods that would break a recorded manual parcel pick is refused with nothing written.
 */

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

interface TaxSettings {
  portfolioId: number;
  entityType: string;
  defaultMethod: string;
  yearMethods: { financialYear: number; method: string }[];
  holdingOverrides: { holdingId: number; financialYear: number; method: string }[];
  /** Amounts as decimal strings on both transports, for comparison. */
  carriedForwardLosses: { financialYear: number; amount: string }[];
}

interface Transport {
  name: "REST" | "GraphQL";
  list(key: string): Promise<Outcome<TaxSettings[]>>;
  /** REST: 404 when absent; GraphQL: portfolioTaxSettings is null. */
  get(key: string, portfolioId: unknown): Promise<Outcome<TaxSettings | null>>;
  update(key: string, portfolioId: unknown, input: unknown): Promise<Outcome<TaxSettings>>;
}

const FIELDS = `portfolioId entityType defaultMethod yearMethods { financialYear method }
  holdingOverrides { holdingId financialYear method } carriedForwardLosses { financialYear amount }`;

type Wire = Omit<TaxSettings, "portfolioId" | "holdingOverrides" | "carriedForwardLosses"> & {
  portfolioId: number | string;
  holdingOverrides: { holdingId: number | string; financialYear: number; method: string }[];
  carriedForwardLosses: { financialYear: number; amount: number | string }[];
};

/** REST numbers and GraphQL strings (ids, Decimal) read as one shape. */
function normalise(s: Wire | null): TaxSettings | null {
  if (!s) return null;
  expect(String(s.portfolioId)).toMatch(/^\d+$/);
  return {
    ...s,
    portfolioId: Number(s.portfolioId),
    holdingOverrides: s.holdingOverrides.map((o) => ({ ...o, holdingId: Number(o.holdingId) })),
    carriedForwardLosses: s.carriedForwardLosses.map((l) => ({ ...l, amount: String(l.amount) })),
  };
}

/** GraphQL's ID takes strings; Int and Decimal take what they are given. */
function toGraphQLInput(input: Record<string, unknown>): Record<string, unknown> {
  const overrides = input.holdingOverrides as Record<string, unknown>[] | undefined;
  if (!Array.isArray(overrides)) return input;
  return {
    ...input,
    holdingOverrides: overrides.map((o) => ({
      ...o,
      holdingId: typeof o.holdingId === "number" ? String(o.holdingId) : o.holdingId,
    })),
  };
}

/** A trade over REST: 10 CBA on the ASX at $1 unless `body` says otherwise. */
const trade = (k: string, body: Record<string, unknown>) =>
  newTrade(t, k, { symbol: "CBA", exchange: "ASX", quantity: 10, price: 1, ...body });

const rest: Transport = {
  name: "REST",
  list: async (k) =>
    restCall(await t.http.get("/v1/tax-settings").set("authorization", k), 200, (ss: Wire[]) =>
      ss.map((s) => normalise(s)!),
    ),
  get: async (k, p) =>
    restCall(await t.http.get(`/v1/portfolios/${p}/tax-settings`).set("authorization", k), 200, (s: Wire) =>
      normalise(s),
    ),
  update: async (k, p, input) =>
    restCall(
      await t.http
        .put(`/v1/portfolios/${p}/tax-settings`)
        .set("authorization", k)
        .send(input as object),
      200,
      (s: Wire) => normalise(s)!,
    ),
};

const graphql: Transport = {
  name: "GraphQL",
  list: async (k) =>
    gqlOutcome(await t.gql(k, `{ taxSettings { ${FIELDS} } }`), "taxSettings", (ss: Wire[]) =>
      ss.map((s) => normalise(s)!),
    ),
  get: async (k, p) =>
    gqlOutcome(
      await t.gql(k, `query ($p: ID!) { portfolioTaxSettings(portfolioId: $p) { ${FIELDS} } }`, { p: String(p) }),
      "portfolioTaxSettings",
      (s: Wire | null) => normalise(s),
    ),
  update: async (k, p, input) =>
    gqlOutcome(
      await t.gql(
        k,
        `mutation ($p: ID!, $input: TaxSettingsInput!) { updateTaxSettings(portfolioId: $p, input: $input) { ${FIELDS} } }`,
        {
          p: String(p),
          input: toGraphQLInput(input as Record<string, unknown>),
        },
      ),
      "updateTaxSettings",
      (s: Wire) => normalise(s)!,
    ),
};

const defaults = (portfolioId: number): TaxSettings => ({
  portfolioId,
  entityType: "Individual",
  defaultMethod: "FIFO",
  yearMethods: [],
  holdingOverrides: [],
  carriedForwardLosses: [],
});

/**
 * Two buys of CBA, a sell without a pick on 2024-03-01 (FIFO: it takes the first buy's parcel),
 * then a sell on 2024-04-01 that picks the second buy's parcel by hand. Both sells fall in FY2024.
 * Under LIFO the first sell would take the second buy's parcel, leaving the later pick without units.
 */
async function manualPickScenario(k: string, portfolioId: number) {
  const first = await trade(k, { portfolioId, tradeType: "Buy", tradeDate: "2024-01-10" });
  const second = await trade(k, { portfolioId, tradeType: "Buy", tradeDate: "2024-02-10" });
  await trade(k, { portfolioId, tradeType: "Sell", tradeDate: "2024-03-01", price: 2 });
  await trade(k, {
    portfolioId,
    tradeType: "Sell",
    tradeDate: "2024-04-01",
    price: 2,
    parcels: [{ tradeId: second.id, quantity: 10 }],
  });
  return { holdingId: first.holdingId, secondBuy: second.id };
}

describe.each([rest, graphql])("tax settings over $name", (tr) => {
  it("a new portfolio has the defaults: Individual, FIFO, empty lists", async () => {
    const p = await newPortfolio(t, key);
    const o = await tr.get(key, p);
    expect(o.code).toBeUndefined();
    expect(o.data).toEqual(defaults(p));
    if (tr.name === "REST") {
      expect(Object.keys(o.res.body).sort()).toEqual([
        "carriedForwardLosses",
        "defaultMethod",
        "entityType",
        "holdingOverrides",
        "portfolioId",
        "yearMethods",
      ]);
    }
    expect((await tr.list(key)).data).toEqual([defaults(p)]);
  });

  it("stores every field, answers the lists sorted, and reads them back the same", async () => {
    const p = await newPortfolio(t, key);
    const other = await newPortfolio(t, key, { name: "Other", entityType: "SMSF" });
    const a = (await trade(key, { portfolioId: p, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const b = (await trade(key, { portfolioId: p, symbol: "BHP", tradeType: "Buy", tradeDate: "2024-01-10" }))
      .holdingId;
    const o = await tr.update(key, p, {
      entityType: "Trust",
      defaultMethod: "MinimiseCGT",
      yearMethods: [
        { financialYear: 2026, method: "LIFO" },
        { financialYear: 2025, method: "MaximiseGain" },
      ],
      holdingOverrides: [
        { holdingId: b, financialYear: 2025, method: "FIFO" },
        { holdingId: a, financialYear: 2026, method: "MinimiseGain" },
        { holdingId: a, financialYear: 2025, method: "LIFO" },
      ],
      carriedForwardLosses: [
        { financialYear: 2025, amount: "1520.5" },
        { financialYear: 2024, amount: 99.1234 },
        { financialYear: 2023, amount: 0 },
      ],
    });
    expect(o.code).toBeUndefined();
    const expected: TaxSettings = {
      portfolioId: p,
      entityType: "Trust",
      defaultMethod: "MinimiseCGT",
      yearMethods: [
        { financialYear: 2025, method: "MaximiseGain" },
        { financialYear: 2026, method: "LIFO" },
      ],
      holdingOverrides: [
        { holdingId: a, financialYear: 2025, method: "LIFO" },
        { holdingId: a, financialYear: 2026, method: "MinimiseGain" },
        { holdingId: b, financialYear: 2025, method: "FIFO" },
      ],
      carriedForwardLosses: [
        { financialYear: 2023, amount: "0" },
        { financialYear: 2024, amount: "99.1234" },
        { financialYear: 2025, amount: "1520.5" },
      ],
    };
    expect(o.data).toEqual(expected);
    expect((await tr.get(key, p)).data).toEqual(expected);
    expect((await tr.list(key)).data).toEqual([expected, { ...defaults(other), entityType: "SMSF" }]);
    // entityType and defaultMethod are the portfolio's own.
    expect((await t.http.get(`/v1/portfolios/${p}`).set("authorization", key)).body.entityType).toBe("Trust");
  });

  it("replaces only the lists given; an empty list clears one", async () => {
    const p = await newPortfolio(t, key);
    await tr.update(key, p, {
      yearMethods: [{ financialYear: 2025, method: "LIFO" }],
      carriedForwardLosses: [{ financialYear: 2025, amount: 10 }],
    });
    const o = await tr.update(key, p, { carriedForwardLosses: [{ financialYear: 2026, amount: 20 }] });
    expect(o.data).toEqual({
      ...defaults(p),
      yearMethods: [{ financialYear: 2025, method: "LIFO" }],
      carriedForwardLosses: [{ financialYear: 2026, amount: "20" }],
    });
    const cleared = await tr.update(key, p, { yearMethods: [], defaultMethod: "LIFO" });
    expect(cleared.data).toEqual({
      ...defaults(p),
      defaultMethod: "LIFO",
      carriedForwardLosses: [{ financialYear: 2026, amount: "20" }],
    });
    // An empty change changes nothing.
    expect((await tr.update(key, p, {})).data).toEqual(cleared.data);
  });

  it("keeps amounts exact to 4 decimals", async () => {
    const p = await newPortfolio(t, key);
    const o = await tr.update(key, p, {
      carriedForwardLosses: [{ financialYear: 2025, amount: "123456789012345.1234" }],
    });
    expect(o.code).toBeUndefined();
    if (tr.name === "REST") expect(o.res.text).toContain('"amount":123456789012345.1234');
    else
      expect(o.res.body.data.updateTaxSettings.carriedForwardLosses).toEqual([
        { financialYear: 2025, amount: "123456789012345.1234" },
      ]);
    const [row] = await t.db.sql<{ amount: string }>("SELECT amount::text AS amount FROM carried_forward_loss");
    expect(row.amount).toBe("123456789012345.1234");
  });

  const BAD: [string, Record<string, unknown>, string[], "both" | "REST"][] = [
    [
      "financialYear 1989",
      { yearMethods: [{ financialYear: 1989, method: "FIFO" }] },
      ["yearMethods[0].financialYear"],
      "both",
    ],
    [
      "financialYear 2101",
      { carriedForwardLosses: [{ financialYear: 2101, amount: 1 }] },
      ["carriedForwardLosses[0].financialYear"],
      "both",
    ],
    [
      "a year method repeated",
      {
        yearMethods: [
          { financialYear: 2025, method: "FIFO" },
          { financialYear: 2024, method: "LIFO" },
          { financialYear: 2025, method: "LIFO" },
        ],
      },
      ["yearMethods[2].financialYear"],
      "both",
    ],
    [
      "a loss year repeated",
      {
        carriedForwardLosses: [
          { financialYear: 2025, amount: 1 },
          { financialYear: 2025, amount: 2 },
        ],
      },
      ["carriedForwardLosses[1].financialYear"],
      "both",
    ],
    [
      "a negative loss",
      { carriedForwardLosses: [{ financialYear: 2025, amount: -1 }] },
      ["carriedForwardLosses[0].amount"],
      "both",
    ],
    [
      "a loss with 5 decimals",
      { carriedForwardLosses: [{ financialYear: 2025, amount: "1.23456" }] },
      ["carriedForwardLosses[0].amount"],
      "both",
    ],
    [
      "a loss that is not a number",
      { carriedForwardLosses: [{ financialYear: 2025, amount: "12abc" }] },
      ["carriedForwardLosses[0].amount"],
      "both",
    ],
    [
      "a loss beyond DECIMAL(19,4)",
      { carriedForwardLosses: [{ financialYear: 2025, amount: "10000000000000000" }] },
      ["carriedForwardLosses[0].amount"],
      "both",
    ],
    [
      "a malformed holdingId",
      { holdingOverrides: [{ holdingId: "abc", financialYear: 2025, method: "LIFO" }] },
      ["holdingOverrides[0].holdingId"],
      "both",
    ],
    [
      "a fractional financialYear",
      { yearMethods: [{ financialYear: 2025.5, method: "FIFO" }] },
      ["yearMethods[0].financialYear"],
      "REST",
    ],
    ['defaultMethod "HIFO"', { defaultMethod: "HIFO" }, ["defaultMethod"], "REST"],
    ['entityType "Person"', { entityType: "Person" }, ["entityType"], "REST"],
    ["a year method without a method", { yearMethods: [{ financialYear: 2025 }] }, ["yearMethods[0].method"], "REST"],
    ["yearMethods that is not a list", { yearMethods: "FIFO" }, ["yearMethods"], "REST"],
  ];

  it.each(BAD)(
    "rejects %s with VALIDATION_FAILED naming the path, writing nothing",
    async (_label, input, paths, where) => {
      const p = await newPortfolio(t, key);
      await tr.update(key, p, {
        yearMethods: [{ financialYear: 2020, method: "LIFO" }],
        carriedForwardLosses: [{ financialYear: 2020, amount: 5 }],
      });
      const before = await ledgerSnapshot(t.db);
      const o = await tr.update(key, p, { entityType: "Company", ...input });
      // GraphQL's own types (enums, Int, lists) refuse some values before the service sees them.
      if (where === "both" || tr.name === "REST") expectInvalid(o, ...paths);
      else expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    },
  );

  it("rejects a holding override repeated for the same holding and year, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    const h = (await trade(key, { portfolioId: p, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const before = await ledgerSnapshot(t.db);
    const o = await tr.update(key, p, {
      holdingOverrides: [
        { holdingId: h, financialYear: 2025, method: "LIFO" },
        { holdingId: h, financialYear: 2026, method: "LIFO" },
        { holdingId: h, financialYear: 2025, method: "FIFO" },
      ],
    });
    expectInvalid(o, "holdingOverrides[2].financialYear");
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("answers NOT_FOUND for an override of a holding of another portfolio, another account, or none, writing nothing", async () => {
    const p = await newPortfolio(t, key);
    const q = await newPortfolio(t, key, { name: "Q" });
    const mine = (await trade(key, { portfolioId: p, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const elsewhere = (await trade(key, { portfolioId: q, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const other = await t.newAccount();
    const theirs = (
      await trade(other, { portfolioId: await newPortfolio(t, other), tradeType: "Buy", tradeDate: "2024-01-10" })
    ).holdingId;
    const before = await ledgerSnapshot(t.db);
    for (const holdingId of [elsewhere, theirs, 999999]) {
      const o = await tr.update(key, p, {
        defaultMethod: "LIFO",
        holdingOverrides: [
          { holdingId: mine, financialYear: 2025, method: "LIFO" },
          { holdingId, financialYear: 2025, method: "LIFO" },
        ],
      });
      expectError(o, "NOT_FOUND", 404);
      expect(failureMessage(o)).toContain(`Holding ${holdingId}`);
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  describe("parcel methods against recorded manual picks", () => {
    it.each([
      ["the default method LIFO", { defaultMethod: "LIFO" }],
      ["FY2024's method LIFO", { yearMethods: [{ financialYear: 2024, method: "LIFO" }] }],
      ["a holding override LIFO for FY2024", "override"],
    ] as const)(
      "refuses %s (BUSINESS_RULE) when an earlier sell would take the parcel a later pick needs; nothing is written",
      async (_label, change) => {
        const p = await newPortfolio(t, key);
        const { holdingId } = await manualPickScenario(key, p);
        const settings = (await tr.get(key, p)).data;
        const before = await ledgerSnapshot(t.db);

        const input =
          change === "override" ? { holdingOverrides: [{ holdingId, financialYear: 2024, method: "LIFO" }] } : change;
        const o = await tr.update(key, p, {
          entityType: "SMSF",
          carriedForwardLosses: [{ financialYear: 2025, amount: 100 }],
          ...input,
        });
        expectError(o, "BUSINESS_RULE", 422);
        expect(failureMessage(o)).toContain(`holding ${holdingId}`);

        expect(await ledgerSnapshot(t.db)).toBe(before);
        expect((await tr.get(key, p)).data).toEqual(settings);
      },
    );

    it("accepts methods that leave every pick possible: another year's, or a year's FIFO under a LIFO default", async () => {
      const p = await newPortfolio(t, key);
      const { holdingId } = await manualPickScenario(key, p);
      expect(
        (
          await tr.update(key, p, {
            yearMethods: [{ financialYear: 2025, method: "LIFO" }],
            holdingOverrides: [{ holdingId, financialYear: 2023, method: "LIFO" }],
          })
        ).code,
      ).toBeUndefined();
      // Precedence (DOMAIN.md §2): the year's FIFO beats the default LIFO, so FY2024's sells are unchanged.
      const o = await tr.update(key, p, {
        defaultMethod: "LIFO",
        yearMethods: [{ financialYear: 2024, method: "FIFO" }],
      });
      expect(o.code).toBeUndefined();
      expect(o.data).toMatchObject({ defaultMethod: "LIFO", yearMethods: [{ financialYear: 2024, method: "FIFO" }] });
      // The holdings still read (the stored ledger folds under the new methods).
      expect(
        (await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key)).status,
      ).toBe(200);
    });
  });

  describe("tenant isolation and client keys", () => {
    it("hides another account's portfolio exactly like a missing one, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await newPortfolio(t, key);
      const before = await ledgerSnapshot(t.db);
      expect((await tr.list(other)).data).toEqual([]);
      expectAbsent(await tr.get(other, mine));
      expectAbsent(await tr.get(key, 999999));
      expectError(await tr.update(other, mine, { defaultMethod: "LIFO" }), "NOT_FOUND", 404);
      expectError(await tr.update(key, 999999, { defaultMethod: "LIFO" }), "NOT_FOUND", 404);
      expectInvalid(await tr.update(key, "abc", { defaultMethod: "LIFO" }), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a client key with Read reads its portfolios' settings only, and may change none (FORBIDDEN)", async () => {
      const hers = await newPortfolio(t, key, { name: "Hers" });
      const notHers = await newPortfolio(t, key, { name: "Not hers" });
      const login = await t.newClientKey(key, "Read", [hers]);
      const before = await ledgerSnapshot(t.db);
      expect((await tr.list(login)).data).toEqual([defaults(hers)]);
      expect((await tr.get(login, hers)).data).toEqual(defaults(hers));
      expectAbsent(await tr.get(login, notHers));
      expectError(await tr.update(login, hers, { defaultMethod: "LIFO" }), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a client key with ReadWrite changes its portfolios' settings, and another portfolio's answers NOT_FOUND", async () => {
      const hers = await newPortfolio(t, key, { name: "Hers" });
      const notHers = await newPortfolio(t, key, { name: "Not hers" });
      const login = await t.newClientKey(key, "ReadWrite", [hers]);
      const o = await tr.update(login, hers, { defaultMethod: "LIFO" });
      expect(o.code).toBeUndefined();
      expect(o.data).toEqual({ ...defaults(hers), defaultMethod: "LIFO" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(login, notHers, { defaultMethod: "LIFO" }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  it("reads the same settings on both transports", async () => {
    const p = await newPortfolio(t, key);
    const h = (await trade(key, { portfolioId: p, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const o = await tr.update(key, p, {
      defaultMethod: "MaximiseGain",
      yearMethods: [{ financialYear: 2025, method: "LIFO" }],
      holdingOverrides: [{ holdingId: h, financialYear: 2025, method: "FIFO" }],
      carriedForwardLosses: [{ financialYear: 2025, amount: "12.5" }],
    });
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, p)).data).toEqual(o.data);
      expect((await reader.list(key)).data).toEqual([o.data]);
    }
  });
});

describe("REST specifics", () => {
  it("bad portfolio ids: abc → 400 naming portfolioId, 999999 → 404, on GET and PUT", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const [id, status] of [
      ["abc", 400],
      ["999999", 404],
    ] as const) {
      for (const res of [
        await t.http.get(`/v1/portfolios/${id}/tax-settings`).set("authorization", key),
        await t.http.put(`/v1/portfolios/${id}/tax-settings`).set("authorization", key).send({ defaultMethod: "LIFO" }),
      ]) {
        expect(res.status).toBe(status);
        if (status === 400) expect(res.body.errors).toEqual([{ path: "portfolioId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("PUT ignores the read-only portfolioId of a body copied from GET", async () => {
    const p = await newPortfolio(t, key);
    const got = (await t.http.get(`/v1/portfolios/${p}/tax-settings`).set("authorization", key)).body;
    const res = await t.http
      .put(`/v1/portfolios/${p}/tax-settings`)
      .set("authorization", key)
      .send({ ...got, defaultMethod: "LIFO" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...got, defaultMethod: "LIFO" });
  });
});
