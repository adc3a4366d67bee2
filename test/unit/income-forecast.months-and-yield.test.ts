import { incomeForecastOf } from "../../src/modules/planning/income-forecast";
import { d, input, record, text } from "./income-forecast.helpers";

/**
 * Story: the months of a period, zeros included, and the yield. Sources: REPORTS §6.2 (`months`
 * holds every month of the period by paid date, zeros included; a repeat paid after the period is
 * left out; grossedUp = cash + franking credits; yieldPercent = total cash ÷ the market value at
 * the start of `from` × 100).
 */

const income = () => [
  record({ exDividendDate: "2025-08-20", paidDate: "2025-09-25", net: 70, franking: 30, units: 100 }),
  record({ exDividendDate: "2026-02-18", paidDate: "2026-03-20", net: 50, units: 100 }),
  // Ex-date in the window, paid after the period's end a year on (2027-07-02 > 2027-06-30).
  record({ exDividendDate: "2026-06-29", paidDate: "2026-07-02", net: 40, units: 100 }),
];

test("a year from 1 July: twelve months, two paid, ten zero; the June dividend paid in July is left out", () => {
  // Market value 4,000 at the close of 30 June: yield = 120 ÷ 4,000 × 100 = 3 %.
  const forecast = incomeForecastOf(input({ income: income(), marketValue: d(4000) }));
  expect(text(forecast)).toMatchObject({
    from: "2026-07-01",
    to: "2027-06-30",
    total: { cash: "120", frankingCredits: "30", grossedUp: "150" },
    marketValue: "4000",
    yieldPercent: 3,
  });
  expect(forecast.months.map((m) => `${m.month} ${m.cash.toFixed()} ${m.frankingCredits.toFixed()}`)).toEqual([
    "2026-07 0 0",
    "2026-08 0 0",
    "2026-09 70 30",
    "2026-10 0 0",
    "2026-11 0 0",
    "2026-12 0 0",
    "2027-01 0 0",
    "2027-02 0 0",
    "2027-03 50 0",
    "2027-04 0 0",
    "2027-05 0 0",
    "2027-06 0 0",
  ]);
});

test("three months from 1 August: the September payment only; yield on that quarter's cash", () => {
  // From 2026-08-01 the window is 2025-08-01..2026-07-31: all three records; the quarter ends 2026-10-31.
  const forecast = incomeForecastOf(input({ from: "2026-08-01", months: 3, income: income(), marketValue: d(7000) }));
  expect(forecast.to).toBe("2026-10-31");
  expect(forecast.months.map((m) => [m.month, m.cash.toFixed()])).toEqual([
    ["2026-08", "0"],
    ["2026-09", "70"],
    ["2026-10", "0"],
  ]);
  // 70 ÷ 7,000 × 100 = 1 %.
  expect(forecast.yieldPercent).toBe(1);
});

test("24 months: each record repeats a second year on", () => {
  const forecast = incomeForecastOf(input({ months: 24, income: income(), marketValue: d(4000) }));
  expect(forecast.to).toBe("2028-06-30");
  expect(forecast.months).toHaveLength(24);
  // 70 + 50 + 40 (July 2027, the first year's June dividend) + 70 + 50; the second July (2028-07-02) is out.
  expect(forecast.payments.map((p) => p.paidDate)).toEqual([
    "2026-09-25",
    "2027-03-20",
    "2027-07-02",
    "2027-09-25",
    "2028-03-20",
  ]);
  expect(forecast.total.cash.toFixed()).toBe("280");
});

test("no market value: the yield is null, the figures zeros", () => {
  const forecast = incomeForecastOf(input({ units: 0 }));
  expect(forecast.yieldPercent).toBeNull();
  expect(text(forecast)).toMatchObject({ total: { cash: "0", frankingCredits: "0", grossedUp: "0" } });
});

test("the same input gives the same answer, whatever the order of the records", () => {
  const a = incomeForecastOf(input({ income: income(), marketValue: d(4000) }));
  const b = incomeForecastOf(input({ income: [...income()].reverse(), marketValue: d(4000) }));
  const strip = (x: unknown) =>
    JSON.stringify(x, (k, v: unknown) =>
      k === "incomeId" ? undefined : v instanceof Object && "toFixed" in v ? String(v) : v,
    );
  expect(strip(b)).toBe(strip(a));
});
