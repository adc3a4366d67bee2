import { Decimal } from "../../src/lib/money";
import { discountRateOf, foldParcels } from "../../src/modules/ledger";
import { netCapitalGain, type CgtGain } from "../../src/modules/tax/cgt";
import { d, s, t } from "./parcels.helpers";
import { gainsOf, long, short, SMSF } from "./tax.helpers";

/**
 * Story: a complying super fund (SMSF) gets a one-third CGT discount.
 *
 * Sources: ITAA 1997 s115-100(b) (discount percentage 33⅓ % for a complying superannuation
 * entity), docs/rules.md §4.1 (Individual 50 %, Trust 50 %, SMSF 33⅓ %, Company 0 %), s100-50 steps;
 * money at 4 decimals, half-up (ledger/rounding.ts, docs/rules.md §1): the discount is rounded to
 * 4 dp and the net capital gain is the remaining gain minus that rounded discount, exactly.
 */

const summary = (gains: CgtGain[], carried: Decimal.Value = 0) =>
  netCapitalGain({ gains, trustGains: [], carriedForwardLossesAvailable: d(carried as string), discountRate: SMSF });

test("the SMSF rate is one third (and individuals/trusts a half, companies none)", () => {
  expect(SMSF.toDecimalPlaces(10).toFixed()).toBe("0.3333333333");
  expect(SMSF.minus(d(1).div(3)).abs().lt("1e-30")).toBe(true);
  expect([discountRateOf("Individual"), discountRateOf("Trust"), discountRateOf("Company")].map(s)).toEqual([
    "0.5",
    "0.5",
    "0",
  ]);
});

test("$1,000 discount gain: discount 333.3333 (⅓ rounded to 4 dp), 18A 666.6667 = 1,000 − 333.3333", () => {
  const r = summary([long(1000)]);
  expect([s(r.discount), s(r.netCapitalGain), s(r.totalCapitalGains)]).toEqual(["333.3333", "666.6667", "1000"]);
  expect(r.netCapitalGain.plus(r.discount).eq(1000)).toBe(true);
});

test("half-up on the 4th decimal: 100.01 → ⅓ = 33.336666… → 33.3367, 18A 66.6733", () => {
  const r = summary([long("100.01")]);
  expect([s(r.discount), s(r.netCapitalGain)]).toEqual(["33.3367", "66.6733"]);
});

test("the smallest amount: 0.0002 → ⅓ = 0.0000666… → 0.0001, 18A 0.0001", () => {
  const r = summary([long("0.0002")]);
  expect([s(r.discount), s(r.netCapitalGain)]).toEqual(["0.0001", "0.0001"]);
});

test("with losses: the discount is one third of what remains of the discount gains only", () => {
  // Non-discount 200, discount 1,000, current losses 500:
  //   step 1: 200 off the non-discount gain, the other 300 off the discount gain → 700 left;
  //   step 3: discount 700 / 3 = 233.3333…; 18A = 0 + 700 − 233.3333 = 466.6667.
  const r = summary([short(200), long(1000), short(-500)]);
  expect([
    s(r.lossesAppliedToShortTerm),
    s(r.lossesAppliedToLongTerm),
    s(r.discount),
    s(r.netCapitalGain),
    s(r.totalCapitalGains),
  ]).toEqual(["200", "300", "233.3333", "466.6667", "1200"]);
});

test("with a carried-forward loss of 100: 900 remain, discount 300 exactly, 18A 600", () => {
  const r = summary([long(1000)], 100);
  expect([
    s(r.carriedForwardLossesApplied),
    s(r.discount),
    s(r.netCapitalGain),
    s(r.netCapitalLossesCarriedForward),
  ]).toEqual(["100", "300", "600", "0"]);
});

test("through the fold: buy 1,000 @ $1 + $19.95, sell 1,000 @ $2.02 − $19.94 two years later", () => {
  // Cost base 1,000 + 19.95 = 1,019.95; proceeds 2,020 − 19.94 = 2,000.06; gain 980.11 (held > 12 months).
  const r = foldParcels([
    t(1, "Buy", "2022-07-01", 1000, 1, { brokerage: "19.95" }),
    t(2, "Sell", "2024-07-15", 1000, "2.02", { brokerage: "19.94" }),
  ]);
  const gains = gainsOf(r.disposals, SMSF);
  expect(gains.map((g) => [s(g.capitalGain), g.isDiscountable])).toEqual([["980.11", true]]);
  // SMSF: 980.11 / 3 = 326.703333… → 326.7033; 18A 980.11 − 326.7033 = 653.4067.
  const smsf = summary(gains);
  expect([s(smsf.discount), s(smsf.netCapitalGain)]).toEqual(["326.7033", "653.4067"]);
  // The same sale for an individual: 980.11 / 2 = 490.055 (exact at 4 dp); 18A 490.055.
  const individual = netCapitalGain({
    gains,
    trustGains: [],
    carriedForwardLossesAvailable: d(0),
    discountRate: discountRateOf("Individual"),
  });
  expect([s(individual.discount), s(individual.netCapitalGain)]).toEqual(["490.055", "490.055"]);
});

test("a trust's discounted capital gain distributed to an SMSF: grossed up ×2, then the fund's ⅓", () => {
  // s115-215: the statement's 150 discounted gain is grossed up to 300 (18H 300); the SMSF applies
  // its own discount: 300 / 3 = 100 → 18A 200.
  const r = netCapitalGain({
    gains: [],
    trustGains: [{ discountedCapitalGains: d(150), nonDiscountedCapitalGains: d(0) }],
    carriedForwardLossesAvailable: d(0),
    discountRate: SMSF,
  });
  expect([s(r.trustCapitalGains), s(r.totalCapitalGains), s(r.discount), s(r.netCapitalGain)]).toEqual([
    "300",
    "300",
    "100",
    "200",
  ]);
});
