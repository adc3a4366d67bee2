import { incomeForecastOf } from "../../src/modules/planning/income-forecast";
import { d, input, paymentsOf, record } from "./income-forecast.helpers";

/**
 * Story: what a holding is paid on. Sources: REPORTS §6.2 (each record at its amount per unit
 * entitled at its ex-date × the units held at the start of `from`; holdings without units at
 * the start of `from` have no forecast); DOMAIN §1 (a DRP's cash is its net amount; DRP income
 * creates a parcel of `drpQuantity` units, held from its paid date).
 */

test("a holding sold out before `from` forecasts nothing, its trailing income notwithstanding", () => {
  const forecast = incomeForecastOf(
    input({
      units: 0,
      income: [record({ exDividendDate: "2025-09-01", paidDate: "2025-09-20", net: 80, units: 200 })],
    }),
  );
  expect(forecast.payments).toEqual([]);
  expect(forecast.total.cash.toFixed()).toBe("0");
  expect(forecast.months).toHaveLength(12);
  expect(forecast.months.every((m) => m.cash.isZero() && m.frankingCredits.isZero())).toBe(true);
});

test("a DRP payment repeats at its net cash per unit on the units held now, its own units included", () => {
  // 1,000 units at the 2025-08-20 ex-date; the payment of 500 net (franked 500, credits 214.2857)
  // was reinvested at 10: 50 more units from 2025-09-25, so 1,050 at the start of 2026-07-01.
  // Per unit: 500 ÷ 1,000 = 0.5 cash, 214.2857 ÷ 1,000 = 0.2142857 franking.
  // Repeat: 0.5 × 1,050 = 525 cash; 0.2142857 × 1,050 = 224.999985 → 225.0000 (4 decimals, half up).
  const forecast = incomeForecastOf(
    input({
      units: 1050,
      income: [
        record({
          exDividendDate: "2025-08-20",
          paidDate: "2025-09-25",
          net: 500,
          franking: "214.2857",
          units: 1000,
        }),
      ],
    }),
  );
  expect(paymentsOf(forecast)).toEqual([
    {
      exDividendDate: "2026-08-20",
      paidDate: "2026-09-25",
      perUnit: "0.5",
      units: "1050",
      cash: "525",
      frankingCredits: "225",
      basis: "Trailing",
    },
  ]);
  expect(forecast.payments[0].frankingPerUnit.toFixed()).toBe("0.2142857");
  expect(forecast.total.grossedUp.toFixed()).toBe("750");
});

test("a record paid on no units (entered for a holding then empty) repeats nothing", () => {
  const forecast = incomeForecastOf(
    input({ income: [record({ exDividendDate: "2025-09-01", paidDate: "2025-09-20", net: 80, units: 0 })] }),
  );
  expect(forecast.payments).toEqual([]);
});

test("a record whose ex-date is a year or more before `from`, or on or after it, is not trailing", () => {
  const forecast = incomeForecastOf(
    input({
      income: [
        // A year on: 2026-06-30, before from (2026-07-01).
        record({ exDividendDate: "2025-06-30", paidDate: "2025-07-20", net: 10, units: 100 }),
        // On from: not of the twelve months before it.
        record({ exDividendDate: "2026-07-01", paidDate: "2026-07-20", net: 10, units: 100 }),
        // The first day of the window: a year on is from itself.
        record({ exDividendDate: "2025-07-01", paidDate: "2025-07-20", net: 7, units: 100 }),
      ],
    }),
  );
  expect(paymentsOf(forecast).map((p) => [p.exDividendDate, p.cash])).toEqual([["2026-07-01", "7"]]);
  expect(d(forecast.total.cash).toFixed()).toBe("7");
});
