import { xirr } from "../../src/modules/analytics/xirr";

/**
 * Excel-checked XIRR values (docs/rules.md §11.3), and null where no rate solves the equation. Excel stops
 * iterating once its result is within 0.000001 % (1e-8), so its printed values agree with the exact
 * root to that; ours is the exact root (the payments' present value at it is 0 to 1e-9 of their size).
 */
const npv = (r: number, payments: { date: string; amount: number }[]) => {
  const d0 = Date.parse(payments[0].date);
  return payments.reduce((s, p) => s + p.amount / Math.pow(1 + r, (Date.parse(p.date) - d0) / 86_400_000 / 365), 0);
};
test("−200 on 2010-01-01, +210 on 2010-12-31 → 0.050140747 (1.05^(365/364) − 1)", () => {
  const r = xirr([
    { date: "2010-01-01", amount: -200 },
    { date: "2010-12-31", amount: 210 },
  ])!;
  expect(Math.abs(r - 0.050140747)).toBeLessThan(1e-8);
  // Exactly: (1 + r)^(364/365) = 210/200.
  expect(r).toBeCloseTo(Math.pow(1.05, 365 / 364) - 1, 12);
});

test("−1,000 on 2015-12-31, +150 on 2016-06-01, +1,230 on 2016-12-31 → 0.412128788", () => {
  const payments = [
    { date: "2015-12-31", amount: -1000 },
    { date: "2016-06-01", amount: 150 },
    { date: "2016-12-31", amount: 1230 },
  ];
  const r = xirr(payments)!;
  expect(Math.abs(r - 0.412128788)).toBeLessThan(1e-8);
  expect(Math.abs(npv(r, payments))).toBeLessThan(1e-9 * 1230);
});

test("order of payments does not matter; a total loss is −100 % only in the limit, a near-total one solves", () => {
  const r = xirr([
    { date: "2016-12-31", amount: 1230 },
    { date: "2015-12-31", amount: -1000 },
    { date: "2016-06-01", amount: 150 },
  ])!;
  expect(Math.abs(r - 0.412128788)).toBeLessThan(1e-8);
  // −1,000 then +1 a year later: (1 + r) = 1 / 1,000.
  expect(
    xirr([
      { date: "2020-01-01", amount: -1000 },
      { date: "2020-12-31", amount: 1 },
    ])!,
  ).toBeCloseTo(Math.pow(0.001, 365 / 365) - 1, 6);
});

test("no sign change, no rate: null, never a wrong number", () => {
  expect(
    xirr([
      { date: "2020-01-01", amount: -100 },
      { date: "2021-01-01", amount: -50 },
    ]),
  ).toBeNull();
  expect(xirr([{ date: "2020-01-01", amount: 100 }])).toBeNull();
  expect(xirr([])).toBeNull();
});

test("payments on one day count as their sum: the 0.412128788 example with each payment split in parts solves the same", () => {
  // −1,000 as −400 − 600, +150 as +100 + 50, +1,230 as +1,000 + 230 − 0 (a zero payment is no payment).
  const split = [
    { date: "2015-12-31", amount: -400 },
    { date: "2016-06-01", amount: 100 },
    { date: "2015-12-31", amount: -600 },
    { date: "2016-12-31", amount: 1000 },
    { date: "2016-06-01", amount: 50 },
    { date: "2016-12-31", amount: 230 },
    { date: "2016-12-31", amount: 0 },
  ];
  expect(Math.abs(xirr(split)! - 0.412128788)).toBeLessThan(1e-8);
  // A day whose payments cancel leaves the others: −100 and +100 on 2016-06-01 change nothing.
  const withWash = [...split, { date: "2016-06-01", amount: -100 }, { date: "2016-06-01", amount: 100 }];
  expect(Math.abs(xirr(withWash)! - 0.412128788)).toBeLessThan(1e-8);
});

test("payments that cancel on every day: every rate solves, so null (not −100 %)", () => {
  expect(
    xirr([
      { date: "2020-01-01", amount: -100 },
      { date: "2020-01-01", amount: 100 },
    ]),
  ).toBeNull();
  expect(
    xirr([
      { date: "2020-01-01", amount: -100 },
      { date: "2020-01-01", amount: 100 },
      { date: "2021-01-01", amount: 5 },
      { date: "2021-01-01", amount: -5 },
    ]),
  ).toBeNull();
});
