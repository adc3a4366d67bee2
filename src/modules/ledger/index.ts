/**
 * The ledger core (docs/rules.md §1–10): every rule the services and reports read about units, cost
 * base, prices, rates, cash and flows, each defined once in the file named for it.
 */
export * from "./cash-effects";
export * from "./dated-series";
export * from "./discount";
export * from "./events";
export * from "./fold";
export * from "./units-timeline";
export * from "./fx";
export * from "./load";
export * from "./moment";
export * from "./parcel-selection";
export * from "./prices";
export * from "./price-freshness";
export * from "./rounding";
export * from "./valuation/position";
export * from "./flows";
export * from "./valuation/daily-series";
export * from "./valuation/range-load";
export * from "./read-limits";
export * from "./valuation/exact-day";
export * from "./market-data";
export * from "./portfolio-access";
export * from "./valuation/holdings-on-date";
export * from "./valuation/series-cache";
