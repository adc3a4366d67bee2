import { Decimal } from "../../src/lib/money";
import { discountRateOf, isDiscountEligible, type Disposal } from "../../src/modules/ledger";
import { netCapitalGain, type CgtGain, type CgtSummary } from "../../src/modules/tax/cgt";
import { myTaxLines } from "../../src/modules/tax/mytax";
import { allLabels, type IncomeLabel, type Labels, type TaxIncome } from "../../src/modules/tax/taxable-income";
import { d, s } from "./parcels.helpers";

/** The 50 % discount of an individual or a trust (ITAA 1997 s115-100(a)). */
export const HALF = d("0.5");
/** A complying super fund's one-third discount (s115-100(b)). */
export const SMSF = discountRateOf("SMSF");
/** A company's discount: none (s115-10). */
export const COMPANY = discountRateOf("Company");

/** A company dividend paid in FY2025, every amount 0 unless given: `dividend({ frankedAmount: d(700) })`. */
export function dividend(over: Partial<TaxIncome>): TaxIncome {
  return {
    exDividendDate: "2025-02-20",
    paidDate: "2025-03-15",
    isTrustIncome: false,
    frankedAmount: d(0),
    unfrankedAmount: d(0),
    frankingCredits: d(0),
    foreignIncome: d(0),
    foreignTaxPaid: d(0),
    withholdingTax: d(0),
    exchangeRate: d(1),
    components: null,
    ...over,
  };
}

/** A trust distribution for 30 June 2025 (paid in August), every amount 0 unless given. */
export const distribution = (over: Partial<TaxIncome>): TaxIncome =>
  dividend({ exDividendDate: "2025-06-30", paidDate: "2025-08-14", isTrustIncome: true, ...over });

/** Labels → decimal text, for readable expectations: `{ "11T": "700" }`. */
export const text = (labels: Labels): Partial<Record<IncomeLabel, string>> =>
  Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, s(v as Decimal)]));

/** A CGT summary → decimal text, figure by figure. */
export const figures = (summary: CgtSummary): Record<keyof CgtSummary, string> =>
  Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, s(v as Decimal)])) as Record<keyof CgtSummary, string>;

/** The CGT summary of a year without CGT events (an individual's). */
export const noCgt = (): CgtSummary =>
  netCapitalGain({ gains: [], trustGains: [], carriedForwardLossesAvailable: d(0), discountRate: HALF });

/** Every myTax line's amount as text in cents (`"700.00"`), from income labels and a CGT summary (none by default). */
export const amounts = (labels: Labels, cgt: CgtSummary = noCgt()): Record<string, string> =>
  Object.fromEntries(myTaxLines(allLabels(labels), cgt).map((l) => [l.label, l.amount.toFixed(2)]));

/** A fold's CGT events as the capital gains report feeds them to netCapitalGain (disposal-rows.ts disposalRow). */
export function gainsOf(disposals: Disposal[], discountRate: Decimal): CgtGain[] {
  return disposals
    .filter((x) => x.isCgtEvent)
    .map((x) => ({
      capitalGain: x.gainInBaseCurrency,
      isDiscountable: discountRate.gt(0) && isDiscountEligible(x.acquisitionDate, x.date),
    }));
}

/** A discountable (held 12 months or more) gain, or loss when negative. */
export const long = (v: Decimal.Value): CgtGain => ({ capitalGain: d(v as string), isDiscountable: true });
/** A non-discountable gain, or loss when negative. */
export const short = (v: Decimal.Value): CgtGain => ({ capitalGain: d(v as string), isDiscountable: false });
