import fc from "fast-check";
import { Decimal } from "../../src/lib/money";
import { lossLedger, netCapitalGain, type CgtGain, type CgtSummary } from "../../src/modules/tax/cgt";
import { COMPANY, HALF, long, short, SMSF } from "./tax.helpers";

/**
 * Properties of the s100-50 summary (ITAA 1997 s100-50, docs/rules.md §4.3, docs/reports.md §5.1) over random
 * gains, losses, trust gains and carried losses, for each entity's discount rate: the net capital
 * gain is never negative; every loss is either applied or carried forward (never lost or made up);
 * 18V is what the losses exceed the gains by; 18H is the sum of its parts; a year with a net gain
 * carries no loss forward; the discount never exceeds the rate's share of the discount gains.
 * Amounts are whole ten-thousandths, as the ledger stores money (4 dp).
 */

const RATES = [HALF, SMSF, COMPANY];
const money = (min: number, max: number) => fc.integer({ min, max }).map((n) => new Decimal(n).div(10_000));

const gain = fc.record({ capitalGain: money(-100_000_000, 100_000_000), isDiscountable: fc.boolean() });
const trustGain = fc.record({
  discountedCapitalGains: money(0, 50_000_000),
  nonDiscountedCapitalGains: money(0, 50_000_000),
});
const input = fc.record({
  gains: fc.array(gain, { maxLength: 12 }),
  trustGains: fc.array(trustGain, { maxLength: 3 }),
  carriedForwardLossesAvailable: fc.oneof(fc.constant(new Decimal(0)), money(0, 200_000_000)),
  discountRate: fc.constantFrom(...RATES),
});

const ZERO = new Decimal(0);
const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), ZERO);

function check(
  i: {
    gains: CgtGain[];
    trustGains: { discountedCapitalGains: Decimal; nonDiscountedCapitalGains: Decimal }[];
    carriedForwardLossesAvailable: Decimal;
    discountRate: Decimal;
  },
  r: CgtSummary,
): void {
  const fmt = (d: Decimal) => d.toFixed();
  // Never negative, and every figure at most 4 dp.
  for (const [name, v] of Object.entries(r)) {
    expect([name, (v as Decimal).isNegative()]).toEqual([name, false]);
    expect([name, (v as Decimal).decimalPlaces() <= 4 || name === "carriedForwardLossesAvailable"]).toEqual([
      name,
      true,
    ]);
  }
  // The classes are what the gains say.
  expect(fmt(r.capitalLosses)).toBe(
    fmt(sum(i.gains.filter((g) => g.capitalGain.isNegative()).map((g) => g.capitalGain.neg()))),
  );
  expect(fmt(r.trustCapitalGains)).toBe(
    fmt(sum(i.trustGains.map((t) => t.discountedCapitalGains.times(2).plus(t.nonDiscountedCapitalGains)))),
  );
  // 18H = short + long + trust.
  expect(fmt(r.totalCapitalGains)).toBe(fmt(r.shortTermGains.plus(r.longTermGains).plus(r.trustCapitalGains)));
  // Losses: applied + carried applied + left over = current losses + carried available.
  const applied = r.lossesAppliedToShortTerm.plus(r.lossesAppliedToLongTerm).plus(r.carriedForwardLossesApplied);
  expect(fmt(applied.plus(r.netCapitalLossesCarriedForward))).toBe(
    fmt(r.capitalLosses.plus(r.carriedForwardLossesAvailable)),
  );
  // Current-year losses go first: carried losses are applied only once the current ones are used up.
  expect(r.lossesAppliedToShortTerm.plus(r.lossesAppliedToLongTerm).lte(r.capitalLosses)).toBe(true);
  if (r.carriedForwardLossesApplied.gt(0))
    expect(fmt(r.lossesAppliedToShortTerm.plus(r.lossesAppliedToLongTerm))).toBe(fmt(r.capitalLosses));
  // 18V = max(0, losses + carried − 18H).
  expect(fmt(r.netCapitalLossesCarriedForward)).toBe(
    fmt(Decimal.max(ZERO, r.capitalLosses.plus(r.carriedForwardLossesAvailable).minus(r.totalCapitalGains))),
  );
  // A net gain leaves no loss to carry.
  if (r.netCapitalGain.gt(0)) expect(fmt(r.netCapitalLossesCarriedForward)).toBe("0");
  // 18A = what remains after all losses, less the discount.
  expect(fmt(r.netCapitalGain)).toBe(fmt(r.totalCapitalGains.minus(applied).minus(r.discount)));
  // The discount is at most the rate's share (rounded) of the discount-class gains; none for a company.
  const discountClass = r.longTermGains.plus(
    i.discountRate.isZero() ? ZERO : sum(i.trustGains.map((t) => t.discountedCapitalGains.times(2))),
  );
  expect(r.discount.lte(discountClass.times(i.discountRate).toDecimalPlaces(4, Decimal.ROUND_HALF_UP))).toBe(true);
  if (i.discountRate.isZero()) expect(fmt(r.discount)).toBe("0");
  // Non-discount gains absorb losses first: a loss reaches the discount class only when the non-discount class is used up.
  if (r.lossesAppliedToLongTerm.gt(0)) {
    const nonDiscountClass = r.totalCapitalGains.minus(discountClass);
    expect(fmt(r.lossesAppliedToShortTerm)).toBe(fmt(nonDiscountClass));
  }
}

