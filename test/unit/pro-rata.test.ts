import { Decimal } from "../../src/lib/money";
import { frankingCredit, spreadProRata } from "../../src/modules/income/pro-rata";

/**
 * The pure income calculators (docs/rules.md §6.1 franking credits, §6.6 pro-rata distributions):
 * frankingCredit(D, t) = D × t / (1 − t) to 4 decimals, and spreadProRata, which spreads a year's
 * statement totals over the year's distributions in proportion to their gross amounts, the last
 * one taking the rounding remainder so the parts add up exactly to each total.
 */

const d = (v: number | string) => new Decimal(v);
/** The spread as plain strings, in the order of the map (the distributions' order). */
const plain = (m: Map<number, Record<string, Decimal>>) =>
  [...m].map(([id, parts]) => [id, Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v.toFixed()]))]);
const dist = (...gross: (number | string)[]) => gross.map((g, i) => ({ id: i + 1, grossAmount: d(g) }));

/** Σ parts of one component over every distribution. */
function partsSum(m: Map<number, Record<string, Decimal>>, key: string): Decimal {
  let total = new Decimal(0);
  for (const parts of m.values()) total = total.plus(parts[key]);
  return total;
}

describe("frankingCredit: D × t / (1 − t) (DOMAIN.md §1)", () => {
  it("700 franked at the 30% company rate carries a 300 credit (gross income 1,000)", () => {
    const credit = frankingCredit(d(700), d("0.3"));
    expect(credit.toFixed()).toBe("300");
    expect(d(700).plus(credit).toFixed()).toBe("1000");
  });

  it("at the 25% base-rate entity rate: 750 franked carries 250, 123.45 carries 41.15", () => {
    expect(frankingCredit(d(750), d("0.25")).toFixed()).toBe("250");
    expect(frankingCredit(d("123.45"), d("0.25")).toFixed()).toBe("41.15");
  });

  it("rounds to 4 decimals, half up: 100 → 42.8571, 1,000 → 428.5714, 0.35 → 0.15", () => {
    expect(frankingCredit(d(100), d("0.3")).toFixed()).toBe("42.8571"); // 42.857142...
    expect(frankingCredit(d(1000), d("0.3")).toFixed()).toBe("428.5714"); // 428.571428...
    expect(frankingCredit(d("0.35"), d("0.3")).toFixed()).toBe("0.15");
    expect(frankingCredit(d("0.00035"), d("0.3")).toFixed()).toBe("0.0002"); // 0.00015 → half up
  });

  it("is zero for nothing franked, and at a zero company rate", () => {
    expect(frankingCredit(d(0), d("0.3")).isZero()).toBe(true);
    expect(frankingCredit(d(700), d(0)).isZero()).toBe(true);
  });
});

