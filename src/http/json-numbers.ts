import { Decimal } from "../lib/money";
import { atOnce, inSlices, type Steps } from "../lib/slices";

/**
 * JSON numbers a float cannot hold. JSON.parse reads every number into a float, which keeps 15
 * to 17 significant digits: `99999999999999.99999999` arrives as 100000000000000 and
 * `1.0000000000000000000001` as 1, and what the service then stores is not what was sent.
 * Amounts are exact here (docs/conventions.md §4.2: never rounded quietly), so a body holding such
 * a number is refused, before it is parsed, with the number and the remedy: send it as a string.
 *
 * Strings are passed over whole (a reference of twenty digits is text); a number of 15 digits or
 * fewer and no exponent always survives a float, so only the others are compared (1e400 is
 * Infinity to a float, 1e-400 zero).
 */
const TOKENS = /"(?:[^"\\]|\\.)*"|(-?\d[\d.eE+-]*)/g;
/** Tokens read between two steps (lib/slices.ts): a 20 MiB bulk body is read in slices. */
const TOKENS_PER_STEP = 20_000;

/** The first number of the JSON text whose value a float does not keep, if any, as steps. */
function* inexactNumberSteps(text: string): Steps<string | undefined> {
  const tokens = new RegExp(TOKENS);
  let read = 0;
  for (let m = tokens.exec(text); m; m = tokens.exec(text)) {
    if (++read % TOKENS_PER_STEP === 0) yield;
    const number = m[1];
    if (number === undefined || (number.length <= 15 && !/[eE]/.test(number))) continue;
    const float = Number(number);
    // Not a number JSON allows: JSON.parse refuses it on its own.
    if (Number.isNaN(float)) continue;
    if (!Number.isFinite(float) || !new Decimal(number).eq(new Decimal(String(float)))) return number;
  }
  return undefined;
}

/** The first number of the JSON text whose value a float does not keep, if any. */
export const inexactNumber = (text: string): string | undefined => atOnce(inexactNumberSteps(text));

/** inexactNumber for a large text, giving the event loop a turn between slices. */
export const inexactNumberInSlices = (text: string): Promise<string | undefined> => inSlices(inexactNumberSteps(text));

/** Body-parser's error for such a body: 400, src/http/error-responses.ts. */
export function inexactNumberError(number: string): Error {
  return Object.assign(
    new Error(`The number ${number} has more digits than a JSON number keeps exactly; send it as a string.`),
    { status: 400, type: "entity.number.inexact", number },
  );
}

/** Throws inexactNumberError for the first such number of `body` (UTF-8 JSON). */
export function assertExactNumbers(body: Buffer | string): void {
  const number = inexactNumber(typeof body === "string" ? body : body.toString("utf8"));
  if (number !== undefined) throw inexactNumberError(number);
}
