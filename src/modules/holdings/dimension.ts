/**
 * A holding's value on a dimension (allocation model buckets, performance groups): the one place
 * that says which attribute each dimension reads. `customGroup:{id}` reads the holding's label in
 * that group, which the caller looked up (null: the holding has none). Null: no value recorded.
 */
/** The group (bucket) of holdings with no value on a dimension. */
export const UNCLASSIFIED = "Unclassified";

export interface DimensionHolding {
  symbol: string;
  exchange: string;
  currencyCode: string;
  holdingType: string;
  assetClass: string | null;
  sector: string | null;
  industry: string | null;
}

export function dimensionValue(
  h: DimensionHolding,
  dimension: string,
  customLabel: () => string | null,
): string | null {
  switch (dimension) {
    case "holding":
      return `${h.symbol}.${h.exchange}`;
    case "assetClass":
      return h.assetClass;
    case "sector":
      return h.sector;
    case "industry":
      return h.industry;
    case "currency":
      return h.currencyCode;
    case "exchange":
      return h.exchange;
    case "holdingType":
      return h.holdingType;
    default:
      return customLabel();
  }
}
