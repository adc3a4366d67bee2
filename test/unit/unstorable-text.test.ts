import { z } from "zod";
import { DomainError } from "../../src/lib/domain-errors";
import { Decimal } from "../../src/lib/money";
import { isStorableText, parseInput, text, unstorableText } from "../../src/lib/validation";

/** The central NUL and lone-surrogate guard that REST's endpoint wrapper and parseInput share. */
describe("unstorable text", () => {
  it("refuses NUL and unpaired surrogates, and keeps a proper surrogate pair (an emoji)", () => {
    expect(["a\u0000b", "\ud800", "x\udc00", "\udbffx", "\ude00\ud83d"].filter(isStorableText)).toEqual([]);
    expect(["", "plain", "\ud83d\ude00", "tab\tand\nbreak", "\uffff"].every(isStorableText)).toBe(true);
  });

  it("names every bad string and field name by its path, in document order", () => {
    const input = JSON.parse(
      '{"name":"ok","buckets":[{"label":"\\ud800"},{"label":"fine","notes":["a","\\u0000"]}],"bad\\u0000key":1}',
    );
    expect(unstorableText(input).map((e) => e.path)).toEqual([
      "buckets[0].label",
      "buckets[1].notes[1]",
      "bad\u0000key",
    ]);
  });

  it("walks a body nested 200,000 deep without overflowing the stack, and stops at 20 errors", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableText(deep)).toHaveLength(1);
    expect(unstorableText(Array.from({ length: 100 }, () => "\u0000"))).toHaveLength(20);
  });

  it("enters plain objects and arrays only (a Decimal or a Buffer is not text)", () => {
    expect(unstorableText({ amount: new Decimal("1.5"), file: Buffer.from([0]) })).toEqual([]);
  });

  it("parseInput refuses it before the schema, and text() refuses it where safeParse is used directly", () => {
    const attempt = () => parseInput(z.object({ q: z.string() }), { q: "a\u0000" }, "The search");
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow("The search is invalid: q: must not contain NUL characters or unpaired UTF-16 surrogates");
    expect(text({ max: 10 }).safeParse("\ud800").success).toBe(false);
  });
});
