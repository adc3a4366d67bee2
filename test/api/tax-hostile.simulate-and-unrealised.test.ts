import { ledgerFingerprint, useTestApp } from "../support/app";
import { newCustomHolding, newPortfolio, newTrade, postCreated } from "../factories";
import { expectError, expectOk, type Json } from "../support/outcomes";
import { gqlSimInput, summaryOf, taxReportsApi } from "./tax-hostile.transports";

/**
 * A hostile user's view of simulate sell and the unrealised gains report (docs/reports.md §0, §5;
 * docs/rules.md §3–7): a simulated sale beside real ones, custom and missing prices, the entity's
 * discount, and carried-forward losses on request; each figure derived by hand.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, gql, trade, taxSettings } = taxReportsApi(t, () => key);

const marketPrice = async (symbol: string, date: string, close: number) => {
  const res = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", key)
    .send([{ symbol, exchange: "ASX", date, close }]);
  if (res.status !== 200) throw new Error(`market price: ${res.status} ${res.text}`);
};

describe("figures derived by hand from the rules", () => {
  it("simulate sell on a day with an existing sell: it comes after that sell, and the year includes it", async () => {
    // 100 @ 10 on 2023-05-02; a real sell of 30 @ 12 on 2025-03-01 (gain 60, discountable).
    // Simulating 71 that day: only 70 are left → 422. Simulating 70 @ 15: cost 700, proceeds 1,050,
    // gain 350 (discountable); alone: discount 175, assessable 175. Year: before 60/2 = 30,
    // after (60 + 350)/2 = 205.
    const p = await newPortfolio(t, key, { name: "Same day" });
    const buy = await trade(p, "SDS", "Buy", "2023-05-02", 100, 10);
    await trade(p, "SDS", "Sell", "2025-03-01", 30, 12);
    const before = await ledgerFingerprint(t.db);
    expectError(
      await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 71, price: 15, date: "2025-03-01" }),
      "BUSINESS_RULE",
    );
    const s = expectOk(
      await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 70, price: 15, date: "2025-03-01" }),
    );
    expect(s).toEqual({
      holdingId: buy.holdingId,
      symbol: "SDS",
      date: "2025-03-01",
      quantity: "70",
      method: "FIFO",
      proceeds: "1050",
      costBase: "700",
      capitalGain: "350",
      shortTermGain: "0",
      longTermGain: "350",
      capitalLoss: "0",
      discount: "175",
      assessableCapitalGain: "175",
      parcels: [
        {
          acquisitionTradeId: buy.id,
          acquisitionDate: "2023-05-02",
          quantity: "70",
          costBase: "700",
          proceeds: "1050",
          capitalGain: "350",
          isDiscountable: true,
        },
      ],
      yearToDate: { financialYear: 2025, netCapitalGainBefore: "30", netCapitalGainAfter: "205" },
    });
    expect(
      expectOk(
        await gql.simulate(
          key,
          p,
          gqlSimInput({ holdingId: buy.holdingId, quantity: "70", price: "15", date: "2025-03-01" }),
        ),
      ),
    ).toEqual(s);
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("simulate sell before a later real sell: the units sold later are not double counted as held", async () => {
    // 100 @ 10 on 2023-05-02; a real sell of all 100 on 2025-05-01. On 2025-03-01 the 100 are
    // still held, so simulating 100 then is possible (the later real sell is after the date).
    const p = await newPortfolio(t, key, { name: "Later sell" });
    const buy = await trade(p, "LSS", "Buy", "2023-05-02", 100, 10);
    await trade(p, "LSS", "Sell", "2025-05-01", 100, 12);
    const s = expectOk(
      await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 100, price: 11, date: "2025-03-01" }),
    );
    // Year to date (to 2025-03-01): nothing before; after, 100/2 = 50.
    expect(s).toMatchObject({
      capitalGain: "100",
      yearToDate: { financialYear: 2025, netCapitalGainBefore: "0", netCapitalGainAfter: "50" },
    });
  });

  it("unrealised: a custom-priced holding is valued at its custom price", async () => {
    // HOUSE bought 1 @ 500,000 on 2023-01-10; custom price 600,000 on 2025-01-31. On 2025-03-01:
    // market value 600,000, gain 100,000 (discountable), discount 50,000, net 50,000.
    const p = await newPortfolio(t, key, { name: "Custom" });
    const house = await newCustomHolding(t, key, p, { symbol: "HOUSE", name: "Beach house" });
    const buy = await newTrade(t, key, {
      portfolioId: p,
      holdingId: house,
      tradeType: "Buy",
      tradeDate: "2023-01-10",
      quantity: 1,
      price: 500000,
    });
    await postCreated(t, key, `/v1/holdings/${house}/prices`, { date: "2025-01-31", price: 600000 });
    const u = expectOk(await rest.unrealised(key, p, { date: "2025-03-01" }));
    expect(u.holdings).toEqual([
      {
        holdingId: house,
        symbol: "HOUSE",
        exchange: expect.any(String),
        quantity: "1",
        marketValue: "600000",
        costBase: "500000",
        unrealisedGain: "100000",
        shortTermGain: "0",
        longTermGain: "100000",
        capitalLoss: "0",
        nextDiscountDate: null,
        parcels: [
          {
            acquisitionTradeId: buy.id,
            acquisitionDate: "2023-01-10",
            disposalDate: "2025-03-01",
            quantity: "1",
            costBase: "500000",
            proceeds: "600000",
            capitalGain: "100000",
            isDiscountable: true,
          },
        ],
      },
    ]);
    expect(u.summary).toEqual(
      summaryOf({ longTermGains: "100000", discount: "50000", totalCapitalGains: "100000", netCapitalGain: "50000" }),
    );
  });

  it("unrealised: a holding with no price at all is not shown as a loss of its whole cost base", async () => {
    // A custom investment transferred in without a price, its cost base raised by 5,000, never
    // priced: there is nothing to sell it at, so it stays out of the figures and is named in
    // unpricedHoldings with its units and cost base. AAA beside it is priced by its last trade.
    const p = await newPortfolio(t, key, { name: "Unpriced" });
    const house = await newCustomHolding(t, key, p, { symbol: "LAND", name: "Land" });
    await newTrade(t, key, {
      portfolioId: p,
      holdingId: house,
      tradeType: "TransferIn",
      tradeDate: "2023-01-10",
      quantity: 1,
    });
    await newTrade(t, key, {
      portfolioId: p,
      holdingId: house,
      tradeType: "CostBaseIncrease",
      tradeDate: "2023-02-10",
      quantity: 1,
      price: 5000,
    });
    await trade(p, "AAA", "Buy", "2023-01-10", 100, 10);
    const u = expectOk(await rest.unrealised(key, p, { date: "2025-03-01" }));
    for (const h of u.holdings as Json[])
      expect({ symbol: h.symbol, loss: h.capitalLoss }).not.toEqual({ symbol: "LAND", loss: "5000" });
    expect(u.summary).toEqual(summaryOf({}));
    expect(u.unpricedHoldings).toEqual([
      { holdingId: house, symbol: "LAND", exchange: expect.any(String), quantity: "1", costBase: "5000" },
    ]);
  });

  it("an SMSF's simulated sell takes a third off; a company's nothing", async () => {
    // 100 @ 10 on 2023-05-02; simulate 100 @ 13 on 2025-03-01: gain 300, discountable.
    for (const [entityType, discount, assessable] of [
      ["SMSF", "100", "200"],
      ["Company", "0", "300"],
    ]) {
      const p = await newPortfolio(t, key, { name: entityType, entityType });
      const buy = await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
      const s = expectOk(
        await rest.simulate(key, p, { holdingId: buy.holdingId, quantity: 100, price: 13, date: "2025-03-01" }),
      );
      expect({ entityType, discount: s.discount, assessable: s.assessableCapitalGain }).toEqual({
        entityType,
        discount,
        assessable,
      });
    }
  });

  it("unrealised with includeCarriedForward=true applies the losses carried into that year, false does not", async () => {
    // FY2024: LLL 100 @ 10 on 2023-01-10, sold @ 7 on 2023-10-01 → a 300 loss carried into FY2025.
    // AAA 100 @ 10 on 2023-05-02, closing 16 on 2025-02-28 → unrealised 600 (discountable) on 2025-03-01.
    // false: discount 300, net 300. true: 300 carried off the 600 → 300, discount 150, net 150.
    const p = await newPortfolio(t, key, { name: "Carried" });
    await trade(p, "LLL", "Buy", "2023-01-10", 100, 10);
    await trade(p, "LLL", "Sell", "2023-10-01", 100, 7);
    await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
    await marketPrice("AAA", "2025-02-28", 16);
    const off = expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: false }));
    expect(off.summary).toEqual(
      summaryOf({ longTermGains: "600", discount: "300", totalCapitalGains: "600", netCapitalGain: "300" }),
    );
    const on = expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: true }));
    expect(on.summary).toEqual(
      summaryOf({
        longTermGains: "600",
        carriedForwardLossesAvailable: "300",
        carriedForwardLossesApplied: "300",
        discount: "150",
        totalCapitalGains: "600",
        netCapitalGain: "150",
      }),
    );
    expect(expectOk(await gql.unrealised(key, p, "2025-03-01", true))).toEqual(on);
    // An entered loss for FY2025 joins it: 300 + 500 = 800 against 600 → net 0, 200 left over.
    await taxSettings(p, { carriedForwardLosses: [{ financialYear: 2025, amount: 500 }] });
    const more = expectOk(await rest.unrealised(key, p, { date: "2025-03-01", includeCarriedForward: "true" }));
    expect(more.summary).toMatchObject({
      carriedForwardLossesAvailable: "800",
      carriedForwardLossesApplied: "600",
      netCapitalGain: "0",
      netCapitalLossesCarriedForward: "200",
    });
  });
});
