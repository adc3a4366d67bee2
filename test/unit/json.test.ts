import { stringify } from "../../src/lib/json";
import { Decimal, decimalInput } from "../../src/lib/money";

describe("stringify writes decimals exactly (API.md §1 money)", () => {
  it("writes a Decimal as a bare JSON number from its own digits", () => {
    expect(stringify({ amount: new Decimal("152.39") })).toBe('{"amount":152.39}');
    expect(stringify([new Decimal("12345678901234567.8901")])).toBe("[12345678901234567.8901]");
  });

  it("never goes through a float: 0.1 + 0.2 is 0.3", () => {
    expect(stringify(new Decimal("0.1").plus("0.2"))).toBe("0.3");
  });

  it("never uses exponent notation", () => {
    expect(stringify(new Decimal("0.00000001"))).toBe("0.00000001");
    expect(stringify(new Decimal("1e21"))).toBe("1000000000000000000000");
  });

  it("matches JSON.stringify for everything else", () => {
    const value = { s: 'a"b\n', n: 1.5, t: true, f: false, z: null, d: new Date("2026-01-02T03:04:05.000Z"), a: [1, "x", null], o: { u: undefined, k: 1 } };
    expect(JSON.parse(stringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(stringify(value)).toBe(JSON.stringify(value));
  });
});

describe("decimal inputs (API.md §1 money)", () => {
  const price = decimalInput({ scale: 8, min: 0, max: 1e15 });
  it("accepts a JSON number whose float form uses an exponent", () => {
    expect(price.parse(1e-7).toFixed()).toBe("0.0000001");
    expect(price.parse(0.00000001).toFixed()).toBe("0.00000001");
  });
  it("still refuses exponent strings, NaN and too many decimals", () => {
    expect(price.safeParse("1e-7").success).toBe(false);
    expect(price.safeParse(Number.NaN).success).toBe(false);
    expect(price.safeParse(1e-9).success).toBe(false);
  });
});
