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

export type Outcome<T> =
  | { ok: true; transport: TransportName; status: number; value: T; raw: string }
  | { ok: false; transport: TransportName; status: number; code: string; errors?: FieldError[]; raw: string };

/** REST decimals are JSON numbers written from the stored digits; anything else never matches. */
export const restDecimal = (v: unknown): string => (typeof v === "number" ? new Decimal(v).toFixed() : `<REST decimal must be a JSON number, got ${JSON.stringify(v)}>`);
/** GraphQL decimals are strings. */
export const gqlDecimal = (v: unknown): string => (typeof v === "string" ? v : `<GraphQL Decimal must be a string, got ${JSON.stringify(v)}>`);
export const restId = (v: unknown): number => (Number.isInteger(v) ? (v as number) : (`<REST id must be an integer, got ${JSON.stringify(v)}>` as never));
export const gqlId = (v: unknown): number => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : (`<GraphQL ID must be a digit string, got ${JSON.stringify(v)}>` as never));

/** A REST call: every error is RFC 9457 problem+json (API.md §1 errors), a 204 has no body. */
export async function restCall<T>(req: PromiseLike<Response>, map: (body: unknown) => T): Promise<Outcome<T>> {
  const res = await req;
  if (res.status >= 400) {
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    return { ok: false, transport: "REST", status: res.status, code: res.body.code, errors: res.body.errors, raw: res.text };
  }
  if (res.status === 204) {
    expect(res.text ?? "").toBe("");
    return { ok: true, transport: "REST", status: res.status, value: map(undefined), raw: "" };
  }
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  return { ok: true, transport: "REST", status: res.status, value: map(JSON.parse(res.text)), raw: res.text };
}

export const HTTP_STATUS: Record<string, number> = { VALIDATION_FAILED: 400, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, BUSINESS_RULE: 422 };

export function expectOk<T>(o: Outcome<T>, status?: number): T {
  if (!o.ok) throw new Error(`expected success over ${o.transport}, got ${o.status} ${o.code}: ${o.raw}`);
  if (status !== undefined && o.transport === "REST") expect(o.status).toBe(status);
  return o.value;
}

/** A failure with this code; over REST also its HTTP status (problem+json is checked in restCall). */
export function expectError(o: Outcome<unknown>, code: keyof typeof HTTP_STATUS): void {
  if (o.ok) throw new Error(`expected ${code} over ${o.transport}, got success: ${o.raw}`);
  expect({ code: o.code, status: o.transport === "REST" ? o.status : undefined }).toEqual({ code, status: o.transport === "REST" ? HTTP_STATUS[code] : undefined });
}

/** VALIDATION_FAILED naming exactly these paths. */
export function expectInvalid(o: Outcome<unknown>, paths: string[]): void {
  expectError(o, "VALIDATION_FAILED");
  if (o.ok) return;
  expect(Array.isArray(o.errors)).toBe(true);
  for (const e of o.errors!) expect(typeof e.message).toBe("string");
  expect([...new Set(o.errors!.map((e) => e.path))].sort()).toEqual([...paths].sort());
}

/** A read of something absent or foreign: REST 404 NOT_FOUND, GraphQL null without error. */
export function expectAbsent(o: Outcome<unknown>): void {
  if (o.transport === "REST") return expectError(o, "NOT_FOUND");
  expect(expectOk(o)).toBeNull();
}

/** The helpers that need the suite's app (created in its beforeAll, hence the getter). */
export function withApp(app: () => TestApp) {
  return {
    /** A GraphQL call answering `field`; a failure carries the first error's code and fields. */
    async gqlCall<T>(k: string, query: string, variables: Json, field: string, map: (data: unknown) => T): Promise<Outcome<T>> {
      const res = await app().gql(k, query, variables);
      expect(res.headers["content-type"]).toMatch(/^application\/(graphql-response\+)?json/);
      const errors = res.body.errors as { extensions?: { code?: string; errors?: FieldError[] } }[] | undefined;
      if (errors?.length) {
        expect(res.body.data?.[field] ?? null).toBeNull();
        return { ok: false, transport: "GraphQL", status: res.status, code: errors[0].extensions?.code ?? "<no code>", errors: errors[0].extensions?.errors, raw: res.text };
      }
      expect(res.status).toBe(200);
      return { ok: true, transport: "GraphQL", status: res.status, value: map(res.body.data[field]), raw: res.text };
    },
    /** Runs `action` and proves it wrote nothing at all. */
    async unchanged(action: () => Promise<void>): Promise<void> {
      const before = await ledgerSnapshot(app().db);
      await action();
      expect(await ledgerSnapshot(app().db)).toBe(before);
    },
    async accountIdOf(portfolioId: number): Promise<number> {
      const [row] = await app().db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [portfolioId]);
      return Number(row.account_id);
    },
    async count(table: string): Promise<number> {
      const [row] = await app().db.sql<{ n: unknown }>(`SELECT count(*) AS n FROM "${table}"`);
      return Number(row.n);
    },
  };
}
