import { Decimal } from "../../src/lib/money";
import type { LedgerEvent, TradeType } from "../../src/modules/ledger";

let seq = 0;

/** A trade event for the parcel fold: `t(12, "Buy", "2024-01-02", 10, 1.5, { brokerage: 9.95 })`. */
export function t(
  tradeId: number,
  type: TradeType | "DrpAllotment",
  date: string,
  units: number | string,
  price: number | string = 0,
  extra: Partial<Omit<LedgerEvent, "units" | "price" | "brokerage" | "exchangeRate">> & {
    brokerage?: number | string;
    exchangeRate?: number | string;
  } = {},
): LedgerEvent {
  const { brokerage, exchangeRate, ...rest } = extra;
  return {
    key: `trade ${tradeId}`,
    tradeId,
    type,
    date,
    seq: ++seq,
    units: new Decimal(units),
    price: new Decimal(price),
    brokerage: new Decimal(brokerage ?? 0),
    exchangeRate: new Decimal(exchangeRate ?? 1),
    ...rest,
  };
}

export const d = (v: number | string) => new Decimal(v);
/** Decimal → plain string, for readable expectations. */
export const s = (v: Decimal) => v.toFixed();
