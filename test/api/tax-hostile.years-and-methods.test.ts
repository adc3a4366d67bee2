import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { expectOk, type Json } from "../support/outcomes";
import { summaryOf, taxReportsApi } from "./tax-hostile.transports";

/**
 * A hostile user's view of the capital gains report (docs/reports.md §0, §5; docs/rules.md §1–5): which year
 * a sale falls in, each trade's own AUD rate, the parcel method per year and holding, brokerage
 * split over parcels, and losses carried from long before; each figure derived by hand.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, trade, taxSettings } = taxReportsApi(t, () => key);

describe("figures derived by hand from the rules", () => {
  it("foreign-currency trades enter at each trade's own AUD rate", async () => {
    // AAPL (USD): buy 10 @ 100 + 10 brokerage at 1.5 on 2023-01-10 → (1,000 + 10) × 1.5 = 1,515.
    // Sell 10 @ 120 − 10 brokerage at 1.4 on 2024-11-01 → (1,200 − 10) × 1.4 = 1,666. Gain 151.
    const p = await newPortfolio(t, key, { name: "Foreign" });
    const buy = await newTrade(t, key, {
      portfolioId: p,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Buy",
      tradeDate: "2023-01-10",
      quantity: 10,
      price: 100,
      brokerage: 10,
      exchangeRate: 1.5,
    });
    const sell = await newTrade(t, key, {
      portfolioId: p,
      symbol: "AAPL",
      exchange: "NASDAQ",
      tradeType: "Sell",
      tradeDate: "2024-11-01",
      quantity: 10,
      price: 120,
      brokerage: 10,
      exchangeRate: 1.4,
    });
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "AAPL",
        exchange: "NASDAQ",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "10",
        costBase: "1515",
        proceeds: "1666",
        capitalGain: "151",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    // Simulate the same sale on the same day with an explicit rate of 2: (1,200 − 10) × 2 = 2,380.
    const s = expectOk(
      await rest.simulate(key, p, {
        holdingId: buy.holdingId,
        quantity: 5,
        price: 120,
        brokerage: 10,
        exchangeRate: 2,
        date: "2024-10-01",
      }),
    );
    // 5 of the 10 units: cost 757.5, proceeds (600 − 10) × 2 = 1,180, gain 422.5.
    expect(s).toMatchObject({
      proceeds: "1180",
      costBase: "757.5",
      capitalGain: "422.5",
      longTermGain: "422.5",
      discount: "211.25",
      assessableCapitalGain: "211.25",
    });
  });

  it("a non-June year end: FY2025 of a 31 December portfolio is calendar 2025", async () => {
    // financialYearEnd 12-31: a sale on 2024-12-31 is FY2024, one on 2025-01-01 FY2025.
    const p = await newPortfolio(t, key, { name: "Calendar", financialYearEnd: "12-31" });
    await trade(p, "CAL", "Buy", "2023-01-10", 100, 10);
    const s1 = await trade(p, "CAL", "Sell", "2024-12-31", 10, 12);
    const s2 = await trade(p, "CAL", "Sell", "2025-01-01", 10, 13);
    const y24 = expectOk(await rest.capitalGains(key, p, { financialYear: 2024 }));
    expect(y24).toMatchObject({ from: "2024-01-01", to: "2024-12-31" });
    expect((y24.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([s1.id]);
    expect(y24.summary).toMatchObject({ longTermGains: "20", netCapitalGain: "10" });
    const y25 = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(y25).toMatchObject({ from: "2025-01-01", to: "2025-12-31" });
    expect((y25.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([s2.id]);
    expect(y25.summary).toMatchObject({ longTermGains: "30", netCapitalGain: "15" });
    const m = expectOk(await rest.myTax(key, p, { financialYear: 2025 }));
    expect((m.labels as Json[]).find((l) => l.label === "18H")?.amount).toBe("30");
    // Simulated on 2025-01-01 (FY2025): the year before holds s2 only (net 15).
    const sim = expectOk(
      await rest.simulate(key, p, {
        holdingId: (await t.http.get(`/v1/trades/${s2.id}`).set("authorization", key)).body.holdingId,
        quantity: 10,
        price: 14,
        date: "2025-01-01",
      }),
    );
    expect(sim.yearToDate).toEqual({ financialYear: 2025, netCapitalGainBefore: "15", netCapitalGainAfter: "35" });
  });

  it("a sale on 30 June is in the year ending that day; one on 1 July in the next", async () => {
    const p = await newPortfolio(t, key, { name: "June" });
    await trade(p, "JUN", "Buy", "2024-07-10", 100, 10);
    const june = await trade(p, "JUN", "Sell", "2025-06-30", 10, 12);
    const july = await trade(p, "JUN", "Sell", "2025-07-01", 10, 13);
    const y25 = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect((y25.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([june.id]);
    // Acquired 2024-07-10: not 12 months by 2025-06-30 or 2025-07-01 → non-discount gains.
    expect(y25.summary).toMatchObject({ shortTermGains: "20", netCapitalGain: "20" });
    const y26 = expectOk(await rest.capitalGains(key, p, { financialYear: 2026 }));
    expect((y26.disposals as Json[]).map((d) => d.saleTradeId)).toEqual([july.id]);
    expect(y26.summary).toMatchObject({ shortTermGains: "30", netCapitalGain: "30" });
  });

  it("the parcel method per year and per holding (tax settings) and manual parcels show in each row's method", async () => {
    // Each holding: buy 10 @ 1 on 2023-01-10 (b1), buy 10 @ 2 on 2023-02-10 (b2); sell 7 @ 3.
    // Settings: default LIFO; FY2025 FIFO; holding M2 in FY2025 MinimiseGain.
    //   M1 sell 2024-03-01 (FY2024): default LIFO → b2, cost 14, proceeds 21, gain 7.
    //   M1 sell 2024-10-01 (FY2025): year FIFO → b1, cost 7, gain 14.
    //   M2 sell 2024-10-01 (FY2025): override MinimiseGain → b2 (highest cost), gain 7.
    //   M3 sell 2024-10-01 with parcels [b1: 7] → Manual, gain 14.
    const p = await newPortfolio(t, key, { name: "Methods" });
    const mk = async (symbol: string) => ({
      b1: await trade(p, symbol, "Buy", "2023-01-10", 10, 1),
      b2: await trade(p, symbol, "Buy", "2023-02-10", 10, 2),
    });
    const m1 = await mk("MMA");
    const m2 = await mk("MMB");
    const m3 = await mk("MMC");
    await taxSettings(p, {
      defaultMethod: "LIFO",
      yearMethods: [{ financialYear: 2025, method: "FIFO" }],
      holdingOverrides: [{ holdingId: m2.b1.holdingId, financialYear: 2025, method: "MinimiseGain" }],
    });
    const s1 = await trade(p, "MMA", "Sell", "2024-03-01", 7, 3);
    const s2 = await trade(p, "MMA", "Sell", "2024-10-01", 7, 3);
    const s3 = await trade(p, "MMB", "Sell", "2024-10-01", 7, 3);
    const s4 = await trade(p, "MMC", "Sell", "2024-10-01", 7, 3, { parcels: [{ tradeId: m3.b1.id, quantity: 7 }] });
    const pick = (r: Json) =>
      (r.disposals as Json[]).map((d) => ({
        sale: d.saleTradeId,
        parcel: d.acquisitionTradeId,
        method: d.method,
        gain: d.capitalGain,
      }));
    expect(pick(expectOk(await rest.capitalGains(key, p, { financialYear: 2024 })))).toEqual([
      { sale: s1.id, parcel: m1.b2.id, method: "LIFO", gain: "7" },
    ]);
    expect(pick(expectOk(await rest.capitalGains(key, p, { financialYear: 2025 })))).toEqual([
      { sale: s2.id, parcel: m1.b1.id, method: "FIFO", gain: "14" },
      { sale: s3.id, parcel: m2.b2.id, method: "MinimiseGain", gain: "7" },
      { sale: s4.id, parcel: m3.b1.id, method: "Manual", gain: "14" },
    ]);
    // Simulate on MMB in FY2025 with no method: the override applies and is named.
    const sim = expectOk(
      await rest.simulate(key, p, { holdingId: m2.b1.holdingId, quantity: 3, price: 3, date: "2024-10-02" }),
    );
    expect(sim).toMatchObject({ method: "MinimiseGain", capitalGain: "3" });
    // Manual parcels in a simulation: "Manual".
    const manual = expectOk(
      await rest.simulate(key, p, {
        holdingId: m2.b1.holdingId,
        quantity: 3,
        price: 3,
        date: "2024-10-02",
        parcels: [{ tradeId: m2.b1.id, quantity: 3 }],
      }),
    );
    expect(manual).toMatchObject({ method: "Manual", capitalGain: "6" });
  });

  it("a loss entered for a year long before any trade still reaches the year asked for", async () => {
    // 250 entered for FY2019; no events until AAA's 400 discount gain in FY2025: 250 off it,
    // 150 left, discount 75, net 75; FY2019..FY2024 each carry the 250.
    const p = await newPortfolio(t, key, { name: "Old loss" });
    await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
    await trade(p, "AAA", "Sell", "2024-09-10", 100, 14);
    await taxSettings(p, { carriedForwardLosses: [{ financialYear: 2019, amount: 250 }] });
    expect(expectOk(await rest.capitalGains(key, p, { financialYear: 2022 })).summary).toMatchObject({
      carriedForwardLossesAvailable: "250",
      netCapitalLossesCarriedForward: "250",
    });
    expect(expectOk(await rest.capitalGains(key, p, { financialYear: 2025 })).summary).toMatchObject({
      carriedForwardLossesAvailable: "250",
      carriedForwardLossesApplied: "250",
      discount: "75",
      netCapitalGain: "75",
      netCapitalLossesCarriedForward: "0",
    });
  });

  it("a sell's brokerage comes off its proceeds, split over its parcels by units; a parcel's loss offsets the other's gain", async () => {
    // b1 100 @ 10 on 2023-01-10 (1,000), b2 50 @ 12 on 2024-08-01 (600). Sell 150 @ 11 less 30
    // brokerage on 2025-03-01: proceeds 1,620 → 1,080 and 540. b1 +80 (discountable), b2 −60.
    // s100-50: no non-discount gains, so the 60 loss comes off the 80: 20 left, discount 10, net 10.
    const p = await newPortfolio(t, key, { name: "Brokerage" });
    const b1 = await trade(p, "BRK", "Buy", "2023-01-10", 100, 10);
    const b2 = await trade(p, "BRK", "Buy", "2024-08-01", 50, 12);
    await trade(p, "BRK", "Sell", "2025-03-01", 150, 11, { brokerage: 30 });
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(
      (r.disposals as Json[]).map((d) => [
        d.acquisitionTradeId,
        d.quantity,
        d.costBase,
        d.proceeds,
        d.capitalGain,
        d.isDiscountable,
      ]),
    ).toEqual([
      [b1.id, "100", "1000", "1080", "80", true],
      [b2.id, "50", "600", "540", "-60", false],
    ]);
    expect(r.summary).toEqual(
      summaryOf({
        longTermGains: "80",
        capitalLosses: "60",
        lossesAppliedToLongTerm: "60",
        discount: "10",
        totalCapitalGains: "80",
        netCapitalGain: "10",
      }),
    );
  });
});
