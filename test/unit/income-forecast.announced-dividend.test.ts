import { incomeForecastOf } from "../../src/modules/planning/income-forecast";
import { announced, input, paymentsOf, record } from "./income-forecast.helpers";

/**
 * Story: a dividend the provider has announced replaces its trailing twin. Sources: REPORTS §6.2
 * (a provider dividend already announced with an ex-date ≥ `from` replaces the repeat nearest to
 * it within 45 days, basis "Announced"); docs/data.md §3 (a provider says the cash per unit and
 * the ex-date only; the rest is estimated from the holding's records).
 */

const twinAndOther = () => [
  // Franked 70 cents a unit on 100 units: 70 net, 30 credits (70 × 30/70).
  record({ exDividendDate: "2025-08-20", paidDate: "2025-09-25", net: 70, franking: 30, units: 100 }),
  record({ exDividendDate: "2026-02-18", paidDate: "2026-03-20", net: 60, franking: "25.7143", units: 100 }),
];

test("an announced 0.80 on 2026-08-25 replaces the August repeat (5 days off), not the February one", () => {
  // Twin: ex 2026-08-20 a year on, paid 36 days later; the announced keeps the gap: 2026-08-25 + 36
  // = 2026-09-30. Its shape: net 70 ÷ gross 70 = 1, credits 30 ÷ 70 = 0.42857142857… a dollar.
  // Per unit 0.80 cash, 0.80 × 30/70 = 0.34285714 franking (8 decimals, half up).
  // × 100 units: 80 cash, 34.285714 → 34.2857 credits.
  const forecast = incomeForecastOf(
    input({ income: twinAndOther(), announced: [announced({ exDate: "2026-08-25", amountPerUnit: "0.8" })] }),
  );
  expect(paymentsOf(forecast)).toEqual([
    {
      exDividendDate: "2026-08-25",
      paidDate: "2026-09-30",
      perUnit: "0.8",
      units: "100",
      cash: "80",
      frankingCredits: "34.2857",
      basis: "Announced",
    },
    {
      exDividendDate: "2027-02-18",
      paidDate: "2027-03-20",
      perUnit: "0.6",
      units: "100",
      cash: "60",
      frankingCredits: "25.7143",
      basis: "Trailing",
    },
  ]);
  expect(forecast.payments[0].incomeId).toBe(forecast.payments[1].incomeId! - 1);
  expect(forecast.total.cash.toFixed()).toBe("140");
});

test("46 days from every repeat replaces none: it is forecast beside them, paid on its ex-date", () => {
  // 2026-10-05 is 46 days after 2026-08-20 and 136 before 2027-02-18. No twin: unfranked, cash = amount.
  const forecast = incomeForecastOf(
    input({ income: twinAndOther(), announced: [announced({ exDate: "2026-10-05", amountPerUnit: "0.1" })] }),
  );
  expect(paymentsOf(forecast).map((p) => [p.exDividendDate, p.paidDate, p.cash, p.basis])).toEqual([
    ["2026-08-20", "2026-09-25", "70", "Trailing"],
    ["2026-10-05", "2026-10-05", "10", "Announced"],
    ["2027-02-18", "2027-03-20", "60", "Trailing"],
  ]);
  expect(forecast.payments[1].incomeId).toBeNull();
});

test("an announced dividend before `from` replaces nothing", () => {
  const forecast = incomeForecastOf(
    input({ income: twinAndOther(), announced: [announced({ exDate: "2026-06-30", amountPerUnit: "5" })] }),
  );
  expect(forecast.payments.map((p) => p.basis)).toEqual(["Trailing", "Trailing"]);
  expect(forecast.total.cash.toFixed()).toBe("130");
});

test("two announced near one repeat: the nearer takes it, the other stands alone", () => {
  const forecast = incomeForecastOf(
    input({
      income: twinAndOther(),
      announced: [
        announced({ exDate: "2026-08-10", amountPerUnit: "0.5" }), // 10 days off
        announced({ exDate: "2026-08-22", amountPerUnit: "0.9" }), // 2 days off, later in date order
      ],
    }),
  );
  // The 2-day pair first: 08-22 takes the August repeat (paid 36 days on: 2026-09-27); 08-10 has no
  // repeat left within 45 days (the February one is 192 days off) and is paid on its ex-date.
  expect(paymentsOf(forecast).map((p) => [p.exDividendDate, p.paidDate, p.cash, p.basis])).toEqual([
    ["2026-08-10", "2026-08-10", "50", "Announced"],
    ["2026-08-22", "2026-09-27", "90", "Announced"],
    ["2027-02-18", "2027-03-20", "60", "Trailing"],
  ]);
});
