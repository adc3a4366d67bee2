import { Decimal } from "../lib/money";
import { atOnce, inSlices, type Steps } from "../lib/slices";

/**
 * JSON text refused where JSON.parse would quietly lose what was sent, before it is parsed, with
 * what was found and the remedy.
 *
 * - **Numbers a float cannot hold.** JSON.parse reads every number into a float, which keeps 15
 *   to 17 significant digits: `99999999999999.99999999` arrives as 100000000000000 and
 *   `1.0000000000000000000001` as 1, and what the service then stores is not what was sent.
 *   Amounts are exact here (docs/conventions.md §4.2: never rounded quietly): send such a number
 *   as a string. A number of 15 digits or fewer and no exponent always survives a float, so only
 *   the others are compared (1e400 is Infinity to a float, 1e-400 zero).
 * - **A name given twice in one object** (`{"price": 1, "price": 100}`). JSON.parse keeps the last
 *   and drops the first without a word; RFC 8259 §4 leaves the meaning open. Inputs are strict
 *   (docs/conventions.md §7.1), so the body is refused, naming the field and where it is.
 *
 * Strings are passed over whole (a reference of twenty digits is text, a `{` in a note is a
 * character), so the braces and names seen are the text's own. A string that never closes runs to
 * the end of the text (JSON.parse then refuses it): matched as "up to a closing quote" alone, it
 * was tried again from every quote inside it, time growing with the square of the body.
 */
export const TOKENS = /"(?:[^"\\]|\\[^])*(?:"|$)(\s*:)?|(-?\d[\d.eE+-]*)|([{}])/g;
/** Tokens read between two steps (lib/slices.ts): a 20 MiB bulk body is read in slices. */
const TOKENS_PER_STEP = 20_000;

/** What JSON.parse would lose in a text: the first such number or repeated name. */
export type JsonLoss = { number: string } | { name: string; path: string };

/** Names an object may hold before they are looked up in a Set rather than a list. */
const LISTED_NAMES = 16;
/**
 * Objects open at once whose names are remembered. Bodies may nest 32 levels (src/http/depth.ts,
 * checked once parsed); names deeper than this are not compared, so that `{"a":` repeated over a
 * bulk body's 20 MiB holds no list per level.
 */
const TRACKED_DEPTH = 64;

/** The first loss of the JSON text, if any, as steps. Text that is not JSON is left to JSON.parse. */
function* lossSteps(text: string): Steps<JsonLoss | undefined> {
  const tokens = new RegExp(TOKENS);
  // The names seen in each object open around the token read, as `"name":` (the token itself, for
  // the usual name without escapes or spaces: nothing is copied to remember it).
  const names: (string[] | Set<string>)[] = [];
  let deeper = 0;
  let read = 0;
  for (let m = tokens.exec(text); m; m = tokens.exec(text)) {
    if (++read % TOKENS_PER_STEP === 0) yield;
    const token = m[0];
    const colon = m[1];
    const number = m[2];
    const brace = m[3];
    if (brace !== undefined) {
      if (brace === "{") {
        if (names.length < TRACKED_DEPTH) names.push([]);
        else deeper++;
      } else if (deeper > 0) deeper--;
      else names.pop();
    } else if (colon !== undefined) {
      const seen = names[names.length - 1];
      if (seen === undefined || deeper > 0) continue;
      let key = token;
      if (colon.length !== 1 || token.includes("\\")) {
        const name = nameOf(token.slice(0, token.length - colon.length));
        if (name === undefined) continue;
        key = `"${name}":`;
      }
      if (Array.isArray(seen) ? seen.includes(key) : seen.has(key))
        return { name: key.slice(1, -2), path: yield* pathSteps(text, m.index) };
      if (!Array.isArray(seen)) seen.add(key);
      else if (seen.push(key) > LISTED_NAMES) names[names.length - 1] = new Set(seen);
    } else if (number !== undefined && (number.length > 15 || /[eE]/.test(number))) {
      const float = Number(number);
      // Not a number JSON allows: JSON.parse refuses it on its own.
      if (Number.isNaN(float)) continue;
      if (!Number.isFinite(float) || !new Decimal(number).eq(new Decimal(String(float)))) return { number };
    }
  }
  return undefined;
}

/** A quoted name's text, its escapes read (`"a\u0062"` is `ab`); undefined when JSON.parse would refuse it. */
function nameOf(quoted: string): string | undefined {
  if (!quoted.includes("\\")) return quoted.slice(1, -1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

/**
 * Where the object holding the token at `at` is, as a JSON path (`$[3]`, `$.input.parcels[0]`):
 * read again from the start (in steps, as the scan is), only when a repeated name was found.
 */
function* pathSteps(text: string, at: number): Generator<void, string> {
  const tokens = /"(?:[^"\\]|\\[^])*(?:"|$)(\s*:)?|([{}[\],])/g;
  const frames: { index?: number; name?: string }[] = [];
  let read = 0;
  for (let m = tokens.exec(text); m && m.index < at; m = tokens.exec(text)) {
    if (++read % TOKENS_PER_STEP === 0) yield;
    const [token, colon, punctuation] = m;
    const top = frames[frames.length - 1];
    if (colon !== undefined && top) top.name = nameOf(token.slice(0, token.length - colon.length));
    else if (punctuation === "{") frames.push({});
    else if (punctuation === "[") frames.push({ index: 0 });
    else if (punctuation === "}" || punctuation === "]") frames.pop();
    else if (punctuation === "," && top?.index !== undefined) top.index++;
  }
  // The innermost object is the one with the name twice: the path leads to it, not into it.
  return "$" + frames.slice(0, -1).map(step).join("");
}

/** A step of a JSON path: `[3]`, `.input`, or `["a.b"]` for a name that is not an identifier (a dot, a space, empty). */
function step(frame: { index?: number; name?: string }): string {
  if (frame.index !== undefined) return `[${frame.index}]`;
  const name = frame.name ?? "";
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** The first loss of the JSON text, if any. */
export const jsonLoss = (text: string): JsonLoss | undefined => atOnce(lossSteps(text));

/** jsonLoss for a large text, giving the event loop a turn between slices. */
export const jsonLossInSlices = (text: string): Promise<JsonLoss | undefined> => inSlices(lossSteps(text));

/** Body-parser's error for such a body: 400, src/http/error-responses.ts. */
export function jsonLossError(loss: JsonLoss): Error {
  if ("number" in loss)
    return Object.assign(
      new Error(`The number ${loss.number} has more digits than a JSON number keeps exactly; send it as a string.`),
      { status: 400, type: "entity.number.inexact", number: loss.number },
    );
  return Object.assign(
    new Error(
      `The object at ${loss.path} names "${loss.name}" twice; JSON keeps only the last, so send each field once.`,
    ),
    { status: 400, type: "entity.name.repeated", repeated: loss.name, at: loss.path },
  );
}

/**
 * Throws jsonLossError for the first loss of `body` (UTF-8 JSON, of the size express.json takes).
 * A body that is not JSON at all is left to the parser, whose syntax error says what is wrong
 * first; the text is parsed here to know, only when a loss was found.
 */
export function assertLosslessJson(body: Buffer | string): void {
  const text = typeof body === "string" ? body : body.toString("utf8");
  const loss = jsonLoss(text);
  if (loss === undefined) return;
  try {
    JSON.parse(text);
  } catch {
    return;
  }
  throw jsonLossError(loss);
}
