/**
 * The requests and counts the idempotency.*.test.ts stories share (docs/conventions.md §7.2,
 * `Idempotency-Key`). Importing it registers no hook: a suite hands its app over,
 * `idempotencyRequests(t, () => key)`.
 */
import request from "supertest";
import type { TestApp } from "../support/app";

export const replayed = (res: request.Response) => res.headers["idempotent-replayed"];

/** The requests and counts over the suite's app (inside tests only). */
export function idempotencyRequests(t: TestApp, key: () => string) {
  const count = async (table: string, where = "true", params: unknown[] = []) =>
    Number((await t.db.sql<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE ${where}`, params))[0].n);

  const createPortfolio = (
    idemKey: string | undefined,
    body: object = { name: "Retirement" },
    k = key(),
    prefix = "/v1",
  ) => {
    const req = t.http.post(`${prefix}/portfolios`).set("authorization", k);
    if (idemKey !== undefined) req.set("Idempotency-Key", idemKey);
    return req.send(body);
  };
  return { count, createPortfolio };
}
