import type { NextFunction, Request, Response } from "express";
import { chunkedJson } from "../../src/http/chunked-json";

/**
 * The bulk endpoints' JSON parser (src/http/chunked-json.ts): body-parser's answers for every body,
 * and a large body parsed with turns of the event loop between its chunks (a 19 MiB array held
 * the loop for 230–270 ms in one JSON.parse).
 */
async function parse(
  body: Buffer,
  contentType = "application/json",
): Promise<{ body?: unknown; error?: Error & { status?: number; type?: string } }> {
  const req = { body, headers: { "content-type": contentType } } as unknown as Request;
  let error: (Error & { status?: number; type?: string }) | undefined;
  await chunkedJson(req, {} as Response, ((e?: Error) => (error = e)) as NextFunction);
  return error ? { error } : { body: req.body };
}

describe("chunkedJson: body-parser's rules, parsed in chunks", () => {
  it("parses objects and arrays, and multi-byte text split across chunks", async () => {
    expect(await parse(Buffer.from('{"a":[1,2.5,"x"]}'))).toEqual({ body: { a: [1, 2.5, "x"] } });
    // 300 KiB of 報 (3 bytes each in UTF-8) crosses the 256 KiB chunk boundary inside a character.
    const text = "報".repeat(100 * 1024);
    expect(await parse(Buffer.from(JSON.stringify([{ notes: text }])))).toEqual({ body: [{ notes: text }] });
  });

  it("reads an empty body as {} and drops a UTF-8 byte order mark, as body-parser does", async () => {
    expect(await parse(Buffer.alloc(0))).toEqual({ body: {} });
    // Whitespace is looked past however long it runs: 100 blank lines, then the array.
    expect(await parse(Buffer.from("\n".repeat(100) + " [1,2]"))).toEqual({ body: [1, 2] });
    expect(await parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("[1]")]))).toEqual({ body: [1] });
  });

  it.each([
    ["a number at the top level", "42"],
    ["a string at the top level", '"text"'],
    ["unclosed JSON", '[{"a":1}'],
    ["a body cut after a nested array", "[[1],[2]"],
    ["an object cut after a nested object", '{"x":{}'],
    ["two values", "[1]\n[2]"],
    ["only whitespace", "  \n"],
    ["text after 100 blank lines", "\n".repeat(100) + "garbage"],
    ["a trailing comma", "[1,2,]"],
    ["text after the value", "[1] x"],
  ])("refuses %s as body-parser's entity.parse.failed (400)", async (_what, text) => {
    const { error } = await parse(Buffer.from(text));
    expect(error).toMatchObject({ status: 400, type: "entity.parse.failed" });
  });

  it("refuses a charset other than UTF-8 as body-parser's charset.unsupported", async () => {
    expect((await parse(Buffer.from("[1]"), "application/json; charset=latin1")).error).toMatchObject({
      status: 415,
      type: "charset.unsupported",
    });
    expect(await parse(Buffer.from("[1]"), 'application/json; charset="utf-8"')).toEqual({ body: [1] });
  });

  it("lets the event loop turn between chunks of a large body", async () => {
    const body = Buffer.from("[" + Array.from({ length: 1_000_000 }, () => "1").join(",") + "]");
    let turns = 0;
    let parsed = false;
    const count = () => {
      if (parsed) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const { body: value } = await parse(body);
    parsed = true;
    expect((value as number[]).length).toBe(1_000_000);
    // About 2 MB in chunks of 256 KiB: the loop turned between them (one JSON.parse: no turn at all).
    expect(turns).toBeGreaterThanOrEqual(Math.floor(body.length / (256 * 1024)) - 1);
  });
});
