import { addDays } from "../../lib/dates";
import { Decimal, ZERO } from "../../lib/money";
import { dayNumber, discountEligibleFrom, isDiscountEligible, roundMoney } from "../ledger";
import { gainSplit, netCapitalGain, type CgtGain, type CgtSummary, type TrustCapitalGain } from "../tax/cgt";

/**
 * The end-of-year tax planner (docs/reports.md §6.1), pure: no Prisma, no clock. It reads the year's
 * CGT events up to `asOf` (the capital gains report's rows), the losses carried in, and the open
 * parcels valued at `asOf`'s valuation price (the unrealised report's parcels), and answers what
 * selling a losing parcel now, or waiting for a gaining one's discount, would do to the year's net
 * capital gain (ITAA 1997 s100-50, as cgt.ts computes it). Money in AUD, 4 decimals.
 */

/** The year's CGT events up to `asOf` and the net capital losses carried into it. */
export interface PlannerYear {
  gains: readonly CgtGain[];
  trustGains: readonly TrustCapitalGain[];
  carriedForwardLossesAvailable: Decimal;
}

/** Which open parcel a row is about. */
export interface ParcelOf {
  holdingId: number;
  symbol: string;
  exchange: string;
  /** Null for units a reinvested distribution allotted. */
  acquisitionTradeId: number | null;
  acquisitionDate: string;
  quantity: Decimal;
}

/** An open parcel on `asOf`, valued at that day's price and rate (its share of its holding's value). */
export interface PlannerParcel extends ParcelOf {
  costBase: Decimal;
  marketValue: Decimal;
}

export interface TaxPlannerInput {
  asOf: string;
  discountRate: Decimal;
  year: PlannerYear;
  /** Priced open parcels, in a fixed order (holding, then parcel creation). */
  parcels: readonly PlannerParcel[];
  /** Holdings with open parcels but no price or rate on `asOf`: out of the figures, named in a warning. */
  unpriced: readonly { holdingId: number; symbol: string; exchange: string }[];
  /** The dates each holding acquired units (buys, DRP allotments, transfers in, opening balances). */
  acquisitions: ReadonlyMap<number, readonly string[]>;
  /** Percent (37 = 37 %); null: no tax figures. */
  marginalTaxRate: Decimal | null;
}

export interface HarvestRow extends PlannerParcel {
  /** Cost base − market value, a positive amount. */
  unrealisedLoss: Decimal;
  netCapitalGainReduction: Decimal;
  taxSaved: Decimal | null;
  washSaleRisk: boolean;
}

export interface WaitForDiscountRow extends ParcelOf {
  unrealisedGain: Decimal;
  discountEligibleFrom: string;
  daysToWait: number;
  gainIfSoldNow: Decimal;
  gainIfSoldWhenEligible: Decimal;
  taxSaved: Decimal | null;
}

export type PlannerWarningCode = "WASH_SALE_RISK" | "NO_PRICE";

export interface PlannerWarning {
  code: PlannerWarningCode;
  holdingId: number;
  message: string;
}

export interface TaxPlan {
  realisedToDate: CgtSummary;
  unrealised: { gains: Decimal; losses: Decimal };
  harvest: HarvestRow[];
  waitForDiscount: WaitForDiscountRow[];
  projectedNetCapitalGain: Decimal;
  estimatedTax: Decimal | null;
  warnings: PlannerWarning[];
}

/**
 * A repurchase around a loss sale may be a wash sale (ATO TR 2008/1): units of the holding acquired
 * on `asOf` or in the 30 days before it.
 */
export const WASH_SALE_DAYS = 30;

/** `amount` × a percentage rate, to the ledger's 4 decimals; null without a rate. */
export function taxAt(amount: Decimal, marginalTaxRate: Decimal | null): Decimal | null {
  return marginalTaxRate === null ? null : roundMoney(amount.times(marginalTaxRate).div(100));
}

/** Whether `holdingId` acquired units in the wash-sale window ending on `asOf`. */
export function washSaleRisk(acquisitions: readonly string[] | undefined, asOf: string): boolean {
  const from = addDays(asOf, -WASH_SALE_DAYS);
  return (acquisitions ?? []).some((d) => d >= from && d <= asOf);
}

