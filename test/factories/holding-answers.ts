import { gqlDecimal, gqlId, restDecimal, restId, type Json, type TransportName } from "../support/outcomes";

/**
 * A holding as both transports answer it, normalised so REST and GraphQL are held to the same
 * answers: decimals as their exact digits, ids as numbers. The holdings suites read the whole
 * holding; the trades suites read only its units, cost base and value (`HoldingSummary`), and pin
 * that shape exactly, so both are kept.
 */
export interface HoldingSummary {
  id: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  name: string;
  currencyCode: string;
  holdingType: string;
  quantity: string;
  costBase: string;
  marketValue: string | null;
  unrealisedGain: string | null;
}

export interface Holding extends HoldingSummary {
  price: string | null;
  priceDate: string | null;
  priceSource: string;
  priceStale: boolean;
  exchangeRate: string | null;
  baseCurrencyCode: string;
  classification: { assetClass: string | null; sector: string | null; industry: string | null };
  drp: { enabled: boolean; rounding: string };
  notes: string;
}

/** The GraphQL selections that answer every field of `HoldingSummary` and of `Holding`. */
export const HOLDING_SUMMARY = `fragment H on Holding { id portfolioId symbol exchange name currencyCode holdingType quantity costBase marketValue unrealisedGain }`;
export const HOLDING = `fragment H on Holding {
  id portfolioId symbol exchange name currencyCode holdingType quantity costBase price priceDate priceSource priceStale
  exchangeRate marketValue unrealisedGain baseCurrencyCode classification { assetClass sector industry } drp { enabled rounding } notes
}`;

const decimalOf = (transport: TransportName) => (transport === "REST" ? restDecimal : gqlDecimal);
const optionalDecimalOf = (transport: TransportName) => {
  const dec = decimalOf(transport);
  return (v: unknown) => (v === null ? null : dec(v));
};

export function toHoldingSummary(raw: Json, transport: TransportName): HoldingSummary {
  const dec = decimalOf(transport);
  const opt = optionalDecimalOf(transport);
  const id = transport === "REST" ? restId : gqlId;
  return {
    id: id(raw.id),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol as string,
    exchange: raw.exchange as string,
    name: raw.name as string,
    currencyCode: raw.currencyCode as string,
    holdingType: raw.holdingType as string,
    quantity: dec(raw.quantity),
    costBase: dec(raw.costBase),
    marketValue: opt(raw.marketValue),
    unrealisedGain: opt(raw.unrealisedGain),
  };
}

export function toHolding(raw: Json, transport: TransportName): Holding {
  const opt = optionalDecimalOf(transport);
  return {
    ...toHoldingSummary(raw, transport),
    price: opt(raw.price),
    priceDate: raw.priceDate as string | null,
    priceSource: raw.priceSource as string,
    priceStale: raw.priceStale as boolean,
    exchangeRate: opt(raw.exchangeRate),
    baseCurrencyCode: raw.baseCurrencyCode as string,
    classification: raw.classification as Holding["classification"],
    drp: raw.drp as Holding["drp"],
    notes: raw.notes as string,
  };
}
