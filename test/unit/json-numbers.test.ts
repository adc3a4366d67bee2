import { inexactNumber, jsonLossInSlices } from "../../src/http/lossless-json";

/**
 * JSON numbers a float cannot hold (src/http/lossless-json.ts): JSON.parse would round them, so
 * the body is refused naming the first. A float keeps every number of 15 significant digits or
 * fewer; longer ones are compared with the float's own shortest digits.
 */
describe("inexactNumber", () => {
  it("names a number a float rounds: too many digits, or out of a float's range", () => {
    // 14 + 8 digits: the float is 100000000000000.
    expect(inexactNumber('{"quantity":99999999999999.99999999,"price":1}')).toBe("99999999999999.99999999");
    // The float is 1.
    expect(inexactNumber("[1.0000000000000000000001]")).toBe("1.0000000000000000000001");
    // 12 + 8 digits: the float's shortest digits are 123456789012.12346.
    expect(inexactNumber('{"a":1,"price":123456789012.12345678}')).toBe("123456789012.12345678");
    // 17 digits past 2^53: the float is 12345678901234568.
    expect(inexactNumber("[12345678901234567]")).toBe("12345678901234567");
    expect(inexactNumber("[-1e400]")).toBe("-1e400");
    expect(inexactNumber("[1e-400]")).toBe("1e-400");
  });

  it("passes numbers a float keeps, and digits inside strings however long", () => {
    expect(inexactNumber("[0.1, 152.39, -7, 1e-7, 123456789012345, 1234567.12345678]")).toBeUndefined();
    // 16 digits below 2^53, and a float's own shortest digits: both come back as sent.
    expect(inexactNumber("[1234567890123456, 0.30000000000000004]")).toBeUndefined();
    // A broker reference of twenty digits, with an escaped quote before it.
    expect(
      inexactNumber('{"reference":"12345678901234567890","notes":"a \\"12345678901234567890\\" b"}'),
    ).toBeUndefined();
    expect(inexactNumber('{"tradeDate":"2024-01-02","quantity":"99999999999999.99999999"}')).toBeUndefined();
  });

  it("reads a large text in slices to the same answer", async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `{"quantity":${i + 1},"price":"1.5"}`);
    expect(await jsonLossInSlices(`[${rows.join(",")}]`)).toBeUndefined();
    rows[49_999] = '{"quantity":1.00000000000000000001}';
    expect(await jsonLossInSlices(`[${rows.join(",")}]`)).toEqual({ number: "1.00000000000000000001" });
  });
});
