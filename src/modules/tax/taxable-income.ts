import { financialYearOf } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { roundMoney } from "../ledger";
import type { AmitComponent } from "../income/amit";
import type { IncomeView } from "../income/income-view";
import { TRUST_GROSS_UP } from "./cgt";

/**
 * Taxable income by myTax label (docs/rules.md §6.3, §6.4), pure: which year an income record belongs to,
 * and the labels it gives. Amounts in the base currency (AUD) at the record's own rate, 4 decimals.
 */
export const INCOME_LABELS = [
  "10L",
  "10M",
  "11S",
  "11T",
  "11U",
  "11V",
  "13U",
  "13C",
  "13Q",
  "13R",
  "18H",
  "20E",
  "20M",
  "20O",
] as const;
export type IncomeLabel = (typeof INCOME_LABELS)[number];
export type Labels = Partial<Record<IncomeLabel, Decimal>>;

/** What the labels read of an income record. */
export type TaxIncome = Pick<
  IncomeView,
  | "exDividendDate"
  | "paidDate"
  | "isTrustIncome"
  | "frankedAmount"
  | "unfrankedAmount"
  | "frankingCredits"
  | "foreignIncome"
  | "foreignTaxPaid"
  | "withholdingTax"
  | "exchangeRate"
  | "components"
>;

/**
 * The income year a record belongs to: a company dividend the year it is paid; a trust
 * distribution the year of entitlement, its ex-dividend date (a 30 June distribution paid in July
 * belongs to the year that ended).
 */
export function incomeYearOf(
  income: Pick<TaxIncome, "isTrustIncome" | "exDividendDate" | "paidDate">,
  yearEnd = "06-30",
): number {
  return financialYearOf(income.isTrustIncome ? income.exDividendDate : income.paidDate, yearEnd);
}

/** The labels of one income record (only the non-zero ones). */
export function labelsOf(income: TaxIncome): Labels {
  const labels: Labels = {};
  const add = (label: IncomeLabel, amount: Decimal) => {
    if (amount.isZero()) return;
    const inBase = roundMoney(income.exchangeRate.eq(1) ? amount : amount.times(income.exchangeRate));
    labels[label] = (labels[label] ?? new Decimal(0)).plus(inBase);
  };
  const components = income.components && Object.keys(income.components).length > 0 ? income.components : null;
  if (income.isTrustIncome && components) {
    const c = (name: AmitComponent) => components[name] ?? new Decimal(0);
    add("13U", c("nonPrimaryProductionIncome"));
    add("13C", c("frankedDistributions"));
    add("13Q", c("frankingCredits"));
    add("13R", c("tfnWithheld"));
    // Grossed-up discounted gains and the others rounded apart, as the CGT summary rounds them (cgt.ts).
    add("18H", c("discountedCapitalGains").times(TRUST_GROSS_UP));
    add("18H", c("nonDiscountedCapitalGains"));
    add("20E", c("assessableForeignIncome"));
    add("20M", c("assessableForeignIncome"));
    add("20O", c("foreignIncomeTaxOffset"));
    return labels;
  }
  if (income.isTrustIncome) {
    add("13U", income.unfrankedAmount);
    add("13C", income.frankedAmount);
    add("13Q", income.frankingCredits);
    add("13R", income.withholdingTax);
  } else {
    add("11S", income.unfrankedAmount);
    add("11T", income.frankedAmount);
    add("11U", income.frankingCredits);
    add("11V", income.withholdingTax);
  }
  // Foreign income is assessable gross, the foreign tax paid on it an offset.
  add("20E", income.foreignIncome);
  add("20M", income.foreignIncome);
  add("20O", income.foreignTaxPaid);
  return labels;
}

/** Adds labels into a running total. */
export function addLabels(into: Labels, labels: Labels): Labels {
  for (const [label, amount] of Object.entries(labels) as [IncomeLabel, Decimal][])
    into[label] = (into[label] ?? new Decimal(0)).plus(amount);
  return into;
}

/** Every label, zeros included, in myTax order. */
export function allLabels(labels: Labels): Record<IncomeLabel, Decimal> {
  return Object.fromEntries(INCOME_LABELS.map((l) => [l, labels[l] ?? new Decimal(0)])) as Record<IncomeLabel, Decimal>;
}
