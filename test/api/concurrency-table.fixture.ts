/**
 * What the concurrency-table.*.test.ts stories share: a fresh account's write fixture with its key
 * and the reads and writes over it, and the REST writes of the endpoint table. Importing it registers no hook: a suite hands its app over,
 * `concurrencyFixture(t)`.
 */
import { isWrite, type Endpoint } from "../../src/http/endpoint";
import { endpoints } from "../../src/http/router";
import { ATTACHMENT_PDF, fixtureUrl, seedWriteFixture, writeBodies, type FixtureIds } from "../scenarios/write-fixture";
import type { TestApp } from "../support/app";

export interface Fixture {
  key: string;
  ids: FixtureIds;
  /** The first column of the first row of a query. */
  value(text: string, ...params: unknown[]): Promise<unknown>;
  get(path: string): Promise<Record<string, unknown>>;
  send(e: Endpoint): Promise<{ status: number; body: { code?: string }; text: string }>;
}

export const count = async (f: Fixture, text: string, ...params: unknown[]) =>
  Number(await f.value(`SELECT count(*) FROM ${text}`, ...params));

export const writes = endpoints.filter(isWrite);

/** A fresh account's fixture over the suite's app (inside tests only). */
export function concurrencyFixture(t: TestApp) {
  async function freshFixture(): Promise<Fixture> {
    const key = await t.newAccount();
    const ids = await seedWriteFixture(t, key);
    const bodies = writeBodies(ids);
    return {
      key,
      ids,
      value: async (text, ...params) => {
        const [row] = await t.db.sql<Record<string, unknown>>(text, params);
        return row ? Object.values(row)[0] : undefined;
      },
      get: async (path) => {
        const res = await t.http.get(path).set("authorization", key);
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
        return res.body;
      },
      send: (e) => {
        const req = t.http[e.method](fixtureUrl(e.path, ids, "the concurrency table")).set("authorization", key);
        if (e.upload)
          return req.attach("file", ATTACHMENT_PDF, { filename: "other.pdf", contentType: "application/pdf" });
        const body = bodies[e.operationId];
        return e.method === "delete" || body === undefined ? req : req.send(body as object);
      },
    };
  }
  return { freshFixture };
}
