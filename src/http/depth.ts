import type { Request } from "express";
import { DomainError } from "../lib/domain-errors";

/**
 * How deep a request body (REST) or GraphQL variables may nest arrays and objects. The deepest
 * input the API defines is five levels (GraphQL import variables: input, rows, a row, its
 * parcels, a pick); 32 is far beyond any real client and far below what a recursive walk over
 * the input can survive.
 * Checked once, without recursion, right after the body is parsed: before the Idempotency-Key
 * fingerprint, the unknown-field walker or zod descend into it (`[` × 5,000 overflowed the stack).
 */
export const MAX_INPUT_DEPTH = 32;

/** Whether a parsed JSON value nests containers more than `max` levels deep (the value itself is level 1). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: object; depth: number }[] = [];
  if (value !== null && typeof value === "object") stack.push({ value, depth: 1 });
  while (stack.length > 0) {
    const { value: container, depth } = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(container) ? container : Object.values(container)) {
      if (child !== null && typeof child === "object") stack.push({ value: child as object, depth: depth + 1 });
    }
  }
  return false;
}

function tooDeep(path: string): DomainError {
  return new DomainError("VALIDATION_FAILED", `The request body is nested deeper than ${MAX_INPUT_DEPTH} levels.`, [
    { path, message: `must not be nested deeper than ${MAX_INPUT_DEPTH} levels` },
  ]);
}

/** GraphQL variables as sent: a POST body's member, or a GET's query parameter (JSON text Apollo parses later). */
function graphqlVariables(req: Request): unknown {
  if (req.method !== "GET") return (req.body as { variables?: unknown } | undefined)?.variables;
  // As Apollo reads it: the first `variables` parameter (Express makes a repeated one an array).
  const text = new URLSearchParams(req.originalUrl.split("?")[1] ?? "").get("variables");
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // Apollo answers its own 400 for variables that are not JSON
  }
}

/**
 * Throws VALIDATION_FAILED (400) when the request's parsed input nests deeper than
 * MAX_INPUT_DEPTH: REST names the body, GraphQL its variables (whose object is level 1, as a
 * REST body's is; the envelope around them may add one).
 */
export function assertShallowInput(req: Request, transport: "rest" | "graphql"): void {
  if (transport === "rest") {
    if (nestedDeeperThan(req.body, MAX_INPUT_DEPTH)) throw tooDeep("(body)");
    return;
  }
  if (nestedDeeperThan(graphqlVariables(req), MAX_INPUT_DEPTH)) throw tooDeep("variables");
  if (nestedDeeperThan(req.body, MAX_INPUT_DEPTH + 1)) throw tooDeep("(body)");
}
