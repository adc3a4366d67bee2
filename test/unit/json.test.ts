import { DecimalScalar, IncomeComponentsScalar } from "../../src/graphql/scalars";
import { NonFiniteNumberError, stringify } from "../../src/lib/json";
import { Decimal, decimalInput, positivePriceInput, positiveRateInput } from "../../src/lib/money";

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

  it("writes an array's holes as null, as JSON.stringify does (was `[1,,3]`, not JSON)", () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(stringify([1, , 3])).toBe("[1,null,3]");
    expect(stringify(new Array(2))).toBe("[null,null]");
  });

  it("matches JSON.stringify for everything else", () => {
    const value = {
      s: 'a"b\n',
      n: 1.5,
      t: true,
      f: false,
      z: null,
      d: new Date("2026-01-02T03:04:05.000Z"),
      a: [1, "x", null],
      o: { u: undefined, k: 1 },
    };
    expect(JSON.parse(stringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(stringify(value)).toBe(JSON.stringify(value));
  });
});

it("writes every string as JSON.stringify does, whatever it holds (plain ones are not escaped)", () => {
  // Each character JSON escapes, alone and inside text; surrogates paired and lone; characters it
  // leaves (U+2028, DEL, accents, emoji); then every code unit below 0x80 and every surrogate.
  const strings = [
    "",
    "plain text",
    'quote " inside',
    "back\\slash",
    "tab\tnew\nline\r",
    "\u0000\u0001\u001f",
    "emoji \ud83d\ude00 pair",
    "lone \ud83d high",
    "lone \ude00 low",
    "\u2028\u2029\u007f ünï",
    ...Array.from({ length: 0x80 }, (_, c) => `x${String.fromCharCode(c)}y`),
    ...Array.from({ length: 0x800 }, (_, i) => String.fromCharCode(0xd800 + i)),
  ];
  for (const s of strings) expect(stringify(s)).toBe(JSON.stringify(s));
  expect(stringify({ strings })).toBe(JSON.stringify({ strings }));
});

it("quotes keys as JSON.stringify does, the same key again and past the cache of quoted keys", () => {
  const awkward = { 'a"b': 1, "back\\slash": 2, "new\nline": 3, ünï: 4, "\u2028": 5, "": 6 };
  expect(stringify(awkward)).toBe(JSON.stringify(awkward));
  expect(stringify([awkward, awkward])).toBe(JSON.stringify([awkward, awkward]));
  // More distinct keys than the cache keeps (10,000): every one still written, in order.
  const many = Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}"`, i]));
  expect(stringify(many)).toBe(JSON.stringify(many));
  expect(stringify(many)).toBe(JSON.stringify(many));
});

describe("no non-finite number is ever written (issue 20, row 5)", () => {
  it.each([
    ["a Decimal Infinity", { legs: [{ quantity: new Decimal(1).div(0) }] }, "Infinity", "$.legs[0].quantity"],
    ["a Decimal NaN", { cashRemaining: new Decimal(0).div(0) }, "NaN", "$.cashRemaining"],
    ["a negative Decimal Infinity", [new Decimal(-1).div(0)], "-Infinity", "$[0]"],
    ["a JS NaN", { pct: { a: Number.NaN } }, "NaN", "$.pct.a"],
    ["a JS Infinity", [1, [2, Number.POSITIVE_INFINITY]], "Infinity", "$[1][1]"],
  ])("refuses %s, naming where it is (was written bare, or as null)", (_what, value, spelled, at) => {
    let thrown: unknown;
    try {
      stringify(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NonFiniteNumberError);
    expect(thrown).toMatchObject({ value: spelled, path: at });
  });

  it('the GraphQL Decimal scalar refuses them too (was the strings "Infinity" and "NaN")', () => {
    expect(() => DecimalScalar.serialize(new Decimal(1).div(0))).toThrow(NonFiniteNumberError);
    expect(() => DecimalScalar.serialize(Number.NaN)).toThrow(NonFiniteNumberError);
    expect(() => DecimalScalar.serialize("Infinity")).toThrow(NonFiniteNumberError);
    expect(() => IncomeComponentsScalar.serialize({ a: new Decimal(0).div(0) })).toThrow(NonFiniteNumberError);
    expect(DecimalScalar.serialize(new Decimal("0.00000001"))).toBe("0.00000001");
  });
});

describe("the GraphQL Decimal scalar writes text as Decimal#toFixed would", () => {
  // Text in toFixed's own form (a loader's database text, trim_scale) goes out as it is; any other
  // text is read as a Decimal first. Either way the answer is toFixed's.
  const texts = ["0", "10", "2.5", "-0.5", "-12.25", "100", "0.00000001", "12345678901234567.8901"];
  const others = ["0.10", "-0", "007", "1e3", "+5", "10.", ".5", "-00.5", "2.50"];

  it.each([...texts, ...others])("%p", (text) => {
    expect(DecimalScalar.serialize(text)).toBe(new Decimal(text).toFixed());
  });

  it("still refuses text that is no number", () => {
    expect(() => DecimalScalar.serialize("ten")).toThrow();
    expect(() => DecimalScalar.serialize("")).toThrow();
  });
});

describe("decimal inputs (API.md §1 money)", () => {
  it("prices and rates are above 0 and within their columns", () => {
    expect(positivePriceInput().safeParse(0).error?.issues[0].message).toBe("must be greater than 0");
    expect(positivePriceInput().safeParse("0.00000001").success).toBe(true);
    expect(positiveRateInput().safeParse("-1").error?.issues[0].message).toBe("must be greater than 0");
    expect(positiveRateInput().safeParse(1e10).error?.issues[0].message).toBe(
      "must be between 0 (excluded) and 1000000000",
    );
  });

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