it("holds for random years and every discount rate", () => {
  fc.assert(
    fc.property(input, (i) => {
      check(i, netCapitalGain(i));
    }),
    { numRuns: 500 },
  );
});

it("holds without the random generator's bias: only losses, only gains, losses equal to gains", () => {
  for (const discountRate of RATES) {
    for (const gains of [
      [short("-10"), short("-0.0001")],
      [long("5"), short("0.0001")],
      [long("100"), short("-100")],
      [],
    ]) {
      for (const carried of ["0", "0.0001", "1000"]) {
        const i = { gains, trustGains: [], carriedForwardLossesAvailable: new Decimal(carried), discountRate };
        check(i, netCapitalGain(i));
      }
    }
  }
});

it("the loss ledger chains: each year's brought-forward is the year before's 18V, and losses are conserved", () => {
  const years = fc.array(fc.array(gain, { maxLength: 5 }), { minLength: 1, maxLength: 6 });
  const entries = fc.array(fc.option(money(0, 50_000_000), { nil: undefined }), { minLength: 6, maxLength: 6 });
  fc.assert(
    fc.property(years, entries, fc.constantFrom(...RATES), (ys, es, rate) => {
      const first = 2020;
      const last = first + ys.length - 1;
      const map = new Map(ys.map((gains, k) => [first + k, { gains, trustGains: [] }]));
      const entered = new Map<number, Decimal>();
      es.forEach((e, k) => e !== undefined && entered.set(first + k, e));
      const rows = lossLedger(map, entered, rate, last);
      expect(rows.map((r) => r.financialYear)).toEqual(ys.map((_, k) => first + k));
      rows.forEach((row, k) => {
        const before = k === 0 ? new Decimal(0) : rows[k - 1].summary.netCapitalLossesCarriedForward;
        expect(row.broughtForward.toFixed()).toBe(before.toFixed());
        expect(row.summary.carriedForwardLossesAvailable.toFixed()).toBe(
          row.broughtForward.plus(row.entered).toFixed(),
        );
        expect(row.entered.toFixed()).toBe((entered.get(row.financialYear) ?? new Decimal(0)).toFixed());
      });
      // Over all years: every loss and entry is either applied or still carried at the end.
      const lossesIn = sum(rows.map((r) => r.summary.capitalLosses.plus(r.entered)));
      const used = sum(
        rows.map((r) =>
          r.summary.lossesAppliedToShortTerm
            .plus(r.summary.lossesAppliedToLongTerm)
            .plus(r.summary.carriedForwardLossesApplied),
        ),
      );
      expect(used.plus(rows[rows.length - 1].summary.netCapitalLossesCarriedForward).toFixed()).toBe(
        lossesIn.toFixed(),
      );
    }),
    { numRuns: 200 },
  );
});
