import { Decimal, ZERO } from "../../lib/money";
import { roundMoney } from "../ledger";

/**
 * The net capital gain of one income year (ITAA 1997 s100-50, docs/rules.md §4.3), pure: the year's
 * CGT events and the losses carried in, to every summary figure of docs/reports.md §5.1.
 *
 *   1. current-year capital losses come off the gains, non-discount gains first;
 *   2. net capital losses carried forward come off what remains, non-discount gains first;
 *   3. the discount applies to what remains of the discount gains only;
 *   4. the sum is the net capital gain (18A); losses left over carry forward (18V).
 *
 * Amounts in the base currency (AUD), 4 decimals; summary figures are positive amounts.
 */
export interface CgtGain {
  /** proceeds − cost base: negative is a capital loss. */
  capitalGain: Decimal;
  /** Eligible for the discount (12 months held, and the entity has one). */
  isDiscountable: boolean;
}

/** A trust's capital gain distributed to the owner, as its statement gives it. */
export interface TrustCapitalGain {
  /** The statement's discounted capital gains: the trust already halved them. */
  discountedCapitalGains: Decimal;
  nonDiscountedCapitalGains: Decimal;
}

export interface CgtInput {
  gains: readonly CgtGain[];
  trustGains: readonly TrustCapitalGain[];
  /** Unused net capital losses of earlier years (the loss ledger) available this year. */
  carriedForwardLossesAvailable: Decimal;
  /** The owner's discount rate: 0.5 individuals and trusts, ⅓ SMSFs, 0 companies. */
  discountRate: Decimal;
}

export interface CgtSummary {
  shortTermGains: Decimal;
  longTermGains: Decimal;
  trustCapitalGains: Decimal;
  capitalLosses: Decimal;
  lossesAppliedToShortTerm: Decimal;
  lossesAppliedToLongTerm: Decimal;
  carriedForwardLossesAvailable: Decimal;
  carriedForwardLossesApplied: Decimal;
  discount: Decimal;
  /** 18H: the year's capital gains before losses and the discount, trust gains grossed up. */
  totalCapitalGains: Decimal;
  /** 18A */
  netCapitalGain: Decimal;
  /** 18V */
  netCapitalLossesCarriedForward: Decimal;
}

/**
 * A trust's discounted capital gain grossed up for 18H and the s100-50 steps: the trust applied
 * the 50 % discount (s115-215), so the beneficiary doubles it, then applies its own discount.
 */
export const TRUST_GROSS_UP = new Decimal(2);

/** Positive gains split by discount eligibility, and losses as a positive amount. */
export function gainSplit(gains: readonly CgtGain[]): {
  shortTermGain: Decimal;
  longTermGain: Decimal;
  capitalLoss: Decimal;
} {
  let shortTermGain = ZERO;
  let longTermGain = ZERO;
  let capitalLoss = ZERO;
  for (const g of gains) {
    if (g.capitalGain.isNegative()) capitalLoss = capitalLoss.minus(g.capitalGain);
    else if (g.isDiscountable) longTermGain = longTermGain.plus(g.capitalGain);
    else shortTermGain = shortTermGain.plus(g.capitalGain);
  }
  return { shortTermGain, longTermGain, capitalLoss };
}

export function netCapitalGain(input: CgtInput): CgtSummary {
  const { shortTermGain: shortTerm, longTermGain: longTerm, capitalLoss: losses } = gainSplit(input.gains);
  let trustDiscount = ZERO;
  let trustOther = ZERO;
  for (const t of input.trustGains) {
    trustDiscount = trustDiscount.plus(roundMoney(t.discountedCapitalGains.times(TRUST_GROSS_UP)));
    trustOther = trustOther.plus(t.nonDiscountedCapitalGains);
  }
  // Trust gains join their class: grossed-up discounted gains are discount gains (for a company
  // too, which then gets no discount on them); non-discounted ones are not.
  const discountable = longTerm.plus(input.discountRate.isZero() ? ZERO : trustDiscount);
  const other = shortTerm.plus(trustOther).plus(input.discountRate.isZero() ? trustDiscount : ZERO);

  const [lossesToOther, lossesToDiscountable, lossesLeft] = applyLosses(losses, other, discountable);
  const afterLossesOther = other.minus(lossesToOther);
  const afterLossesDiscountable = discountable.minus(lossesToDiscountable);
  const [carriedToOther, carriedToDiscountable, carriedLeft] = applyLosses(
    input.carriedForwardLossesAvailable,
    afterLossesOther,
    afterLossesDiscountable,
  );
  const remainingDiscountable = afterLossesDiscountable.minus(carriedToDiscountable);
  const discount = roundMoney(remainingDiscountable.times(input.discountRate));
  const trustCapitalGains = trustDiscount.plus(trustOther);

  return {
    shortTermGains: shortTerm,
    longTermGains: longTerm,
    trustCapitalGains,
    capitalLosses: losses,
    lossesAppliedToShortTerm: lossesToOther,
    lossesAppliedToLongTerm: lossesToDiscountable,
    carriedForwardLossesAvailable: input.carriedForwardLossesAvailable,
    carriedForwardLossesApplied: carriedToOther.plus(carriedToDiscountable),
    discount,
    totalCapitalGains: shortTerm.plus(longTerm).plus(trustCapitalGains),
    netCapitalGain: afterLossesOther.minus(carriedToOther).plus(remainingDiscountable).minus(discount),
    netCapitalLossesCarriedForward: lossesLeft.plus(carriedLeft),
  };
}

/** Losses against non-discount gains first, then discount gains: [to other, to discountable, left]. */
function applyLosses(losses: Decimal, other: Decimal, discountable: Decimal): [Decimal, Decimal, Decimal] {
  const toOther = Decimal.min(losses, other);
  const toDiscountable = Decimal.min(losses.minus(toOther), discountable);
  return [toOther, toDiscountable, losses.minus(toOther).minus(toDiscountable)];
}

/** One income year of the loss ledger: what came in, and what the year left unused. */
export interface LossLedgerYear {
  financialYear: number;
  /** Unused net capital losses carried in from the year before. */
  broughtForward: Decimal;
  /** Losses the records cannot know, entered in the tax settings for this year. */
  entered: Decimal;
  summary: CgtSummary;
}

/**
 * The capital-loss ledger (docs/rules.md §5): each year's unused net capital loss carries into the
 * next by itself; the tax settings' entries add to the year they name. Years run from the first
 * with a CGT event or an entry to `lastYear`, so editing a trade of 2021 changes 18V of every
 * later year. Linear in the number of events.
 */
export function lossLedger(
  years: ReadonlyMap<number, { gains: readonly CgtGain[]; trustGains: readonly TrustCapitalGain[] }>,
  entered: ReadonlyMap<number, Decimal>,
  discountRate: Decimal,
  lastYear: number,
): LossLedgerYear[] {
  const known = [...years.keys(), ...entered.keys()].filter((y) => y <= lastYear);
  const firstYear = known.length > 0 ? Math.min(...known) : lastYear;
  const out: LossLedgerYear[] = [];
  let broughtForward = ZERO;
  for (let fy = firstYear; fy <= lastYear; fy++) {
    const year = years.get(fy);
    const added = entered.get(fy) ?? ZERO;
    const summary = netCapitalGain({
      gains: year?.gains ?? [],
      trustGains: year?.trustGains ?? [],
      carriedForwardLossesAvailable: broughtForward.plus(added),
      discountRate,
    });
    out.push({ financialYear: fy, broughtForward, entered: added, summary });
    broughtForward = summary.netCapitalLossesCarriedForward;
  }
  return out;
}
