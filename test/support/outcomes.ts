import Decimal from "decimal.js";
import type { Response } from "supertest";
import { ledgerSnapshot, type TestApp } from "./app";

/**
 * One outcome shape for a call over either transport, and the assertions the API suites share:
 * a scenario runs over REST and GraphQL and is checked the same way.
 */
export type Json = Record<string, unknown>;
export type TransportName = "REST" | "GraphQL";

export interface FieldError {
  path: string;
  message: string;
  line?: number;
}

/**
 * What one call answered. On success `value` (and its alias `data`) is the mapped result; on
 * failure `code` is the stable error code, `errors` the field errors and `message` the problem's
 * `detail` or the GraphQL error's message. `res` is the raw response, for wire-level checks.
 */
export type Outcome<T> =
  | {
      ok: true;
      transport: TransportName;
      status: number;
      value: T;
      data: T;
      raw: string;
      res: Response;
      code?: undefined;
      errors?: undefined;
      message?: undefined;
    }
  | {
      ok: false;
      transport: TransportName;
      status: number;
      code: string;
      errors?: FieldError[];
      message?: string;
      raw: string;
      res: Response;
      value?: undefined;
      data?: undefined;
    };

/** REST decimals are JSON numbers written from the stored digits; anything else never matches. */
export const restDecimal = (v: unknown): string =>
  typeof v === "number" ? new Decimal(v).toFixed() : `<REST decimal must be a JSON number, got ${JSON.stringify(v)}>`;
/** GraphQL decimals are strings. */
export const gqlDecimal = (v: unknown): string =>
  typeof v === "string" ? v : `<GraphQL Decimal must be a string, got ${JSON.stringify(v)}>`;
/** A REST id is a JSON integer; anything else becomes a marker that equals nothing. */
export const restId = (v: unknown): number =>
  Number.isInteger(v) ? (v as number) : (`<REST id must be an integer, got ${JSON.stringify(v)}>` as never);
/** A GraphQL ID is a digit string, read as its number; anything else becomes a marker. */
export const gqlId = (v: unknown): number =>
  typeof v === "string" && /^\d+$/.test(v)
    ? Number(v)
    : (`<GraphQL ID must be a digit string, got ${JSON.stringify(v)}>` as never);

/** A body mapper; `never` lets callers type their parameter as the wire shape they expect. */
type Mapper<T> = (body: never) => T;
const identity = <T>(b: never): T => b as T;

/**
 * A REST call: every error is RFC 9457 problem+json (docs/conventions.md §5) with type, status, code,
 * title and detail; a success has `success` as its status when given, a 204 has no body, and any other
 * success is JSON. Takes the request (or its response) and maps the body with `map` (unmapped,
 * a 204 reads as `true`).
 */
export async function restCall<T>(req: PromiseLike<Response> | Response, map: Mapper<T>): Promise<Outcome<T>>;
export async function restCall<T = unknown>(
  req: PromiseLike<Response> | Response,
  success?: number,
  map?: Mapper<T>,
): Promise<Outcome<T>>;
export async function restCall<T>(
  req: PromiseLike<Response> | Response,
  successOrMap?: number | Mapper<T>,
  mapArg?: Mapper<T>,
): Promise<Outcome<T>> {
  const success = typeof successOrMap === "number" ? successOrMap : undefined;
  const res = await req;
  const given = typeof successOrMap === "function" ? successOrMap : mapArg;
  // Unmapped, a 204 answers `true`: what the GraphQL twin of a delete returns.
  const map: Mapper<T> = given ?? ((b: never) => (res.status === 204 ? (true as T) : identity<T>(b)));
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: expect.any(String),
      status: res.status,
      code: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
    });
    return {
      ok: false,
      transport: "REST",
      status: res.status,
      code: res.body.code,
      errors: res.body.errors,
      message: res.body.detail,
      raw: res.text,
      res,
    };
  }
  if (success !== undefined) expect(res.status).toBe(success);
  if (res.status === 204) {
    expect(res.text ?? "").toBe("");
    const value = map(undefined as never);
    return { ok: true, transport: "REST", status: res.status, value, data: value, raw: "", res };
  }
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const value = map(JSON.parse(res.text) as never);
  return { ok: true, transport: "REST", status: res.status, value, data: value, raw: res.text, res };
}

/**
 * A GraphQL answer for `field`: a GraphQL JSON content type; a failure has exactly one error, no
 * data for the field, and carries that error's code, field errors and message; a success is a 200.
 */
export function gqlOutcome<T>(res: Response, field: string, map: Mapper<T> = identity): Outcome<T> {
  expect(res.headers["content-type"]).toMatch(/^application\/(graphql-response\+)?json/);
  const errors = res.body.errors as
    { message: string; extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
  if (errors?.length) {
    expect(errors).toHaveLength(1);
    expect(res.body.data?.[field] ?? null).toBeNull();
    return {
      ok: false,
      transport: "GraphQL",
      status: res.status,
      code: errors[0].extensions?.code ?? "<no code>",
      errors: errors[0].extensions?.errors,
      message: errors[0].message,
      raw: res.text,
      res,
    };
  }
  expect(res.status).toBe(200);
  const value = map(res.body.data[field] as never);
  return { ok: true, transport: "GraphQL", status: res.status, value, data: value, raw: res.text, res };
}

/** The HTTP status each stable error code answers over REST. */
export const HTTP_STATUS: Record<string, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BUSINESS_RULE: 422,
};

/** A success (over REST with this status when given); returns its value. */
export function expectOk<T>(o: Outcome<T>, status?: number): T {
  if (!o.ok) throw new Error(`expected success over ${o.transport}, got ${o.status} ${o.code}: ${o.raw}`);
  if (status !== undefined && o.transport === "REST") expect(o.status).toBe(status);
  return o.value;
}

