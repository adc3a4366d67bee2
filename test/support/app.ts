import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { createAccountKey } from "../../src/modules/accounts/accounts.service";
import { openTestDatabase, type TestDatabase } from "./db";

export interface TestApp {
  db: TestDatabase;
  http: ReturnType<typeof request>;
  /** A new account with one API key; returns the key. */
  newAccount(name?: string): Promise<string>;
  /** POST /graphql with the key (a supertest request: await it, or chain .expect()). */
  gql(key: string | undefined, query: string, variables?: Record<string, unknown>): request.Test;
  close(): Promise<void>;
}

let accounts = 0;

/**
 * The real application over a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * driven over HTTP with supertest. One per test file; call `db.reset()` between tests.
 */
export async function startTestApp(config: { rateLimitPerSecond?: number; rateLimitBurst?: number } = {}): Promise<TestApp> {
  const db = await openTestDatabase();
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const { app, stop } = await createApp({
    db,
    log,
    config: { rateLimitPerSecond: config.rateLimitPerSecond ?? 0, rateLimitBurst: config.rateLimitBurst ?? 50 },
  });
  const http = request(app);
  return {
    db,
    http,
    newAccount: async (name) => (await createAccountKey(db.prisma, { accountName: name ?? `account ${++accounts}` })).key,
    gql: (key, query, variables) => {
      const req = http.post("/graphql").set("content-type", "application/json");
      if (key) req.set("authorization", key);
      return req.send({ query, variables });
    },
    close: async () => {
      await stop();
      await db.close();
    },
  };
}

/** A snapshot of every table a test may touch, to prove a rejected request wrote nothing. */
export async function ledgerSnapshot(db: TestDatabase): Promise<string> {
  const tables = ["account", "api_key", "portfolio", "allocation_model", "allocation_bucket"];
  const parts: string[] = [];
  for (const t of tables) parts.push(t + ":" + JSON.stringify(await db.sql(`SELECT * FROM "${t}" ORDER BY id`)));
  return parts.join("\n");
}
