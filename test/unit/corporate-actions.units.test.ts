import { Decimal } from "../../src/lib/money";
import { corporateActionTrade, corporateActionType } from "../../src/modules/market-data/corporate-actions";

/**
 * The units a provider's ratio n:d gives a holding (docs/data.md §3): units after = held × n ÷ d,
 * rounded as the ledger rounds units (8 decimals, half-up); the trade's quantity is the units
 * gained (Split) or lost (Consolidation), as a Split or Consolidation trade's quantity means.
 */
const units = (held: string, n: number, d: number) => {
  const r = corporateActionTrade(new Decimal(held), n, d);
  return r && { tradeType: r.tradeType, quantity: r.quantity.toFixed(), unitsAfter: r.unitsAfter.toFixed() };
};

describe("the type of a ratio", () => {
  it.each([
    [2, 1, "Split"],
    [3, 2, "Split"],
    [1, 10, "Consolidation"],
    [2, 3, "Consolidation"],
    [1, 1, null],
    [0, 1, null],
    [1, 0, null],
    [-2, 1, null],
  ])("%i:%i → %s", (n, d, type) => expect(corporateActionType(n, d)).toBe(type));
});

describe("the units of a ratio", () => {
  it.each([
    // held, n, d → type, quantity, units after
    ["100", 2, 1, "Split", "100", "200"],
    ["100", 3, 2, "Split", "50", "150"],
    ["0.5", 3, 2, "Split", "0.25", "0.75"],
    ["1000", 1, 10, "Consolidation", "900", "100"],
    // A fraction is kept (a broker's cash in lieu is the user's to record).
    ["105", 1, 10, "Consolidation", "94.5", "10.5"],
    // 1 × 2 ÷ 3 = 0.666666666…: 0.66666667 after rounding half-up, so 0.33333333 are lost.
    ["1", 2, 3, "Consolidation", "0.33333333", "0.66666667"],
    // 1 ÷ 3 = 0.333333333…: 0.33333333 after, 0.66666667 lost; the two add up to the units held.
    ["1", 1, 3, "Consolidation", "0.66666667", "0.33333333"],
    // 12345.6789 × 7 = 86419.7523, ÷ 4 = 21604.938075 exactly.
    ["12345.6789", 7, 4, "Split", "9259.259175", "21604.938075"],
  ])("%s units, %i:%i → %s of %s, %s after", (held, n, d, tradeType, quantity, unitsAfter) =>
    expect(units(held, n, d)).toEqual({ tradeType, quantity, unitsAfter }),
  );

  it("no trade when nothing is held, for 1:1, or when the ratio would leave no units", () => {
    expect(units("0", 2, 1)).toBeNull();
    expect(units("-5", 2, 1)).toBeNull();
    expect(units("100", 1, 1)).toBeNull();
    // 0.00000001 ÷ 3 rounds to 0: a consolidation may not take every unit.
    expect(units("0.00000001", 1, 3)).toBeNull();
  });
});
