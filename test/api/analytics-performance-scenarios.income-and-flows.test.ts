import { useTestApp } from "../support/app";
import { newPortfolio, postCreated } from "../factories";
import { expectOk } from "../support/outcomes";
import { expectIdentity } from "./analytics.transports";
import { num, expectRate, twr, performanceScenarioSetup } from "./analytics-performance-scenarios.setup";

/**
 * Performance with income counted from its ex-date, and with the trades as the flows against a synced
 * cash account's deposit as the flow (docs/reports.md §2; notation and identity in
 * ./analytics-performance-scenarios.setup.ts).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { transports, marketPrices, buy, income } = performanceScenarioSetup(t, () => key);

describe.each(transports)("performance scenarios over $name", (tr) => {
  it("income counts from its ex-date: receivable at `to` in totalValue and dividend return; paid in the period after an earlier ex-date, in openingValue only", async () => {
    const p = await newPortfolio(t, key, { name: "Income" });
    const { holdingId } = await buy(p, "CBA", "ASX", "2024-02-01", 100, 100); // valued at its trade price, 10,000 throughout
    await income(holdingId, "2024-02-20", "2024-03-10", 150); // A: ex before from, paid inside
    await income(holdingId, "2024-03-20", "2024-04-15", 200); // B: ex inside, paid after to

    // 2024-03-01..2024-03-31, T = 31. BMV (02-29): 10,000 + A receivable 150 = 10,150.
    //   A paid 03-10: out 150 (no cash account). EMV (03-31): 10,000 + B receivable 200 = 10,200.
    //   Net flows −150; total 10,200 − 10,150 + 150 = 200. Dividend: B (ex-date in the period) 200;
    //   A's ex-date is before from: not a return of this period. Capital 200 − 200 = 0.
    const r = expectOk(await tr.performance(key, p, { from: "2024-03-01", to: "2024-03-31" }));
    expect(r).toMatchObject({ openingValue: "10150", totalValue: "10200", netFlows: "-150" });
    expect(r.totalReturn).toMatchObject({
      totalReturnValue: "200",
      capitalGainValue: "0",
      dividendReturnValue: "200",
      currencyGainValue: "0",
    });
    // Dietz: 10,150 − 150 × 21/31 = 10,048.387…; 200 / 10,048.387… = 1.9903691814 %, all dividend.
    const D = 10150 - (150 * 21) / 31;
    expectRate(r.totalReturn.totalReturnPercent, (200 / D) * 100);
    expectRate(r.totalReturn.dividendReturnPercent, (200 / D) * 100);
    // TWR: 10,150 flat; 03-10 (10,000 + 150)/10,150 = 1; 10,000 flat; 03-20 10,200/10,000 → 2 %.
    expectRate(twr(r).cumulativePercent, 2);
    expect(r.holdings[0]).toMatchObject({ marketValue: "10000", quantity: "100" });
    expect(r.holdings[0].totalReturn).toEqual(r.totalReturn);
    expectIdentity(r);

    // Past B's paid date (to 2024-04-30): B is paid out (−200) instead of receivable; the return is the same.
    //   BMV 10,150, EMV 10,000, flows −150 − 200 = −350: total 10,000 − 10,150 + 350 = 200, dividend 200.
    const later = expectOk(await tr.performance(key, p, { from: "2024-03-01", to: "2024-04-30" }));
    expect(later).toMatchObject({ openingValue: "10150", totalValue: "10000", netFlows: "-350" });
    expect(later.totalReturn).toMatchObject({
      totalReturnValue: "200",
      capitalGainValue: "0",
      dividendReturnValue: "200",
    });
    expectIdentity(later);
  });

  it("no cash account (the trades are the flows) against a synced cash account with a deposit (the deposit is the flow): same capital gain", async () => {
    await marketPrices("BHP", "ASX", [
      ["2024-05-02", 40],
      ["2024-05-10", 45],
    ]);
    const bare = await newPortfolio(t, key, { name: "No cash" });
    await buy(bare, "BHP", "ASX", "2024-05-02", 100, 40, { brokerage: 10 });
    const withCash = await newPortfolio(t, key, { name: "With cash" });
    const cash = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId: withCash,
      name: "Cash",
      currencyCode: "AUD",
      syncTrades: true,
      settlementDays: 0,
    });
    await postCreated(t, key, "/v1/cash-transactions", {
      cashAccountId: cash.id,
      type: "Deposit",
      date: "2024-05-01",
      amount: 5000,
    });
    await buy(withCash, "BHP", "ASX", "2024-05-02", 100, 40, { brokerage: 10 });
    const period = { from: "2024-05-01", to: "2024-05-10" }; // T = 10

    // No cash: flow in 100 × 40 + 10 = 4,010 on 05-02; EMV 100 × 45 = 4,500; total 490, capital.
    //   Dietz 4,010 × 9/10 = 3,609; 490/3,609 = 13.5771681906 %. TWR 4,000/(0 + 4,010) × 4,500/4,000 − 1 = 12.2194513716 %.
    const a = expectOk(await tr.performance(key, bare, period));
    expect(a).toMatchObject({ openingValue: "0", totalValue: "4500", netFlows: "4010" });
    expect(a.totalReturn).toMatchObject({
      totalReturnValue: "490",
      capitalGainValue: "490",
      dividendReturnValue: "0",
      currencyGainValue: "0",
    });
    expectRate(a.totalReturn.totalReturnPercent, (490 / 3609) * 100);
    expectRate(twr(a).cumulativePercent, (4500 / 4010 - 1) * 100);
    expectIdentity(a);

    // Synced cash: the deposit 5,000 on 05-01 is the only flow; the buy moves 4,010 out of the account
    //   on its trade date. EMV 4,500 + 990 = 5,490; total 5,490 − 5,000 = 490: the holding's 490
    //   capital, the account's 990 − 0 − (5,000 − 4,010) = 0. Dietz 5,000 × 10/10: 490/5,000 = 9.8 %.
    //   TWR 5,000/5,000 × 4,990/5,000 × 5,490/4,990 − 1 = 9.8 %.
    const b = expectOk(await tr.performance(key, withCash, period));
    expect(b).toMatchObject({ openingValue: "0", totalValue: "5490", netFlows: "5000" });
    expect(b.totalReturn).toMatchObject({
      totalReturnValue: "490",
      capitalGainValue: "490",
      dividendReturnValue: "0",
      currencyGainValue: "0",
    });
    expectRate(b.totalReturn.totalReturnPercent, 9.8);
    expectRate(twr(b).cumulativePercent, 9.8);
    expectIdentity(b);

    // The holding's own figures do not depend on where its cash came from; only its weight does
    // (4,500 of 4,500 against 4,500 of 5,490).
    const { holdingWeight: wa, ...ha } = a.holdings[0];
    const { holdingWeight: wb, ...hb } = b.holdings[0];
    expect({ ...ha, id: 0 }).toEqual({ ...hb, id: 0 });
    expect(ha.totalReturn).toMatchObject({ totalReturnValue: "490", capitalGainValue: "490" });
    expectRate(ha.totalReturn.totalReturnPercent, (490 / 3609) * 100);
    expect(num(wa)).toBe(100);
    expectRate(wb, (4500 / 5490) * 100);
  });
});
