import { Decimal } from "decimal.js";
import { decompose, sumComponents } from "../../src/modules/analytics/decomposition";

/**
 * A foreign holding whose capital, dividend and currency components add up to its total
 * (DOMAIN.md §3). An AUD portfolio buys 10 USX @ USD 100 at 1.5 AUD/USD (USD 1,000 in, AUD 1,500);
 * a net dividend of USD 20 goes ex in the period at 1.55 and is paid in it (USD 20 out, AUD 31);
 * at the close 10 × USD 110 = USD 1,100 at 1.6 = AUD 1,760. BMV 0.
 *   total    = 1,760 − 0 − (1,500 − 31)                  = 291
 *   dividend = 20 × 1.55                                  = 31
 *   capital  = (1,100 − 0 − (1,000 − 20) − 20) × 1.6      = 160  (USD 100 of price gain at the close rate)
 *   currency = 291 − 160 − 31                             = 100  (USD 1,000 invested at 1.5, now 1.6)
 */
const d = (v: Decimal.Value) => new Decimal(v);
const text = (c: Record<string, Decimal>) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.toFixed()]));

const usx = () =>
  decompose({
    openingValueLocal: d(0),
    openingRate: d("1.5"),
    closingValueLocal: d(1100),
    closingRate: d("1.6"),
    flows: [
      { amountLocal: d(1000), rate: d("1.5") },
      { amountLocal: d(-20), rate: d("1.55") },
    ],
    income: [{ netLocal: d(20), rate: d("1.55") }],
  });

test("USD holding in an AUD portfolio: 160 capital + 31 dividend + 100 currency = 291 total", () => {
  expect(text({ ...usx() })).toEqual({ totalReturnValue: "291", capitalGainValue: "160", dividendReturnValue: "31", currencyGainValue: "100" });
});

test("a base-currency holding has no currency gain; the portfolio's components are the sums and still add up", () => {
  // AUD: 1,000 in, worth 1,050 with a 10 dividend ex in the period and still receivable (in the value).
  const aud = decompose({ openingValueLocal: d(0), openingRate: d(1), closingValueLocal: d(1060), closingRate: d(1), flows: [{ amountLocal: d(1000), rate: d(1) }], income: [{ netLocal: d(10), rate: d(1) }] });
  expect(text({ ...aud })).toEqual({ totalReturnValue: "60", capitalGainValue: "50", dividendReturnValue: "10", currencyGainValue: "0" });
  const total = sumComponents([usx(), aud]);
  expect(text({ ...total })).toEqual({ totalReturnValue: "351", capitalGainValue: "210", dividendReturnValue: "41", currencyGainValue: "100" });
  expect(total.capitalGainValue.plus(total.dividendReturnValue).plus(total.currencyGainValue).eq(total.totalReturnValue)).toBe(true);
});
