import { addDays, addMonthsClamped, daysInMonth } from "../../lib/dates";
import { Decimal, ZERO } from "../../lib/money";
import { dayNumber } from "../ledger";
import { roundMoney } from "../ledger/rounding";

/**
 * The income forecast (docs/reports.md §6.2), pure: the last twelve months' income repeated a year
 * later on the units held now, with the dividends a provider has already announced in place of
 * their trailing twins. No Prisma, no clock: the service hands over the ledger's figures.
 */
export const FORECAST_BASES = ["Trailing", "Announced"] as const;
export type ForecastBasis = (typeof FORECAST_BASES)[number];

/** Per-unit amounts keep 8 decimals, as prices do (docs/conventions.md §4). */
export const PER_UNIT_DP = 8;

/** An announced dividend replaces the repeat nearest to it by ex-date within this many days. */
export const ANNOUNCED_WINDOW_DAYS = 45;

/** An income record of the twelve months before `from` (confirmed or not), in its own currency. */
export interface TrailingIncome {
  incomeId: number;
  holdingId: number;
  exDividendDate: string;
  paidDate: string;
  currencyCode: string;
  grossAmount: Decimal;
  /** The cash that arrives (gross − withholding − foreign tax); a DRP's too, reinvested or not. */
  netAmount: Decimal;
  frankingCredits: Decimal;
  /** Units held at the start of its ex-date: the units it was paid on. */
  unitsEntitled: Decimal;
}

/** A provider's dividend (docs/data.md §3): cash per unit, before any withholding, in its currency. */
export interface AnnouncedDividend {
  holdingId: number;
  exDate: string;
  amountPerUnit: Decimal;
  currencyCode: string;
}

/** A holding with units at the start of `from`. */
export interface ForecastHolding {
  holdingId: number;
  symbol: string;
  exchange: string;
  units: Decimal;
}

export interface ForecastInput {
  portfolioId: number;
  from: string;
  months: number;
  /** The portfolio's base currency. */
  currency: string;
  holdings: readonly ForecastHolding[];
  income: readonly TrailingIncome[];
  announced: readonly AnnouncedDividend[];
  /** Units of the base currency per unit of each currency, on `from` (the FX rule). */
  rates: ReadonlyMap<string, Decimal>;
  /** The holdings' market value at the start of `from` (the close of the day before), base currency. */
  marketValue: Decimal;
}

export interface ForecastPayment {
  holdingId: number;
  symbol: string;
  exchange: string;
  /** The record this payment repeats (a twin an announced dividend replaced included); null for an announced dividend without one. */
  incomeId: number | null;
  exDividendDate: string;
  paidDate: string;
  currencyCode: string;
  /** Net cash per unit, in `currencyCode`. */
  perUnit: Decimal;
  frankingPerUnit: Decimal;
  units: Decimal;
  /** Base-currency units per unit of `currencyCode` on `from`. */
  exchangeRate: Decimal;
  /** perUnit × units × exchangeRate, base currency. */
  cash: Decimal;
  frankingCredits: Decimal;
  basis: ForecastBasis;
}

export interface IncomeForecast {
  portfolioId: number;
  from: string;
  to: string;
  currency: string;
  total: { cash: Decimal; frankingCredits: Decimal; grossedUp: Decimal };
  marketValue: Decimal;
  /** total cash ÷ marketValue × 100; null without a market value. */
  yieldPercent: number | null;
  months: { month: string; cash: Decimal; frankingCredits: Decimal }[];
  payments: ForecastPayment[];
}

/**
 * The last day of `months` months from `from`: the day before `from`, that many months on, clamped
 * to the month's end, a month's last day staying one (from 1 July: 30 June; from 31 March, one
 * month: 30 April; from 31 January: 28 February).
 */
export function forecastEnd(from: string, months: number): string {
  const before = addDays(from, -1);
  const [y, m, d] = before.split("-").map(Number);
  const moved = addMonthsClamped(before, months);
  if (d !== daysInMonth(y, m)) return moved;
  const [year, month] = moved.split("-").map(Number);
  return `${moved.slice(0, 8)}${String(daysInMonth(year, month)).padStart(2, "0")}`;
}

