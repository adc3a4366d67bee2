import { Decimal } from "../../lib/money";
import type { CgtSummary } from "./cgt";
import type { IncomeLabel } from "./taxable-income";

/**
 * The ATO myTax labels (docs/reports.md §5.4), pure: in the order myTax asks for them, each once,
 * zeros included, rounded to whole cents (myTax takes dollars and cents).
 */
export const MYTAX_LABELS = [
  { label: "10L", section: "Interest", description: "Gross interest" },
  { label: "10M", section: "Interest", description: "TFN amounts withheld from gross interest" },
  { label: "11S", section: "Dividends", description: "Unfranked amount" },
  { label: "11T", section: "Dividends", description: "Franked amount" },
  { label: "11U", section: "Dividends", description: "Franking credit" },
  { label: "11V", section: "Dividends", description: "TFN amounts withheld from dividends" },
  {
    label: "13U",
    section: "Partnerships and trusts",
    description: "Share of net income from trusts, less capital gains, foreign income and franked distributions",
  },
  { label: "13C", section: "Partnerships and trusts", description: "Franked distributions from trusts" },
  { label: "13Q", section: "Partnerships and trusts", description: "Share of franking credit from franked dividends" },
  { label: "13R", section: "Partnerships and trusts", description: "Share of credit for TFN amounts withheld" },
  { label: "18H", section: "Capital gains", description: "Total current year capital gains" },
  { label: "18A", section: "Capital gains", description: "Net capital gain" },
  { label: "18V", section: "Capital gains", description: "Net capital losses carried forward to later income years" },
  {
    label: "20E",
    section: "Foreign source income and foreign assets or property",
    description: "Assessable foreign source income",
  },
  {
    label: "20M",
    section: "Foreign source income and foreign assets or property",
    description: "Other net foreign source income",
  },
  {
    label: "20O",
    section: "Foreign source income and foreign assets or property",
    description: "Foreign income tax offsets",
  },
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
