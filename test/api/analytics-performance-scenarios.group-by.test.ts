import { useTestApp } from "../support/app";
import { newPortfolio, postCreated } from "../factories";
import { expectOk } from "../support/outcomes";
import { expectComponentsAddUp, expectIdentity, type Report } from "./analytics.transports";
import { num, expectRate, performanceScenarioSetup } from "./analytics-performance-scenarios.setup";

/**
 * Performance grouped by every groupBy: sector, industry, currency, exchange, holdingType and a custom
 * group; the groups add up to the portfolio (docs/reports.md §2; notation and identity in
 * ./analytics-performance-scenarios.setup.ts).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { transports, send, marketPrices, usdAud, buy } = performanceScenarioSetup(t, () => key);

describe.each(transports)("performance scenarios over $name", (tr) => {
  describe("groupBy", () => {
    /**
     * 2024-06-01..2024-06-30 (T = 30). An unsynced AUD cash account: deposit 1,000 on 06-01, interest
     * 5 on 06-30 (closing 1,005; return 5, dividend). On 06-03 buys (flows, nothing synced):
     *   CBA (ASX, AUD, Stock; Financials / Banks): 10 @ 100 = 1,000 → 10 × 110 = 1,100: +100
     *   VAS (ASX, AUD, Etf; no sector or industry): 20 @ 50 = 1,000 → 20 × 48 = 960: −40
     *   AAPL (NASDAQ, USD, Stock; Information Technology / Technology Hardware): 10 @ 200 USD at
     *     1.5 = 3,000 → 10 × 210 × 1.5 = 3,150: +150 (the rate does not move: no currency gain)
     * totalValue 1,100 + 960 + 3,150 + 1,005 = 6,215; net flows 1,000 + 1,000 + 1,000 + 3,000 = 6,000;
     * total 215 = 100 − 40 + 150 + 5.
     */
    async function classified() {
      const p = await newPortfolio(t, key, { name: "Grouped" });
      await usdAud([["2024-06-01", 1.5]]);
      await marketPrices("CBA", "ASX", [["2024-06-30", 110]]);
      await marketPrices("VAS", "ASX", [["2024-06-30", 48]]);
      await marketPrices("AAPL", "NASDAQ", [["2024-06-30", 210]]);
      const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
        portfolioId: p,
        name: "Cash",
        currencyCode: "AUD",
        syncTrades: false,
      });
      await postCreated(t, key, "/v1/cash-transactions", {
        cashAccountId: cash.id,
        type: "Deposit",
        date: "2024-06-01",
        amount: 1000,
      });
      await postCreated(t, key, "/v1/cash-transactions", {
        cashAccountId: cash.id,
        type: "InterestPayment",
        date: "2024-06-30",
        amount: 5,
      });
      const cba = (await buy(p, "CBA", "ASX", "2024-06-03", 10, 100)).holdingId;
      const vas = (await buy(p, "VAS", "ASX", "2024-06-03", 20, 50)).holdingId;
      const aapl = (await buy(p, "AAPL", "NASDAQ", "2024-06-03", 10, 200)).holdingId;
      await send("put", `/v1/holdings/${cba}`, { classification: { sector: "Financials", industry: "Banks" } });
      await send("put", `/v1/holdings/${aapl}`, {
        classification: { sector: "Information Technology", industry: "Technology Hardware" },
      });
      return { p, cba, vas, aapl };
    }
    const period = { from: "2024-06-01", to: "2024-06-30" };
    const rows = (r: Report) => r.groups!.map((g) => [g.label, g.marketValue, g.totalReturn.totalReturnValue]);
    /** The groups' returns add up to the portfolio's, their weights are their share of totalValue, each adds up itself. */
    function expectGroupsAddUp(r: Report) {
      const sum = r.groups!.reduce((s, g) => s + num(g.totalReturn.totalReturnValue), 0);
      expect(sum).toBeCloseTo(num(r.totalReturn.totalReturnValue), 8);
      expect(sum).toBeCloseTo(215, 8);
      for (const g of r.groups!) {
        expectRate(g.weight, (num(g.marketValue) / 6215) * 100);
        expectComponentsAddUp(g.totalReturn);
      }
      expect(r.groups!.reduce((s, g) => s + num(g.weight), 0)).toBeCloseTo(100, 9);
      expect(r).toMatchObject({ openingValue: "0", totalValue: "6215", netFlows: "6000" });
      expect(r.totalReturn).toMatchObject({
        totalReturnValue: "215",
        capitalGainValue: "210",
        dividendReturnValue: "5",
        currencyGainValue: "0",
      });
      expectIdentity(r);
    }
    const grouped = (r: Report) => Object.fromEntries(r.holdings.map((h) => [h.symbol, h.groupedByValue]));

    it("sector and industry: a holding without one is Unclassified, the cash account is Cash; groups sorted by label", async () => {
      const { p } = await classified();
      const bySector = expectOk(await tr.performance(key, p, { ...period, groupBy: "sector" }));
      expect(grouped(bySector)).toEqual({ CBA: "Financials", VAS: "Unclassified", AAPL: "Information Technology" });
      expect(rows(bySector)).toEqual([
        ["Cash", "1005", "5"],
        ["Financials", "1100", "100"],
        ["Information Technology", "3150", "150"],
        ["Unclassified", "960", "-40"],
      ]);
      // Financials: 1,000 in on 06-03 weighs 28/30: 100 / 933.33… = 10.7142857143 %, capital.
      // Cash: 1,000 in on 06-01 weighs 30/30: 5 / 1,000 = 0.5 %, dividend (interest).
      const [cashGroup, financials] = bySector.groups!;
      expect(financials.totalReturn).toMatchObject({
        capitalGainValue: "100",
        dividendReturnValue: "0",
        currencyGainValue: "0",
      });
      expectRate(financials.totalReturn.totalReturnPercent, (100 / ((1000 * 28) / 30)) * 100);
      expect(cashGroup.totalReturn).toMatchObject({
        capitalGainValue: "0",
        dividendReturnValue: "5",
        currencyGainValue: "0",
      });
      expectRate(cashGroup.totalReturn.totalReturnPercent, 0.5);
      expectRate(cashGroup.weight, (1005 / 6215) * 100); // 16.1705551086 %
      expectGroupsAddUp(bySector);
      // The portfolio: Dietz 1,000 × 30/30 + 5,000 × 28/30 = 5,666.66…; 215 / 5,666.66… = 3.7941176471 %.
      expectRate(bySector.totalReturn.totalReturnPercent, (215 / (1000 + (5000 * 28) / 30)) * 100);

      const byIndustry = expectOk(await tr.performance(key, p, { ...period, groupBy: "industry" }));
      expect(grouped(byIndustry)).toEqual({ CBA: "Banks", VAS: "Unclassified", AAPL: "Technology Hardware" });
      expect(rows(byIndustry)).toEqual([
        ["Banks", "1100", "100"],
        ["Cash", "1005", "5"],
        ["Technology Hardware", "3150", "150"],
        ["Unclassified", "960", "-40"],
      ]);
      expectGroupsAddUp(byIndustry);
    });

    it("currency (the cash account under its currency code), exchange and holdingType", async () => {
      const { p } = await classified();
      // currency: AUD = CBA + VAS + the AUD cash account: 1,100 + 960 + 1,005 = 3,065, 100 − 40 + 5 = 65.
      const byCurrency = expectOk(await tr.performance(key, p, { ...period, groupBy: "currency" }));
      expect(grouped(byCurrency)).toEqual({ CBA: "AUD", VAS: "AUD", AAPL: "USD" });
      expect(rows(byCurrency)).toEqual([
        ["AUD", "3065", "65"],
        ["USD", "3150", "150"],
      ]);
      expect(byCurrency.groups![0].totalReturn).toMatchObject({ capitalGainValue: "60", dividendReturnValue: "5" });
      expectGroupsAddUp(byCurrency);

      // exchange: ASX = CBA + VAS: 2,060, +60; the cash account is Cash.
      const byExchange = expectOk(await tr.performance(key, p, { ...period, groupBy: "exchange" }));
      expect(grouped(byExchange)).toEqual({ CBA: "ASX", VAS: "ASX", AAPL: "NASDAQ" });
      expect(rows(byExchange)).toEqual([
        ["ASX", "2060", "60"],
        ["Cash", "1005", "5"],
        ["NASDAQ", "3150", "150"],
      ]);
      expectGroupsAddUp(byExchange);

      // holdingType (the master list's): Stock = CBA + AAPL: 4,250, +250; Etf = VAS.
      const byType = expectOk(await tr.performance(key, p, { ...period, groupBy: "holdingType" }));
      expect(grouped(byType)).toEqual({ CBA: "Stock", VAS: "Etf", AAPL: "Stock" });
      expect(rows(byType)).toEqual([
        ["Cash", "1005", "5"],
        ["Etf", "960", "-40"],
        ["Stock", "4250", "250"],
      ]);
      expectGroupsAddUp(byType);
    });

    it("customGroup:{id}: the labels assigned through the API; a holding without one is Unclassified", async () => {
      const { p, cba, aapl } = await classified();
      const group = await postCreated<{ id: number }>(t, key, "/v1/custom-groups", {
        name: "Style",
        labels: ["Growth", "Income"],
      });
      await send("put", `/v1/custom-groups/${group.id}/assignments`, [
        { holdingId: cba, label: "Income" },
        { holdingId: aapl, label: "Growth" },
      ]);
      const r = expectOk(await tr.performance(key, p, { ...period, groupBy: `customGroup:${group.id}` }));
      expect(grouped(r)).toEqual({ CBA: "Income", VAS: "Unclassified", AAPL: "Growth" });
      expect(rows(r)).toEqual([
        ["Cash", "1005", "5"],
        ["Growth", "3150", "150"],
        ["Income", "1100", "100"],
        ["Unclassified", "960", "-40"],
      ]);
      expectRate(r.groups![1].weight, (3150 / 6215) * 100); // 50.6838294449 %
      expectGroupsAddUp(r);
    });
  });
});
