import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, expectInvalid, failureMessage } from "../support/outcomes";
import { taxSettingsApi } from "./tax-settings.transports";

/**
 * Bad settings are refused naming the path (VALIDATION_FAILED, or NOT_FOUND for another portfolio's
 * holding), writing nothing.
 *
 * Tax settings (docs/reports.md §5, docs/rules.md §3): over REST and over GraphQL on the same scenarios. They
 * follow the portfolio's scope (another account's portfolio: NOT_FOUND; a client key reads them,
 * and changes them with ReadWrite only), lists are replaced as a whole, and a change of parcel
 * methods that would break a recorded manual parcel pick is refused with nothing written.
 */

const t = useTestApp();
let key: string;
const { trade, rest, graphql } = taxSettingsApi(t);

beforeEach(async () => {
  key = await t.newAccount();
});

describe.each([rest, graphql])("tax settings over $name", (tr) => {
  const BAD: [string, Record<string, unknown>, string[], "both" | "REST"][] = [
    [
      "financialYear 1985",
      { yearMethods: [{ financialYear: 1985, method: "FIFO" }] },
      ["yearMethods[0].financialYear"],
      "both",
    ],
    [
      "financialYear 2201",
      { carriedForwardLosses: [{ financialYear: 2201, amount: 1 }] },
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
});
