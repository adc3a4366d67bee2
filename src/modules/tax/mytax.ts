import { Decimal } from "../../lib/money";
import type { CgtSummary } from "./cgt";
import { INCOME_LABELS, type IncomeLabel } from "./taxable-income";

/** One myTax section's labels, in order, each with its description: the section is named once. */
const section = <const L extends string>(name: string, labels: readonly (readonly [label: L, description: string])[]) =>
  labels.map(([label, description]) => ({ label, section: name, description }));

/**
 * The ATO myTax labels (docs/reports.md §5.4), pure: in the order myTax asks for them, each once,
 * zeros included, rounded to whole cents (myTax takes dollars and cents).
 */
export const MYTAX_LABELS = [
  ...section("Interest", [
    ["10L", "Gross interest"],
    ["10M", "TFN amounts withheld from gross interest"],
  ]),
  ...section("Dividends", [
    ["11S", "Unfranked amount"],
    ["11T", "Franked amount"],
    ["11U", "Franking credit"],
    ["11V", "TFN amounts withheld from dividends"],
  ]),
  ...section("Partnerships and trusts", [
    ["13U", "Share of net income from trusts, less capital gains, foreign income and franked distributions"],
    ["13C", "Franked distributions from trusts"],
    ["13Q", "Share of franking credit from franked dividends"],
    ["13R", "Share of credit for TFN amounts withheld"],
  ]),
  ...section("Capital gains", [
    ["18H", "Total current year capital gains"],
    ["18A", "Net capital gain"],
    ["18V", "Net capital losses carried forward to later income years"],
  ]),
  ...section("Foreign source income and foreign assets or property", [
    ["20E", "Assessable foreign source income"],
    ["20M", "Other net foreign source income"],
    ["20O", "Foreign income tax offsets"],
  ]),
] as const;

export type MyTaxLabel = (typeof MYTAX_LABELS)[number]["label"];

export interface MyTaxLine {
  label: MyTaxLabel;
  section: string;
  description: string;
  amount: Decimal;
}

/** To whole cents, half away from zero. */
export const toCents = (amount: Decimal) => amount.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/**
 * The income labels of the myTax answer's `taxableIncome`: every one but 18H, which the taxable
 * income report uses for the trusts' capital gains alone while myTax's 18H is the year's total
 * capital gains (docs/reports.md §5.4). The trusts' part is the summary's `trustCapitalGains`.
 */
export const MYTAX_INCOME_LABELS = INCOME_LABELS.filter((l) => l !== "18H") as Exclude<IncomeLabel, "18H">[];
export type MyTaxIncomeLabel = Exclude<IncomeLabel, "18H">;

/** The taxable income totals as the myTax answer shows them: to the cent, like its labels, and without 18H. */
export function myTaxIncomeTotals(totals: Record<IncomeLabel, Decimal>): Record<MyTaxIncomeLabel, Decimal> {
  return Object.fromEntries(MYTAX_INCOME_LABELS.map((l) => [l, toCents(totals[l])])) as Record<
    MyTaxIncomeLabel,
    Decimal
  >;
}

/** The label table: income labels from the taxable income totals, 18H/18A/18V from the CGT summary. */
export function myTaxLines(income: Record<IncomeLabel, Decimal>, capitalGains: CgtSummary): MyTaxLine[] {
  const amountOf = (label: MyTaxLabel): Decimal => {
    switch (label) {
      case "18H":
        return capitalGains.totalCapitalGains;
      case "18A":
        return capitalGains.netCapitalGain;
      case "18V":
        return capitalGains.netCapitalLossesCarriedForward;
      default:
        return income[label];
    }
  };
  return MYTAX_LABELS.map((l) => ({ ...l, amount: toCents(amountOf(l.label)) }));
}
