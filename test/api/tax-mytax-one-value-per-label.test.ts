import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectOk, type Json } from "../support/outcomes";
import { taxReportsApi } from "./tax-hostile.transports";

/**
 * Story: the myTax answer never shows one label with two values (docs/reports.md §5.4).
 *
 * Once it showed `labels` 18H 5,005.16 (the year's total capital gains) beside
 * `taxableIncome["18H"]` 20 (the trusts' capital gains alone): a reader copying "18H" into the
 * return could take either. Now `taxableIncome` holds the income labels to the cent, as `labels`
 * does, and no 18H; the trusts' part is `capitalGains.trustCapitalGains`.
 *
 * FY2025, Individual: AAA buy 100 @ 10.00 on 2024-08-01, sell 100 @ 59.8516 on 2025-02-03: a
 * short-term gain of 4,985.16. TRU buy 10 @ 10 on 2023-05-02; a confirmed distribution ex
 * 2025-06-30 with a discounted capital gain of 10 (grossed up ×2 → 20, ATO: the trust halved it)
 * and 123.4567 of net income (13U 123.4567 → 123.46 to the cent).
 * 18H = 4,985.16 + 20 = 5,005.16 (ITAA 1997 s102-5: total current year capital gains).
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, gql, trade, confirmedIncome } = taxReportsApi(t, () => key);

async function year() {
  const p = await newPortfolio(t, key, { name: "Trust and sale" });
  await trade(p, "AAA", "Buy", "2024-08-01", 100, 10);
  await trade(p, "AAA", "Sell", "2025-02-03", 100, 59.8516);
  const tru = await trade(p, "TRU", "Buy", "2023-05-02", 10, 10);
  await confirmedIncome({
    holdingId: tru.holdingId,
    exDividendDate: "2025-06-30",
    paidDate: "2025-07-20",
    unfrankedAmount: 133.4567,
    isTrustIncome: true,
    components: { nonPrimaryProductionIncome: 123.4567, discountedCapitalGains: 10 },
  });
  return p;
}

const myTax = {
  REST: (p: number) => rest.myTax(key, p, { financialYear: 2025 }),
  GraphQL: (p: number) => gql.myTax(key, p, 2025),
};

describe.each(["REST", "GraphQL"] as const)("over %s", (name) => {
  it("every label the answer names has one value: 18H only in labels, income labels to the cent in both places", async () => {
    const p = await year();
    const m = expectOk(await myTax[name](p));
    const labels = Object.fromEntries((m.labels as Json[]).map((l) => [l.label as string, l.amount as string]));
    expect(labels["18H"]).toBe("5005.16");
    expect(labels["13U"]).toBe("123.46");
    const income = m.taxableIncome as Record<string, string>;
    expect(income["18H"]).toBeUndefined();
    expect(income["13U"]).toBe("123.46");
    // Wherever a label appears twice in the answer, it says the same.
    for (const [label, amount] of Object.entries(income))
      expect({ label, amount }).toEqual({ label, amount: labels[label] });
    // The trusts' part of 18H is the summary's, grossed up: 10 × 2.
    expect((m.capitalGains as Json).trustCapitalGains).toBe("20");
    expect((m.capitalGains as Json).totalCapitalGains).toBe("5005.16");
  });
});
