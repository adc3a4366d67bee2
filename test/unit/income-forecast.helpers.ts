import { Decimal } from "../../src/lib/money";
import type {
  AnnouncedDividend,
  ForecastInput,
  IncomeForecast,
  TrailingIncome,
} from "../../src/modules/planning/income-forecast";

/** Builders for the income forecast's golden stories (docs/reports.md §6.2). */
export const d = (v: Decimal.Value) => new Decimal(v);

let nextId = 1;

/** A plain AUD dividend paid on `units`: net = gross, unfranked unless franking is given. */
export function record(
  fields: Partial<Omit<TrailingIncome, "grossAmount" | "netAmount" | "frankingCredits" | "unitsEntitled">> & {
    exDividendDate: string;
    paidDate: string;
    net: Decimal.Value;
    units: Decimal.Value;
    gross?: Decimal.Value;
    franking?: Decimal.Value;
  },
): TrailingIncome {
  const { net, units, gross, franking, ...rest } = fields;
  return {
    incomeId: nextId++,
    holdingId: 1,
    currencyCode: "AUD",
    ...rest,
    grossAmount: d(gross ?? net),
    netAmount: d(net),
    frankingCredits: d(franking ?? 0),
    unitsEntitled: d(units),
  };
}

export function announced(
  fields: Partial<Omit<AnnouncedDividend, "amountPerUnit">> & { exDate: string; amountPerUnit: Decimal.Value },
): AnnouncedDividend {
  return { holdingId: 1, currencyCode: "AUD", ...fields, amountPerUnit: d(fields.amountPerUnit) };
}

export function input(fields: Partial<ForecastInput> & { units?: Decimal.Value }): ForecastInput {
  const { units, ...rest } = fields;
  return {
    portfolioId: 1,
    from: "2026-07-01",
    months: 12,
    currency: "AUD",
    holdings: [{ holdingId: 1, symbol: "XYZ", exchange: "ASX", units: d(units ?? 100) }],
    income: [],
    announced: [],
    rates: new Map([["AUD", d(1)]]),
    marketValue: d(0),
    ...rest,
  };
}

/** The forecast as text, decimals written out, for exact comparison. */
export function text(forecast: IncomeForecast): unknown {
  return JSON.parse(JSON.stringify(forecast, (_k, v: unknown) => (v instanceof Decimal ? v.toFixed() : v)));
}

/** The payments' dates, amounts and basis as text. */
export const paymentsOf = (forecast: IncomeForecast) =>
  forecast.payments.map((p) => ({
    exDividendDate: p.exDividendDate,
    paidDate: p.paidDate,
    perUnit: p.perUnit.toFixed(),
    units: p.units.toFixed(),
    cash: p.cash.toFixed(),
    frankingCredits: p.frankingCredits.toFixed(),
    basis: p.basis,
  }));
