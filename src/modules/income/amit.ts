/**
 * The AMIT component names an income record may carry (docs/rules.md §6.5), with the myTax label or the
 * cost base change each gives (tax/taxable-income.ts, ledger/load.ts). Any other name is refused
 * with this list.
 */
export const AMIT_COMPONENTS = [
  "nonPrimaryProductionIncome",
  "frankedDistributions",
  "frankingCredits",
  "tfnWithheld",
  "discountedCapitalGains",
  "nonDiscountedCapitalGains",
  "cgtConcessionAmount",
  "assessableForeignIncome",
  "foreignIncomeTaxOffset",
  "taxDeferred",
  "amitCostBaseDecrease",
  "amitCostBaseIncrease",
] as const;
export type AmitComponent = (typeof AMIT_COMPONENTS)[number];

/** Components that change the holding's cost base on the paid date instead of being income. */
export const COST_BASE_DECREASES: readonly AmitComponent[] = ["taxDeferred", "amitCostBaseDecrease"];
export const COST_BASE_INCREASES: readonly AmitComponent[] = ["amitCostBaseIncrease"];