export function taxPlan(input: TaxPlannerInput): TaxPlan {
  const { asOf, discountRate, year, marginalTaxRate } = input;
  // s100-50 reads only the three sums of the year's events, so each "this parcel also sold" asks
  // about three rows plus one, not the whole year again: linear in parcels, not parcels × events.
  const split = gainSplit(year.gains);
  const yearSums: CgtGain[] = [
    { capitalGain: split.shortTermGain, isDiscountable: false },
    { capitalGain: split.longTermGain, isDiscountable: true },
    { capitalGain: split.capitalLoss.neg(), isDiscountable: false },
  ].filter((g) => !g.capitalGain.isZero());
  const summaryWith = (extra: CgtGain[]) =>
    netCapitalGain({
      gains: [...yearSums, ...extra],
      trustGains: year.trustGains,
      carriedForwardLossesAvailable: year.carriedForwardLossesAvailable,
      discountRate,
    });
  const realisedToDate = summaryWith([]);

  let gains = ZERO;
  let losses = ZERO;
  const harvest: (HarvestRow & { order: number })[] = [];
  const waitForDiscount: (WaitForDiscountRow & { order: number; difference: Decimal })[] = [];
  input.parcels.forEach((p, order) => {
    const gain = p.marketValue.minus(p.costBase);
    const isDiscountable = discountRate.gt(0) && isDiscountEligible(p.acquisitionDate, asOf);
    const parcel = {
      holdingId: p.holdingId,
      symbol: p.symbol,
      exchange: p.exchange,
      acquisitionTradeId: p.acquisitionTradeId,
      acquisitionDate: p.acquisitionDate,
      quantity: p.quantity,
    };
    if (gain.isNegative()) {
      losses = losses.minus(gain);
      // The parcel alone also sold on asOf: the loss takes its place in s100-50's step 1 (current-year
      // losses, non-discount gains first), so what it cannot absorb carries forward.
      const reduction = realisedToDate.netCapitalGain.minus(
        summaryWith([{ capitalGain: gain, isDiscountable }]).netCapitalGain,
      );
      harvest.push({
        ...parcel,
        costBase: p.costBase,
        marketValue: p.marketValue,
        unrealisedLoss: gain.neg(),
        netCapitalGainReduction: reduction,
        taxSaved: taxAt(reduction, marginalTaxRate),
        washSaleRisk: washSaleRisk(input.acquisitions.get(p.holdingId), asOf),
        order,
      });
      return;
    }
    gains = gains.plus(gain);
    // An entity without a discount (a company, s115-10) has nothing to wait for.
    if (gain.isZero() || isDiscountable || !discountRate.gt(0)) return;
    const eligibleFrom = discountEligibleFrom(p.acquisitionDate);
    // cgt.ts rounds the discount once, to 4 decimals: the gain left is the gain less that discount.
    const difference = roundMoney(gain.times(discountRate));
    waitForDiscount.push({
      ...parcel,
      unrealisedGain: gain,
      discountEligibleFrom: eligibleFrom,
      daysToWait: dayNumber(eligibleFrom) - dayNumber(asOf),
      gainIfSoldNow: gain,
      gainIfSoldWhenEligible: gain.minus(difference),
      taxSaved: taxAt(difference, marginalTaxRate),
      order,
      difference,
    });
  });

  const byParcel = (a: { holdingId: number; acquisitionTradeId: number | null; order: number }, b: typeof a): number =>
    a.holdingId - b.holdingId ||
    (a.acquisitionTradeId ?? Number.MAX_SAFE_INTEGER) - (b.acquisitionTradeId ?? Number.MAX_SAFE_INTEGER) ||
    a.order - b.order;
  harvest.sort(
    (a, b) =>
      b.netCapitalGainReduction.comparedTo(a.netCapitalGainReduction) ||
      b.unrealisedLoss.comparedTo(a.unrealisedLoss) ||
      byParcel(a, b),
  );
  waitForDiscount.sort(
    (a, b) => b.difference.comparedTo(a.difference) || a.daysToWait - b.daysToWait || byParcel(a, b),
  );

  const warnings: PlannerWarning[] = [];
  const risky = new Map<number, HarvestRow>();
  for (const h of harvest) if (h.washSaleRisk && !risky.has(h.holdingId)) risky.set(h.holdingId, h);
  for (const h of risky.values())
    warnings.push({
      code: "WASH_SALE_RISK",
      holdingId: h.holdingId,
      message: `${h.symbol}.${h.exchange} acquired units in the ${WASH_SALE_DAYS} days up to ${asOf}: selling it at a loss around a repurchase may be a wash sale (ATO TR 2008/1), and the loss denied.`,
    });
  for (const u of input.unpriced)
    warnings.push({
      code: "NO_PRICE",
      holdingId: u.holdingId,
      message: `${u.symbol}.${u.exchange} has no price or exchange rate on ${asOf}: left out of unrealised, harvest and waitForDiscount.`,
    });
  warnings.sort((a, b) => a.holdingId - b.holdingId || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

  return {
    realisedToDate,
    unrealised: { gains, losses },
    harvest: harvest.map(({ order: _, ...row }) => row),
    waitForDiscount: waitForDiscount.map(({ order: _, difference: __, ...row }) => row),
    projectedNetCapitalGain: realisedToDate.netCapitalGain,
    estimatedTax: taxAt(realisedToDate.netCapitalGain, marginalTaxRate),
    warnings,
  };
}
