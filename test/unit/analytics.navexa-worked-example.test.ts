import { modifiedDietz } from "../../src/modules/analytics/modified-dietz";
import { timeWeightedReturn, type TwrDay } from "../../src/modules/analytics/twr";
import { xirr } from "../../src/modules/analytics/xirr";

/**
 * docs/rules.md §11.5's worked example (Navexa's): buy 1,000 @ 2.00 on 2018-01-01, buy 1,000 @ 2.20 on
 * 2018-12-31, sell 2,000 @ 2.30 on 2019-12-31; no cash account, so the trades are the external
 * flows; period 2018-01-01..2019-12-31 (T = 730 days), BMV = EMV = 0, gain 400. Every figure to
 * 9 significant figures, as docs/rules.md §11.5 gives it.
 */
const sig9 = (x: number | null) => (x === null ? null : Number(x.toPrecision(9)));

test("Modified Dietz: 400 / (2,000 × 730/730 + 2,200 × 366/730) = 12.890693978 %, annualised × 365/730 = 6.445346989 %", () => {
  // Inflow on 2018-01-01 weighs (to − d + 1)/T = 730/730; on 2018-12-31, 366/730; the sale's
  // outflow on the last day weighs (to − d)/T = 0. Denominator 2,000 + 1,103.0137 = 3,103.0137.
  const r = modifiedDietz({
    openingValue: 0,
    closingValue: 0,
    from: "2018-01-01",
    to: "2019-12-31",
    flows: [
      { date: "2018-01-01", amount: 2000 },
      { date: "2018-12-31", amount: 2200 },
      { date: "2019-12-31", amount: -4600 },
    ],
  });
  expect(sig9(r.cumulativePercent)).toBe(12.890694);
  expect(r.cumulativePercent!).toBeCloseTo(12.890693978, 8);
  expect(r.annualisedPercent!).toBeCloseTo(6.445346989, 8);
  expect(r.averageCapital!).toBeCloseTo(2000 + (2200 * 366) / 730, 9);
});

test("TWR: the only non-zero days are 2018-12-31 (4,400 / (2,000 + 2,200) − 1) and 2019-12-31 (4,600 / 4,400 − 1): 9.523809524 %, annualised 4.653623694 %", () => {
  // Daily values by the price rule (the last trade's price): 2,000 through 2018-12-30, 4,400 from
  // 2018-12-31 to 2019-12-30, 0 on the last day (sold, 4,600 out at its end).
  const days: TwrDay[] = [];
  for (let i = 0; i < 730; i++) {
    const date = new Date(Date.UTC(2018, 0, 1 + i)).toISOString().slice(0, 10);
    const value = date < "2018-12-31" ? 2000 : date < "2019-12-31" ? 4400 : 0;
    days.push({
      value,
      inflow: date === "2018-01-01" ? 2000 : date === "2018-12-31" ? 2200 : 0,
      outflow: date === "2019-12-31" ? 4600 : 0,
    });
  }
  const r = timeWeightedReturn(0, days);
  // (4,400 / 4,200) × (4,600 / 4,400) = 4,600 / 4,200 = 1.0952380952…
  expect(r.cumulativePercent).toBeCloseTo(9.523809524, 8);
  expect(r.annualisedPercent!).toBeCloseTo(4.653623694, 8);
  // Index 363 is 2018-12-30 (nothing earned yet), 364 is 2018-12-31.
  expect(r.daily[363]).toBe(0);
  expect(r.daily[364]).toBeCloseTo((4400 / 4200 - 1) * 100, 10);
});

test("XIRR: −2,000 on 2018-01-01, −2,200 on 2018-12-31, +4,600 on 2019-12-31 (the opening 0 on 2017-12-31 changes nothing): 6.328548494 %", () => {
  const r = xirr([
    { date: "2017-12-31", amount: 0 },
    { date: "2018-01-01", amount: -2000 },
    { date: "2018-12-31", amount: -2200 },
    { date: "2019-12-31", amount: 4600 },
  ]);
  expect(r! * 100).toBeCloseTo(6.328548494, 8);
});