describe("spreadProRata: the year's totals over its distributions by gross amount (DOMAIN.md §2)", () => {
  it("three distributions of 100, 250 and 350: each total split by weight, the last takes the remainder", () => {
    const spread = spreadProRata(dist(100, 250, 350), {
      discountedCapitalGains: d(100),
      otherIncome: d("33.3333"),
      netExemptIncome: d(10),
    });
    expect(plain(spread)).toEqual([
      // 100 × 100/700 = 14.285714… ; 33.3333 × 100/700 = 4.761900 ; 10 × 100/700 = 1.428571…
      [1, { discountedCapitalGains: "14.2857", otherIncome: "4.7619", netExemptIncome: "1.4286" }],
      // 100 × 250/700 = 35.714285… ; 33.3333 × 250/700 = 11.904750 (half up) ; 10 × 250/700 = 3.571428…
      [2, { discountedCapitalGains: "35.7143", otherIncome: "11.9048", netExemptIncome: "3.5714" }],
      // the remainders: 100 − 50, 33.3333 − 16.6667, 10 − 5
      [3, { discountedCapitalGains: "50", otherIncome: "16.6666", netExemptIncome: "5" }],
    ]);
    for (const key of ["discountedCapitalGains", "otherIncome", "netExemptIncome"]) {
      expect(partsSum(spread, key).toFixed()).toBe(
        { discountedCapitalGains: "100", otherIncome: "33.3333", netExemptIncome: "10" }[key],
      );
    }
  });

  it("parts add up exactly for totals that never divide evenly, and only the last part differs from the rounded share", () => {
    const distributions = dist("1234.5678", "0.0003", "987.6543", "55.5555", "3.1416");
    const weight = distributions.reduce((s, x) => s.plus(x.grossAmount), new Decimal(0));
    const totals = { a: d("0.0001"), b: d("1"), c: d("99999.9999"), d: d("12345.6789"), e: d("-7.7777"), f: d(0) };
    const spread = spreadProRata(distributions, totals);
    for (const [key, total] of Object.entries(totals)) {
      expect(partsSum(spread, key).toFixed()).toBe(total.toFixed());
      distributions.forEach((x, i) => {
        const part = spread.get(x.id)![key];
        expect(part.decimalPlaces()).toBeLessThanOrEqual(4);
        if (i < distributions.length - 1) {
          expect(part.toFixed()).toBe(
            total.times(x.grossAmount).div(weight).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(),
          );
        }
      });
    }
  });

  it("equal weights: 100 over three gives 33.3333, 33.3333 and 33.3334 (the last one, not the largest)", () => {
    expect(plain(spreadProRata(dist(5, 5, 5), { x: d(100) }))).toEqual([
      [1, { x: "33.3333" }],
      [2, { x: "33.3333" }],
      [3, { x: "33.3334" }],
    ]);
    // The remainder follows the order given, whatever the sizes.
    expect(
      plain(
        spreadProRata(
          [
            { id: 9, grossAmount: d(1) },
            { id: 4, grossAmount: d(1) },
            { id: 7, grossAmount: d(1) },
          ],
          { x: d(200) },
        ),
      ),
    ).toEqual([
      [9, { x: "66.6667" }],
      [4, { x: "66.6667" }],
      [7, { x: "66.6666" }],
    ]);
  });

  it("one distribution takes every total whole", () => {
    expect(plain(spreadProRata(dist(42), { a: d("123.4567"), b: d(-5) }))).toEqual([[1, { a: "123.4567", b: "-5" }]]);
  });

  it("a distribution with no gross amount gets nothing, and the others still add up exactly", () => {
    expect(plain(spreadProRata(dist(100, 0, 200), { x: d(100), y: d("33.3333") }))).toEqual([
      [1, { x: "33.3333", y: "11.1111" }],
      [2, { x: "0", y: "0" }],
      [3, { x: "66.6667", y: "22.2222" }],
    ]);
  });

  it("a zero-gross distribution last in the year gets nothing: the remainder goes to the last one with a gross amount", () => {
    // Three equal distributions and a zero-gross one after them: 100 / 3 leaves 0.0001 to place.
    // It belongs to a distribution that takes part in the spread; a distribution of nothing has
    // no share of the statement (docs/rules.md §6.6: in proportion to each one's gross amount).
    const spread = spreadProRata(dist(1, 1, 1, 0), { x: d(100) });
    expect(partsSum(spread, "x").toFixed()).toBe("100");
    expect(spread.get(4)!.x.toFixed()).toBe("0");
    expect(plain(spread)).toEqual([
      [1, { x: "33.3333" }],
      [2, { x: "33.3333" }],
      [3, { x: "33.3334" }],
      [4, { x: "0" }],
    ]);
  });

  it("no totals: every distribution is listed with no parts", () => {
    expect(plain(spreadProRata(dist(1, 2), {}))).toEqual([
      [1, {}],
      [2, {}],
    ]);
  });

  it("throws when there is nothing to spread over: no distribution, or none with a gross amount", () => {
    expect(() => spreadProRata([], { x: d(100) })).toThrow(/no distribution/);
    expect(() => spreadProRata(dist(0, 0), { x: d(100) })).toThrow(/no distribution/);
    expect(() => spreadProRata(dist(0), {})).toThrow(/no distribution/);
  });
});
