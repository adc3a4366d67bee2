import { Decimal } from "decimal.js";
import { decompose, decomposeCash, decomposeLocal, sumComponents } from "../../src/modules/analytics/decomposition";

/**
 * A foreign holding whose capital, dividend and currency components add up to its total
 * (docs/rules.md §11.4). An AUD portfolio buys 10 USX @ USD 100 at 1.5 AUD/USD (USD 1,000 in, AUD 1,500);
 * a net dividend of USD 20 goes ex in the period at 1.55 and is paid in it (USD 20 out, AUD 31);
 * at the close 10 × USD 110 = USD 1,100 at 1.6 = AUD 1,760. BMV 0.
 *   total    = 1,760 − 0 − (1,500 − 31)                  = 291
 *   dividend = 20 × 1.55                                  = 31
 *   capital  = (1,100 − 0 − (1,000 − 20) − 20) × 1.6      = 160  (USD 100 of price gain at the close rate)
 *   currency = 291 − 160 − 31                             = 100  (USD 1,000 invested at 1.5, now 1.6)
 */
const d = (v: Decimal.Value) => new Decimal(v);
const text = (c: Record<string, Decimal>) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.toFixed()]));

/** An amount in the holding's currency and in AUD at its day's rate. */
const at = (local: Decimal.Value, rate: Decimal.Value) => ({ local: d(local), base: d(local).times(rate) });

const usx = () =>
  decompose({
    opening: at(0, "1.5"),
    closing: at(1100, "1.6"),
    closingRate: d("1.6"),
    flows: [at(1000, "1.5"), at(-20, "1.55")],
    income: [at(20, "1.55")],
  });

test("USD holding in an AUD portfolio: 160 capital + 31 dividend + 100 currency = 291 total", () => {
  expect(text({ ...usx() })).toEqual({
    totalReturnValue: "291",
    capitalGainValue: "160",
    dividendReturnValue: "31",
    currencyGainValue: "100",
  });
});

test("a base-currency holding has no currency gain; the portfolio's components are the sums and still add up", () => {
  // AUD: 1,000 in, worth 1,050 with a 10 dividend ex in the period and still receivable (in the value).
  const aud = decompose({
    opening: at(0, 1),
    closing: at(1060, 1),
    closingRate: d(1),
    flows: [at(1000, 1)],
    income: [at(10, 1)],
  });
  expect(text({ ...aud })).toEqual({
    totalReturnValue: "60",
    capitalGainValue: "50",
    dividendReturnValue: "10",
    currencyGainValue: "0",
  });
  const total = sumComponents([usx(), aud]);
  expect(text({ ...total })).toEqual({
    totalReturnValue: "351",
    capitalGainValue: "210",
    dividendReturnValue: "41",
    currencyGainValue: "100",
  });
  expect(
    total.capitalGainValue.plus(total.dividendReturnValue).plus(total.currencyGainValue).eq(total.totalReturnValue),
  ).toBe(true);
});

test("in the holding's own currency (showLocalCurrency): USD 100 capital + USD 20 dividend = USD 120, no currency gain", () => {
  // total = 1,100 − 0 − (1,000 − 20) = 120; dividend 20; capital 100.
  const local = decomposeLocal({
    opening: at(0, "1.5"),
    closing: at(1100, "1.6"),
    closingRate: d("1.6"),
    flows: [at(1000, "1.5"), at(-20, "1.55")],
    income: [at(20, "1.55")],
  });
  expect(text({ ...local })).toEqual({
    totalReturnValue: "120",
    capitalGainValue: "100",
    dividendReturnValue: "20",
    currencyGainValue: "0",
  });
});

test("a USD cash account: interest is dividend return, the rate's move on the balance is currency gain", () => {
  // USD 1,000 deposited at 1.5 (AUD 1,500 in); USD 10 interest at 1.55 (AUD 15.5); a synced buy of
  // USD 500 at 1.55 (AUD 775 out to the holding); closing USD 510 at 1.6 = AUD 816. BMV 0.
  //   total    = 816 − 0 − (1,500 − 775) = 91
  //   dividend = 15.5
  //   currency = 91 − 15.5 = 75.5 (USD 1,000 held from 1.5 to 1.55 = 50, USD 510 from 1.55 to 1.6 = 25.5)
  const cash = decomposeCash({
    openingBase: d(0),
    closingBase: d(816),
    transfersBase: [d(1500), d(-775)],
    interestBase: [d("15.5")],
  });
  expect(text({ ...cash })).toEqual({
    totalReturnValue: "91",
    capitalGainValue: "0",
    dividendReturnValue: "15.5",
    currencyGainValue: "75.5",
  });
});
