import { jsonLoss, jsonLossInSlices, TOKENS } from "../../src/http/lossless-json";

/**
 * What JSON.parse would quietly lose (src/http/lossless-json.ts), found in the text before it is
 * parsed:
 * - a number a float cannot hold: JSON.parse would round it, so the body is refused naming the
 *   first. A float keeps every number of 15 significant digits or fewer; longer ones are compared
 *   with the float's own shortest digits.
 * - a name given twice in one object: JSON.parse keeps the last and drops the first, so the body
 *   is refused naming the field and the JSON path of its object. Names are compared as JSON reads
 *   them (escapes read), and only within one object.
 */
describe("a number a float cannot hold", () => {
  it("names a number a float rounds: too many digits, or out of a float's range", () => {
    // 14 + 8 digits: the float is 100000000000000.
    expect(jsonLoss('{"quantity":99999999999999.99999999,"price":1}')).toEqual({ number: "99999999999999.99999999" });
    // The float is 1.
    expect(jsonLoss("[1.0000000000000000000001]")).toEqual({ number: "1.0000000000000000000001" });
    // 12 + 8 digits: the float's shortest digits are 123456789012.12346.
    expect(jsonLoss('{"a":1,"price":123456789012.12345678}')).toEqual({ number: "123456789012.12345678" });
    // 17 digits past 2^53: the float is 12345678901234568.
    expect(jsonLoss("[12345678901234567]")).toEqual({ number: "12345678901234567" });
    expect(jsonLoss("[-1e400]")).toEqual({ number: "-1e400" });
    expect(jsonLoss("[1e-400]")).toEqual({ number: "1e-400" });
  });

  it("passes numbers a float keeps, and digits inside strings however long", () => {
    expect(jsonLoss("[0.1, 152.39, -7, 1e-7, 123456789012345, 1234567.12345678]")).toBeUndefined();
    // 16 digits below 2^53, and a float's own shortest digits: both come back as sent.
    expect(jsonLoss("[1234567890123456, 0.30000000000000004]")).toBeUndefined();
    // A broker reference of twenty digits, with an escaped quote before it.
    expect(jsonLoss('{"reference":"12345678901234567890","notes":"a \\"12345678901234567890\\" b"}')).toBeUndefined();
    expect(jsonLoss('{"tradeDate":"2024-01-02","quantity":"99999999999999.99999999"}')).toBeUndefined();
  });

  it("reads a large text in slices to the same answer", async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `{"quantity":${i + 1},"price":"1.5"}`);
    expect(await jsonLossInSlices(`[${rows.join(",")}]`)).toBeUndefined();
    rows[49_999] = '{"quantity":1.00000000000000000001}';
    expect(await jsonLossInSlices(`[${rows.join(",")}]`)).toEqual({ number: "1.00000000000000000001" });
  });
});

describe("a name given twice in one object", () => {
  it("is found at the top level, inside arrays and inside nested objects, with the object's path", () => {
    expect(jsonLoss('{"price":1,"quantity":2,"price":100}')).toEqual({ name: "price", path: "$" });
    expect(jsonLoss('[{"a":1},{"a":1},{"b":1,"c":2,"b":3}]')).toEqual({ name: "b", path: "$[2]" });
    expect(jsonLoss('{"input":{"parcels":[{"tradeId":1},{"tradeId":2,"units":1,"units":2}]}}')).toEqual({
      name: "units",
      path: "$.input.parcels[1]",
    });
    // Escapes are read: "a\u0062" is "ab".
    expect(jsonLoss('{"ab":1,"a\\u0062":2}')).toEqual({ name: "ab", path: "$" });
    // Whitespace around the colon, and a value that is an object of its own.
    expect(jsonLoss('{ "x" : {"y":1} , "x" : 2 }')).toEqual({ name: "x", path: "$" });
  });

  it("writes a name that is not an identifier in brackets, so the path reads as one step", () => {
    // Each outer name holds a dot, a space, nothing, or a quote: `$.a.b` would read as two steps.
    expect(jsonLoss('{"a.b":{"x":1,"x":2}}')).toEqual({ name: "x", path: '$["a.b"]' });
    expect(jsonLoss('{"my field":[{"x":1,"x":2}]}')).toEqual({ name: "x", path: '$["my field"][0]' });
    expect(jsonLoss('{"":{"x":1,"x":2}}')).toEqual({ name: "x", path: '$[""]' });
    expect(jsonLoss('{"say \\"hi\\"":{"x":1,"x":2}}')).toEqual({ name: "x", path: '$["say \\"hi\\""]' });
    expect(jsonLoss('{"input_2":{"$ref":{"x":1,"x":2}}}')).toEqual({ name: "x", path: "$.input_2.$ref" });
  });

  it("is no loss when the names are in different objects, differ in case, or are text inside strings", () => {
    expect(jsonLoss('[{"a":1},{"a":2}]')).toBeUndefined();
    expect(jsonLoss('{"a":{"a":{"a":1}}}')).toBeUndefined();
    expect(jsonLoss('{"price":1,"Price":2}')).toBeUndefined();
    // A note holding what looks like JSON is a string: its braces and names are not the body's.
    expect(jsonLoss('{"notes":"{\\"a\\":1,\\"a\\":2}","a":1}')).toBeUndefined();
    expect(jsonLoss('{"notes":"price: 1, price: 2","price":"1"}')).toBeUndefined();
  });

  it("is reported in text order with the rounded numbers: whichever comes first", () => {
    expect(jsonLoss('{"a":1,"a":99999999999999.99999999}')).toEqual({ name: "a", path: "$" });
    expect(jsonLoss('{"a":99999999999999.99999999,"a":1}')).toEqual({ number: "99999999999999.99999999" });
  });

  it("reads a large text in slices to the same answer", async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `{"quantity":${i + 1},"price":"1.5"}`);
    expect(await jsonLossInSlices(`[${rows.join(",")}]`)).toBeUndefined();
    rows[40_000] = '{"quantity":1,"price":"1.5","quantity":2}';
    expect(await jsonLossInSlices(`[${rows.join(",")}]`)).toEqual({ name: "quantity", path: "$[40000]" });
  });

  it("names deeper than the depth whose names are remembered are not compared; shallower ones are", () => {
    const nested = (depth: number) => '{"a":'.repeat(depth) + '{"x":1,"x":2}' + "}".repeat(depth);
    expect(jsonLoss(nested(10))).toEqual({ name: "x", path: "$" + ".a".repeat(10) });
    // Bodies nest 32 levels at most (refused once parsed): past 64 the scan keeps no names.
    expect(jsonLoss(nested(100))).toBeUndefined();
  });

  // A string that never closes is one token to the end of the text. Matched only up to a closing
  // quote, it was tried again from every quote inside it: 100,000 escaped quotes took 22 s.
  it("reads a string that never closes as one token to the end, and leaves the refusal to the parser", () => {
    const unclosed = '"q' + '\\"'.repeat(1000);
    expect(new RegExp(TOKENS).exec(unclosed)?.[0]).toBe(unclosed);
    expect(jsonLoss('{"q":' + unclosed)).toBeUndefined();
    expect(jsonLoss('{"a":1,"b":"never closed')).toBeUndefined();
  });
});
