import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectError, failureMessage } from "../support/outcomes";
import { taxSettingsApi } from "./tax-settings.transports";

/**
 * Parcel methods against recorded manual picks: a change that would take a parcel a later pick needs
 * is refused (BUSINESS_RULE); one that leaves every pick possible is kept.
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
      // Precedence (docs/rules.md §3): the year's FIFO beats the default LIFO, so FY2024's sells are unchanged.
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
});
