import { addMonthsClamped } from "../../src/lib/dates";
import { forecastEnd, incomeForecastOf } from "../../src/modules/planning/income-forecast";
import { input, paymentsOf, record } from "./income-forecast.helpers";

/**
 * Story: a repeat lands on the same day a year on, clamped to the month's end, and the period
 * ends the day before `from`, `months` months on (docs/reports.md §6.2).
 *
 * Sources: REPORTS §6.2 ("same day, clamped to the month's end; its paid date likewise");
 * the calendar: 2028 is a leap year (divisible by 4, not by 100), 2029 is not; April has 30 days.
 */

test("ex-date 29 February 2028 repeats on 28 February 2029, its paid date 31 March on 31 March", () => {
  // From 2028-07-01, the twelve months before hold 2028-02-29; a year on there is no 29 February.
  const forecast = incomeForecastOf(
    input({
      from: "2028-07-01",
      income: [record({ exDividendDate: "2028-02-29", paidDate: "2028-03-31", net: 50, units: 100 })],
    }),
  );
  expect(forecast.to).toBe("2029-06-30");
  // 50 ÷ 100 = 0.5 a unit × 100 units = 50.
  expect(paymentsOf(forecast)).toEqual([
    {
      exDividendDate: "2029-02-28",
      paidDate: "2029-03-31",
      perUnit: "0.5",
      units: "100",
      cash: "50",
      frankingCredits: "0",
      basis: "Trailing",
    },
  ]);
});

test("a paid date of 29 February clamps too: 2028-02-29 → 2029-02-28", () => {
  const forecast = incomeForecastOf(
    input({
      from: "2028-07-01",
      income: [record({ exDividendDate: "2028-01-31", paidDate: "2028-02-29", net: 10, units: 100 })],
    }),
  );
  expect(paymentsOf(forecast).map((p) => [p.exDividendDate, p.paidDate])).toEqual([["2029-01-31", "2029-02-28"]]);
});

test("the calendar arithmetic: month ends clamp, other days keep", () => {
  expect(addMonthsClamped("2028-02-29", 12)).toBe("2029-02-28");
  expect(addMonthsClamped("2026-08-31", 12)).toBe("2027-08-31");
  // The 31st of a month moved to a 30-day month: its last day.
  expect(addMonthsClamped("2026-03-31", 1)).toBe("2026-04-30");
  expect(addMonthsClamped("2026-01-31", 1)).toBe("2026-02-28");
  expect(addMonthsClamped("2026-11-15", 3)).toBe("2027-02-15");
  expect(addMonthsClamped("2027-03-01", -12)).toBe("2026-03-01");
});

test("the period: from 31 March for one month ends 30 April; from 31 January, 28 February; from 1 July, 30 June", () => {
  // The day before 31 March is 30 March: a month on, 30 April (April has 30 days).
  expect(forecastEnd("2026-03-31", 1)).toBe("2026-04-30");
  // The day before 31 January is 30 January: a month on, 30 February, clamped to 28.
  expect(forecastEnd("2026-01-31", 1)).toBe("2026-02-28");
  // The day before 1 July is 30 June, a month's last day: twelve months on, 30 June.
  expect(forecastEnd("2026-07-01", 12)).toBe("2027-06-30");
  // The day before 1 March 2026 is 28 February (a month's last): one month on, 31 March.
  expect(forecastEnd("2026-03-01", 1)).toBe("2026-03-31");
});

test("a repeat paid on 30 April is in a one-month forecast from 31 March", () => {
  const forecast = incomeForecastOf(
    input({
      from: "2027-03-31",
      months: 1,
      income: [record({ exDividendDate: "2026-04-02", paidDate: "2026-04-30", net: 30, units: 100 })],
    }),
  );
  expect(forecast.months.map((m) => [m.month, m.cash.toFixed()])).toEqual([
    ["2027-03", "0"],
    ["2027-04", "30"],
  ]);
});
