import { parseChunked } from "@discoveryjs/json-ext";
import type { NextFunction, Request, Response } from "express";
import { jsonLossError, jsonLossInSlices } from "./lossless-json";

/** Bytes parsed between two turns of the event loop (about 10 ms of parsing). */
const CHUNK_BYTES = 256 * 1024;

/**
 * The JSON parser of the bulk endpoints (up to 20 MiB). JSON.parse of a whole body holds the event
 * loop for as long as it takes: a 19 MiB array of nine million `1`s took 230–270 ms, every other
 * request waiting behind it. Here express.raw reads the body (with its size limit, decoding and
 * UTF-8 check) and json-ext's parseChunked parses it a chunk at a time with a turn of the event
 * loop between chunks; the parse costs about the same in all. body-parser's rules are kept: an
 * empty body is `{}` (one of only whitespace is not JSON), only an object or array may be the top level (its `strict`), a charset other
 * than UTF-8 is its `charset.unsupported`, and a body that does not parse is its
 * `entity.parse.failed` (400, src/http/error-responses.ts).
 */
export async function chunkedJson(req: Request, _res: Response, next: NextFunction): Promise<void> {
  if (!Buffer.isBuffer(req.body)) return next();
  const charset = /;\s*charset="?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1].toLowerCase();
  if (charset && !charset.startsWith("utf-")) {
    return next(
      Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), {
        status: 415,
        type: "charset.unsupported",
        charset,
      }),
    );
  }
  // A UTF-8 byte order mark is not JSON; body-parser's decoding drops it, so this does too.
  const body: Buffer =
    req.body[0] === 0xef && req.body[1] === 0xbb && req.body[2] === 0xbf ? req.body.subarray(3) : req.body;
  if (body.length === 0) {
    req.body = {};
    return next();
  }
  const first = body[firstNonWhitespace(body)];
  if (first === undefined) return next(parseFailed(new SyntaxError("Unexpected end of JSON input")));
  if (first !== 0x7b && first !== 0x5b)
    return next(
      parseFailed(
        new SyntaxError(`Unexpected token ${String.fromCharCode(first)}: the body must be a JSON object or array`),
      ),
    );
  // What the parse would lose (a number a float rounds, a name given twice) is refused
  // (./lossless-json.ts), unless the body is not JSON at all: then the parse's syntax error says so.
  const loss = await jsonLossInSlices(body.toString("utf8"));
  let root: unknown;
  let complete = false;
  try {
    const chunks = async function* () {
      for (let at = 0; at < body.length; at += CHUNK_BYTES) {
        yield body.subarray(at, at + CHUNK_BYTES);
        await new Promise(setImmediate);
      }
    };
    // The value is taken when its closing bracket is read: json-ext 1.1.0 answers a body that ends
    // before its last brackets (`[{"a":1}`) with the value so far, without an error.
    await parseChunked(chunks, { onRootValue: (value) => ((root = value), (complete = true)) });
  } catch (error) {
    return next(parseFailed(error as Error));
  }
  if (!complete) return next(parseFailed(new SyntaxError("Unexpected end of JSON input")));
  if (loss !== undefined) return next(jsonLossError(loss));
  req.body = root;
  next();
}

/** JSON's whitespace (RFC 8259 §2): space, tab, line feed, carriage return. */
function firstNonWhitespace(body: Buffer): number {
  let at = 0;
  while (at < body.length && (body[at] === 0x20 || body[at] === 0x09 || body[at] === 0x0a || body[at] === 0x0d)) at++;
  return at;
}

function parseFailed(cause: Error): Error {
  return Object.assign(new SyntaxError(cause.message), { status: 400, type: "entity.parse.failed" });
}