/** Every month from the one of `from` to the one of `to`, as YYYY-MM. */
function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); month = addMonthsClamped(`${month}-01`, 1).slice(0, 7))
    out.push(month);
  return out;
}

/** Per unit, exact: cash is per unit × units, rounded once; the answer shows it to PER_UNIT_DP. */
const perUnitOf = (amount: Decimal, units: Decimal) => amount.div(units);
const shown = (perUnit: Decimal) => perUnit.toDecimalPlaces(PER_UNIT_DP, Decimal.ROUND_HALF_UP);

/** A payment before it is priced: what it pays per unit, in its own currency, and when. */
interface Repeat {
  holdingId: number;
  incomeId: number | null;
  /** 1 for a year after the record, 2 for two (periods past twelve months). */
  years: number;
  exDividendDate: string;
  paidDate: string;
  currencyCode: string;
  perUnit: Decimal;
  frankingPerUnit: Decimal;
  basis: ForecastBasis;
  /** The record's shape, which an announced dividend takes: net ÷ gross and franking ÷ gross. */
  source?: TrailingIncome;
}

/**
 * Each trailing record repeated every twelve months the period reaches (ex-date and paid date the
 * same day a year on, clamped), at its amounts per unit entitled; a record whose ex-date a year on
 * is before `from` is not of the twelve months before it. A record paid on no units repeats nothing.
 */
function trailingRepeats(income: readonly TrailingIncome[], from: string, years: number): Repeat[] {
  const out: Repeat[] = [];
  for (const r of income) {
    if (r.exDividendDate >= from || addMonthsClamped(r.exDividendDate, 12) < from || !r.unitsEntitled.gt(0)) continue;
    for (let k = 1; k <= years; k++)
      out.push({
        holdingId: r.holdingId,
        incomeId: r.incomeId,
        years: k,
        exDividendDate: addMonthsClamped(r.exDividendDate, 12 * k),
        paidDate: addMonthsClamped(r.paidDate, 12 * k),
        currencyCode: r.currencyCode,
        perUnit: perUnitOf(r.netAmount, r.unitsEntitled),
        frankingPerUnit: perUnitOf(r.frankingCredits, r.unitsEntitled),
        basis: "Trailing",
        source: r,
      });
  }
  return out;
}

/**
 * An announced dividend in place of the repeat of its holding nearest to it by ex-date, within
 * ANNOUNCED_WINDOW_DAYS: the nearest pairs are matched first (ties: the earlier announced, then the
 * earlier repeat), each repeat and each announced once. It keeps its twin's gap from ex-date to
 * payment and its shape (net and franking per dollar of gross); without a twin it is paid on its
 * ex-date, unfranked, as the provider's income records are estimated (docs/data.md §3).
 */
function withAnnounced(repeats: Repeat[], announced: readonly AnnouncedDividend[], from: string): Repeat[] {
  const open = announced.filter((a) => a.exDate >= from);
  const pairs: { a: number; r: number; distance: number }[] = [];
  open.forEach((a, i) =>
    repeats.forEach((r, j) => {
      const distance = Math.abs(dayNumber(r.exDividendDate) - dayNumber(a.exDate));
      if (r.holdingId === a.holdingId && distance <= ANNOUNCED_WINDOW_DAYS) pairs.push({ a: i, r: j, distance });
    }),
  );
  pairs.sort(
    (x, y) =>
      x.distance - y.distance ||
      compare(open[x.a].exDate, open[y.a].exDate) ||
      open[x.a].holdingId - open[y.a].holdingId ||
      compare(repeats[x.r].exDividendDate, repeats[y.r].exDividendDate) ||
      x.r - y.r,
  );
  const twinOf = new Map<number, number>();
  const taken = new Set<number>();
  for (const { a, r } of pairs) {
    if (twinOf.has(a) || taken.has(r)) continue;
    twinOf.set(a, r);
    taken.add(r);
  }
  const out = [...repeats];
  open.forEach((a, i) => {
    const twin = twinOf.has(i) ? repeats[twinOf.get(i)!] : undefined;
    const shape = twin?.source;
    const share = (part: Decimal) => (shape && shape.grossAmount.gt(0) ? part.div(shape.grossAmount) : undefined);
    const net = shape ? share(shape.netAmount) : undefined;
    const franking = shape ? share(shape.frankingCredits) : undefined;
    const payment: Repeat = {
      holdingId: a.holdingId,
      incomeId: twin?.incomeId ?? null,
      years: twin?.years ?? 1,
      exDividendDate: a.exDate,
      paidDate: twin ? addDays(a.exDate, dayNumber(twin.paidDate) - dayNumber(twin.exDividendDate)) : a.exDate,
      currencyCode: a.currencyCode,
      perUnit: a.amountPerUnit.times(net ?? 1),
      frankingPerUnit: a.amountPerUnit.times(franking ?? 0),
      basis: "Announced",
    };
    if (twin) out[twinOf.get(i)!] = payment;
    else out.push(payment);
  });
  return out;
}