/** A failure with this code; over REST also its HTTP status (HTTP_STATUS[code] unless given). */
export function expectError(o: Outcome<unknown>, code: string, status: number | undefined = HTTP_STATUS[code]): void {
  if (o.ok) throw new Error(`expected ${code} over ${o.transport}, got success: ${o.raw}`);
  expect({ code: o.code, status: o.transport === "REST" ? o.status : undefined }).toEqual({
    code,
    status: o.transport === "REST" ? status : undefined,
  });
}

/**
 * VALIDATION_FAILED (REST 400) with at least one field error, each exactly `{ path, message }`;
 * when paths are given (as strings or arrays), the distinct paths named are exactly these.
 */
export function expectInvalid(o: Outcome<unknown>, ...paths: (string | string[])[]): void {
  expectError(o, "VALIDATION_FAILED");
  if (o.ok) return;
  expect(Array.isArray(o.errors)).toBe(true);
  expect(o.errors!.length).toBeGreaterThanOrEqual(1);
  // A row's error (`line 3.close`) carries its line too, the number its path names.
  for (const e of o.errors!) {
    const line = /^line (\d+)/.exec(e.path)?.[1];
    expect(e).toEqual({
      path: expect.any(String),
      message: expect.any(String),
      ...(e.line !== undefined || line ? { line: Number(line) } : {}),
    });
  }
  const wanted = paths.flat();
  if (wanted.length) expect([...new Set(o.errors!.map((e) => e.path))].sort()).toEqual([...new Set(wanted)].sort());
}

/** expectInvalid, and the field errors name exactly these paths in this order (one error each). */
export function expectInvalidInOrder(o: Outcome<unknown>, paths: string[]): void {
  expectInvalid(o, paths);
  if (!o.ok) expect(o.errors!.map((e) => e.path)).toEqual(paths);
}

/** A value GraphQL's own type system refuses (BAD_USER_INPUT) but REST validates: VALIDATION_FAILED on `path` there. */
export function expectInvalidOrBadUserInput(o: Outcome<unknown>, path: string): void {
  if (o.transport === "GraphQL") return expectError(o, "BAD_USER_INPUT");
  expectInvalid(o, path);
}

/** A read of something absent or foreign: REST 404 NOT_FOUND, GraphQL null without error. */
export function expectAbsent(o: Outcome<unknown>): void {
  if (o.transport === "REST") return expectError(o, "NOT_FOUND");
  expect(expectOk(o)).toBeNull();
}

/** The human-readable message of a failure (problem+json `detail`, or the GraphQL error's message). */
export function failureMessage(o: Outcome<unknown>): string {
  if (o.ok) throw new Error(`expected a failure over ${o.transport}, got success: ${o.raw}`);
  return o.message ?? "";
}

/** The helpers that need the suite's app (created in its beforeAll, hence the getter). */
export function withApp(app: () => TestApp) {
  return {
    /** A GraphQL call answering `field` (see gqlOutcome). */
    async gqlCall<T>(
      k: string,
      query: string,
      variables: Json,
      field: string,
      map: Mapper<T> = identity,
    ): Promise<Outcome<T>> {
      return gqlOutcome(await app().gql(k, query, variables), field, map);
    },
    /** Runs `action` and proves it wrote nothing at all. */
    async unchanged(action: () => Promise<void>): Promise<void> {
      const before = await ledgerSnapshot(app().db);
      await action();
      expect(await ledgerSnapshot(app().db)).toBe(before);
    },
    /** The account that owns the portfolio. */
    async accountIdOf(portfolioId: number): Promise<number> {
      const [row] = await app().db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [
        portfolioId,
      ]);
      return Number(row.account_id);
    },
    /** The number of rows in a table. */
    async count(table: string): Promise<number> {
      const [row] = await app().db.sql<{ n: unknown }>(`SELECT count(*) AS n FROM "${table}"`);
      return Number(row.n);
    },
  };
}

/** The problem+json body of a REST error, whether supertest parsed it, buffered it or left it as text. */
export function problemOf(res: Response): Json {
  if (Buffer.isBuffer(res.body)) return JSON.parse(res.body.toString("utf8")) as Json;
  if (res.body && typeof res.body === "object" && Object.keys(res.body).length) return res.body as Json;
  try {
    return JSON.parse(res.text) as Json;
  } catch {
    return {}; // not JSON at all: the status/code comparison then shows what came back
  }
}

/**
 * A REST error answered as RFC 9457 problem+json with this status and code (and type, title,
 * detail); returns its field or row errors, if any.
 */
export function expectProblem(res: Response, status: number, code: string): FieldError[] | undefined {
  const problem = problemOf(res);
  expect({ status: res.status, code: problem.code }).toEqual({ status, code });
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(problem).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
  });
  return problem.errors as FieldError[] | undefined;
}

/** A REST request refused as a whole (an import, a strict body): expectProblem, returning its errors (none → []). */
export function expectRejected(res: Response, status: number, code: string): FieldError[] {
  return expectProblem(res, status, code) ?? [];
}

/**
 * A report's answer in one comparable shape whichever transport gave it: every number (REST's
 * JSON numbers, GraphQL's Decimal strings) as canonical decimal text, ids and years as numbers.
 * That REST writes money as JSON numbers is the OpenAPI contract test's to check.
 */
export function canonicalAnswer(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => canonicalAnswer(v));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonicalAnswer(v, k)]));
  if (/Id$/.test(key) && value !== null) return Number(value);
  if (key === "financialYear") return Number(value);
  if (typeof value === "number" || (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)))
    return new Decimal(value).toFixed();
  return value;
}
