import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectOk, type Json } from "../support/outcomes";
import { summaryOf, taxReportsApi } from "./tax-hostile.transports";

/**
 * A hostile user's view of the capital gains report (docs/reports.md §0, §5; docs/rules.md §1–4): the CGT
 * events the story suites do not cover (a delisting, returns of capital beyond the cost base, a
 * split, DRP and bonus parcels, a transfer out), each figure derived by hand from the rules.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, gql, trade, confirmedIncome } = taxReportsApi(t, () => key);

describe("figures derived by hand from the rules", () => {
  it("a Cancellation (delisting) is a capital loss of the whole cost base, eventType Cancellation, method null", async () => {
    // AAA: 100 @ 10 on 2023-05-02 (1,000), sold 100 @ 14 on 2024-09-10: a 400 discount gain.
    // ZZZ: 100 @ 5 on 2023-01-10 (500), delisted 2025-01-15: proceeds 0, a 500 loss.
    // s100-50: no non-discount gains; the 500 loss takes all 400 discount gains, 100 left over.
    // Discount 0, net 0, 18H 400, 18V 100. FY2026 then receives the 100.
    const p = await newPortfolio(t, key, { name: "Delisted" });
    await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
    await trade(p, "AAA", "Sell", "2024-09-10", 100, 14);
    const zBuy = await trade(p, "ZZZ", "Buy", "2023-01-10", 100, 5);
    const cancel = await trade(p, "ZZZ", "Cancellation", "2025-01-15");
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.summary).toEqual(
      summaryOf({
        longTermGains: "400",
        capitalLosses: "500",
        lossesAppliedToLongTerm: "400",
        totalCapitalGains: "400",
        netCapitalLossesCarriedForward: "100",
      }),
    );
    const row = (r.disposals as Json[]).find((d) => d.symbol === "ZZZ");
    expect(row).toMatchObject({
      eventType: "Cancellation",
      saleTradeId: cancel.id,
      acquisitionTradeId: zBuy.id,
      acquisitionDate: "2023-01-10",
      disposalDate: "2025-01-15",
      quantity: "100",
      costBase: "500",
      proceeds: "0",
      capitalGain: "-500",
      method: null,
    });
    expect(expectOk(await rest.capitalGains(key, p, { financialYear: 2026 })).summary).toMatchObject({
      carriedForwardLossesAvailable: "100",
      netCapitalLossesCarriedForward: "100",
    });
    // Nothing left to value.
    const u = expectOk(await rest.unrealised(key, p, { date: "2025-03-01" }));
    expect((u.holdings as Json[]).map((h) => h.symbol)).toEqual([]);
  });

  it("a ReturnOfCapital beyond the cost base is a G1 gain (CapitalReturnExcess) and the later sell starts from a zero cost base", async () => {
    // 100 @ 1 on 2023-01-10 (cost 100). ReturnOfCapital 1.50 a unit on 2024-10-01 = 150: the
    // cost base goes to 0 and the 50 beyond it is a capital gain (G1), held > 12 months:
    // discountable. Sell 100 @ 2 on 2025-03-01: proceeds 200, cost 0, gain 200, discountable.
    // FY2025: long-term 250, discount 125, net 125, 18H 250.
    const p = await newPortfolio(t, key, { name: "G1" });
    const buy = await trade(p, "RRR", "Buy", "2023-01-10", 100, 1);
    const roc = await trade(p, "RRR", "ReturnOfCapital", "2024-10-01", 100, 1.5);
    const sell = await trade(p, "RRR", "Sell", "2025-03-01", 100, 2);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "RRR",
        exchange: "ASX",
        eventType: "CapitalReturnExcess",
        saleTradeId: roc.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-10-01",
        quantity: "0",
        costBase: "0",
        proceeds: "50",
        capitalGain: "50",
        isDiscountable: true,
        method: null,
      },
      {
        holdingId: buy.holdingId,
        symbol: "RRR",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2025-03-01",
        quantity: "100",
        costBase: "0",
        proceeds: "200",
        capitalGain: "200",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toEqual(
      summaryOf({ longTermGains: "250", discount: "125", totalCapitalGains: "250", netCapitalGain: "125" }),
    );
  });

  it("a Split changes units, not cost base or acquisition date: sell after it", async () => {
    // 100 @ 10 on 2023-01-10 (1,000); Split +100 units on 2024-01-01 (200 units, cost 1,000);
    // sell 150 @ 8 on 2024-11-01: cost 1,000 × 150/200 = 750, proceeds 1,200, gain 450, from 2023-01-10.
    const p = await newPortfolio(t, key, { name: "Split" });
    const buy = await trade(p, "SSS", "Buy", "2023-01-10", 100, 10);
    await trade(p, "SSS", "Split", "2024-01-01", 100);
    const sell = await trade(p, "SSS", "Sell", "2024-11-01", 150, 8);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "SSS",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "150",
        costBase: "750",
        proceeds: "1200",
        capitalGain: "450",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toMatchObject({ longTermGains: "450", discount: "225", netCapitalGain: "225" });
  });

  it("DRP units sold: their parcel has acquisitionTradeId null, the paid date, drpQuantity × drpPrice as cost", async () => {
    // 100 @ 10 on 2023-01-10 (1,000); a reinvested dividend paid 2023-06-30 allots 10 @ 11 (110).
    // Sell 110 @ 12 on 2024-11-01: proceeds 1,320, by units 1,200 and 120. Buy parcel gain 200,
    // DRP parcel gain 10; both discountable. Net (210 / 2) = 105.
    const p = await newPortfolio(t, key, { name: "DRP" });
    const buy = await trade(p, "DDD", "Buy", "2023-01-10", 100, 10);
    await confirmedIncome({
      holdingId: buy.holdingId,
      exDividendDate: "2023-06-01",
      paidDate: "2023-06-30",
      unfrankedAmount: 110,
      isReinvested: true,
      drpQuantity: 10,
      drpPrice: 11,
    });
    const sell = await trade(p, "DDD", "Sell", "2024-11-01", 110, 12);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "DDD",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "100",
        costBase: "1000",
        proceeds: "1200",
        capitalGain: "200",
        isDiscountable: true,
        method: "FIFO",
      },
      {
        holdingId: buy.holdingId,
        symbol: "DDD",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: null,
        acquisitionDate: "2023-06-30",
        disposalDate: "2024-11-01",
        quantity: "10",
        costBase: "110",
        proceeds: "120",
        capitalGain: "10",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toMatchObject({ longTermGains: "210", discount: "105", netCapitalGain: "105" });
    // Over GraphQL the null acquisition trade stays null.
    const g = expectOk(await gql.capitalGains(key, p, 2025));
    expect(g).toEqual(r);
  });

  it("a TransferOut is not a CGT event: no row, no gain; the later sell takes the units left", async () => {
    // 100 @ 10 on 2023-01-10; TransferOut 40 on 2024-10-01; sell 60 @ 12 on 2024-11-01: cost 600,
    // proceeds 720, gain 120 (discountable). Net 60.
    const p = await newPortfolio(t, key, { name: "Transfer" });
    const buy = await trade(p, "TTT", "Buy", "2023-01-10", 100, 10);
    await trade(p, "TTT", "TransferOut", "2024-10-01", 40);
    const sell = await trade(p, "TTT", "Sell", "2024-11-01", 60, 12);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(r.disposals).toEqual([
      {
        holdingId: buy.holdingId,
        symbol: "TTT",
        exchange: "ASX",
        eventType: "Sell",
        saleTradeId: sell.id,
        acquisitionTradeId: buy.id,
        acquisitionDate: "2023-01-10",
        disposalDate: "2024-11-01",
        quantity: "60",
        costBase: "600",
        proceeds: "720",
        capitalGain: "120",
        isDiscountable: true,
        method: "FIFO",
      },
    ]);
    expect(r.summary).toMatchObject({
      longTermGains: "120",
      capitalLosses: "0",
      netCapitalGain: "60",
      totalCapitalGains: "120",
    });
  });

  it("a ReturnOfCapital spread over two parcels by units: only the parcel it exceeds makes a G1 gain", async () => {
    // A: 100 @ 1 (cost 100), B: 100 @ 5 (cost 500), both 2023. ReturnOfCapital 2 a unit on
    // 2024-10-01 = 400, 200 per parcel by units: A goes to 0 with 100 beyond it (G1, quantity 0);
    // B to 300. Sell all 200 @ 4 on 2025-03-01: A proceeds 400 − 0 = 400, B 400 − 300 = 100.
    // FY2025: 100 + 400 + 100 = 600 discount gains, net 300.
    const p = await newPortfolio(t, key, { name: "G1 pro rata" });
    const a = await trade(p, "PPP", "Buy", "2023-01-10", 100, 1);
    const b = await trade(p, "PPP", "Buy", "2023-02-10", 100, 5);
    const roc = await trade(p, "PPP", "ReturnOfCapital", "2024-10-01", 200, 2);
    const sell = await trade(p, "PPP", "Sell", "2025-03-01", 200, 4);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    expect(
      (r.disposals as Json[]).map((d) => [
        d.eventType,
        d.saleTradeId,
        d.acquisitionTradeId,
        d.quantity,
        d.costBase,
        d.proceeds,
        d.capitalGain,
      ]),
    ).toEqual([
      ["CapitalReturnExcess", roc.id, a.id, "0", "0", "100", "100"],
      ["Sell", sell.id, a.id, "100", "0", "400", "400"],
      ["Sell", sell.id, b.id, "100", "300", "400", "100"],
    ]);
    expect(r.summary).toMatchObject({
      longTermGains: "600",
      discount: "300",
      netCapitalGain: "300",
      totalCapitalGains: "600",
    });
  });

  it("an unpriced Bonus joins its parcel (cost base and date kept); a priced one is a parcel dated the issue date", async () => {
    // docs/rules.md §2 (ITAA 1997 s130-20). Each: 100 @ 10 on 2023-01-10 (1,000); Bonus 10 on
    // 2024-10-01; sell 110 @ 12 on 2025-01-15 (1,320).
    // BON, no price: one parcel of 110 at 1,000 acquired 2023-01-10: gain 1,320 − 1,000 = 320,
    //   discountable.
    // BOX, price 2 (a bonus taxed as a dividend): a parcel of 10 at 20 acquired 2024-10-01. FIFO:
    //   100 of the buy (proceeds 1,320 × 100 / 110 = 1,200, cost 1,000, gain 200, discountable)
    //   and the 10 bonus units (proceeds 120, cost 20, gain 100, not discountable: under 12 months).
    const p = await newPortfolio(t, key, { name: "Bonus" });
    const bon = await trade(p, "BON", "Buy", "2023-01-10", 100, 10);
    await trade(p, "BON", "Bonus", "2024-10-01", 10);
    await trade(p, "BON", "Sell", "2025-01-15", 110, 12);
    const box = await trade(p, "BOX", "Buy", "2023-01-10", 100, 10);
    const priced = await trade(p, "BOX", "Bonus", "2024-10-01", 10, 2);
    await trade(p, "BOX", "Sell", "2025-01-15", 110, 12);
    const r = expectOk(await rest.capitalGains(key, p, { financialYear: 2025 }));
    const rows = (r.disposals as Json[]).map((d) => [
      d.symbol,
      d.acquisitionTradeId,
      d.acquisitionDate,
      d.quantity,
      d.costBase,
      d.proceeds,
      d.capitalGain,
      d.isDiscountable,
    ]);
    expect(rows).toEqual([
      ["BON", bon.id, "2023-01-10", "110", "1000", "1320", "320", true],
      ["BOX", box.id, "2023-01-10", "100", "1000", "1200", "200", true],
      ["BOX", priced.id, "2024-10-01", "10", "20", "120", "100", false],
    ]);
    // 320 + 200 discountable, 100 not: net 100 + 520 / 2 = 360.
    expect(r.summary).toMatchObject({
      shortTermGains: "100",
      longTermGains: "520",
      discount: "260",
      netCapitalGain: "360",
    });
  });
});