export function incomeForecastOf(input: ForecastInput): IncomeForecast {
  const { from } = input;
  const to = forecastEnd(from, input.months);
  const held = new Map(input.holdings.filter((h) => h.units.gt(0)).map((h) => [h.holdingId, h]));
  const years = Math.ceil(input.months / 12);
  const repeats = withAnnounced(
    trailingRepeats(
      input.income.filter((r) => held.has(r.holdingId)),
      from,
      years,
    ),
    input.announced.filter((a) => held.has(a.holdingId)),
    from,
  );

  const payments: ForecastPayment[] = [];
  for (const r of repeats) {
    // A repeat paid outside the period is left out.
    if (r.paidDate < from || r.paidDate > to) continue;
    const h = held.get(r.holdingId)!;
    const rate = input.rates.get(r.currencyCode);
    if (!rate) throw new Error(`incomeForecastOf: no ${r.currencyCode} rate given`);
    payments.push({
      holdingId: r.holdingId,
      symbol: h.symbol,
      exchange: h.exchange,
      incomeId: r.incomeId,
      exDividendDate: r.exDividendDate,
      paidDate: r.paidDate,
      currencyCode: r.currencyCode,
      perUnit: shown(r.perUnit),
      frankingPerUnit: shown(r.frankingPerUnit),
      units: h.units,
      exchangeRate: rate,
      cash: roundMoney(r.perUnit.times(h.units).times(rate)),
      frankingCredits: roundMoney(r.frankingPerUnit.times(h.units).times(rate)),
      basis: r.basis,
    });
  }
  payments.sort(
    (a, b) =>
      compare(a.paidDate, b.paidDate) ||
      compare(a.exDividendDate, b.exDividendDate) ||
      a.holdingId - b.holdingId ||
      (a.incomeId ?? Infinity) - (b.incomeId ?? Infinity) ||
      compare(a.basis, b.basis),
  );

  const months = monthsOf(from, to).map((month) => ({ month, cash: ZERO, frankingCredits: ZERO }));
  const byMonth = new Map(months.map((m) => [m.month, m]));
  for (const p of payments) {
    const m = byMonth.get(p.paidDate.slice(0, 7))!;
    m.cash = m.cash.plus(p.cash);
    m.frankingCredits = m.frankingCredits.plus(p.frankingCredits);
  }
  const cash = payments.reduce((s, p) => s.plus(p.cash), ZERO);
  const frankingCredits = payments.reduce((s, p) => s.plus(p.frankingCredits), ZERO);
  return {
    portfolioId: input.portfolioId,
    from,
    to,
    currency: input.currency,
    total: { cash, frankingCredits, grossedUp: cash.plus(frankingCredits) },
    marketValue: input.marketValue,
    // A rate, computed in floating point from the exact figures (docs/reports.md §0).
    yieldPercent: input.marketValue.gt(0) ? cash.div(input.marketValue).times(100).toNumber() : null,
    months,
    payments,
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
