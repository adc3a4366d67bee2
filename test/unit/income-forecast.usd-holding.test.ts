import { Decimal } from "../../src/lib/money";
import { incomeForecastOf } from "../../src/modules/planning/income-forecast";
import { d, input, record } from "./income-forecast.helpers";

/**
 * Story: a US holding's dividends in AUD at `from`'s rate, not at the rate each was recorded at.
 * Sources: REPORTS §6.2 ("Base currency at `from`'s rate"); DOMAIN §1 (net = gross − withholding
 * tax: a US dividend to an Australian resident is withheld at 15 % under the treaty).
 */

test("USD 0.24 gross a unit, 15 % withheld: 0.204 net × 300 units × 1.52 AUD/USD = 93.024 AUD", () => {
  // The record: 400 units at its ex-date, gross 96, withholding 14.40, net 81.60 USD, recorded at 1.45.
  // Per unit 81.60 ÷ 400 = 0.204 USD. At the start of 2026-07-01: 300 units (100 sold).
  // Cash 0.204 × 300 × 1.52 (the rate on from) = 93.024 AUD; at the recorded rate it would be 88.74.
  const forecast = incomeForecastOf(
    input({
      units: 300,
      rates: new Map([
        ["AUD", d(1)],
        ["USD", d("1.52")],
      ]),
      income: [
        record({
          exDividendDate: "2025-11-07",
          paidDate: "2025-11-14",
          currencyCode: "USD",
          gross: 96,
          net: "81.6",
          units: 400,
        }),
      ],
    }),
  );
  const [p] = forecast.payments;
  expect(p.currencyCode).toBe("USD");
  expect(p.perUnit.toFixed()).toBe("0.204");
  expect(p.exchangeRate.toFixed()).toBe("1.52");
  expect(p.cash.toFixed()).toBe("93.024");
  expect(p.frankingCredits.toFixed()).toBe("0");
  expect(forecast.currency).toBe("AUD");
  expect(forecast.months.find((m) => m.month === "2026-11")!.cash.toFixed()).toBe("93.024");
});

test("without the currency's rate the calculator refuses (the service answers 422 first)", () => {
  expect(() =>
    incomeForecastOf(
      input({
        income: [
          record({ exDividendDate: "2025-11-07", paidDate: "2025-11-14", currencyCode: "USD", net: 1, units: 1 }),
        ],
      }),
    ),
  ).toThrow(/no USD rate/);
});
