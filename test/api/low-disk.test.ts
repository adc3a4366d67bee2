import os from "node:os";
import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { createAccountKey } from "../../src/modules/accounts/accounts.service";
import { ledgerSnapshot } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/db";

/**
 * Low disk under the embedded database (README: Limits and protections): with free space in
 * DATA_DIR below DISK_FREE_MIN_MB, REST writes and GraphQL mutations answer 507 before anything
 * runs, reads go on, /ready says why. The floor is set above any real disk's free space.
 */
const FLOOR_ABOVE_ANY_DISK_MB = 2 ** 40;
const onPGlite = !process.env.TEST_DATABASE_URL;

let db: TestDatabase;
let http: ReturnType<typeof request>;
let stop: () => Promise<void>;
let key: string;

beforeAll(async () => {
  db = await openTestDatabase();
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const config = {
    rateLimitPerSecond: 0,
    rateLimitBurst: 50,
    dataDir: os.tmpdir(),
    diskFreeMinMb: FLOOR_ABOVE_ANY_DISK_MB,
  };
  const app = await createApp({ db, log, config });
  http = request(app.app);
  stop = app.stop;
  const { account, key: created } = await createAccountKey(db.prisma, { accountName: "low disk" });
  key = created;
  await db.prisma.portfolio.create({
    data: {
      accountId: account.id,
      name: "Existing",
      baseCurrencyCode: "AUD",
      taxResidency: "AU",
      financialYearEnd: "06-30",
    },
  });
});
afterAll(async () => {
  await stop();
  await db.close();
});

const gql = (query: string, variables?: Record<string, unknown>) =>
  http.post("/graphql").set("authorization", key).set("content-type", "application/json").send({ query, variables });

(onPGlite ? describe : describe.skip)("below the free-space floor on the embedded database", () => {
  it("refuses REST writes with 507 problem+json and writes nothing", async () => {
    const before = await ledgerSnapshot(db);
    const created = await http.post("/v1/portfolios").set("authorization", key).send({ name: "Refused" });
    expect(created.status).toBe(507);
    expect(created.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(created.body).toMatchObject({ status: 507, code: "INSUFFICIENT_STORAGE", title: "Insufficient storage" });
    const [{ id }] = (await http.get("/v1/portfolios").set("authorization", key)).body as { id: number }[];
    expect((await http.delete(`/v1/portfolios/${id}`).set("authorization", key)).status).toBe(507);
    expect((await http.put(`/v1/portfolios/${id}`).set("authorization", key).send({ name: "Renamed" })).status).toBe(
      507,
    );
    expect(await ledgerSnapshot(db)).toBe(before);
  });

  it("refuses GraphQL mutations with 507 and extensions.code INSUFFICIENT_STORAGE, and writes nothing", async () => {
    const before = await ledgerSnapshot(db);
    const res = await gql(`mutation { createPortfolio(input: { name: "Refused" }) { id } }`);
    expect(res.status).toBe(507);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: { code: "INSUFFICIENT_STORAGE" } })]);
    expect(await ledgerSnapshot(db)).toBe(before);
  });

  it("still answers reads over both transports", async () => {
    const rest = await http.get("/v1/portfolios").set("authorization", key);
    expect(rest.status).toBe(200);
    expect(rest.body).toHaveLength(1);
    // GraphQL queries are POSTs too: only the operation type tells a read from a write.
    const res = await gql(`query { portfolios { name } }`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { portfolios: [{ name: "Existing" }] } });
  });

  it("says so on /ready (503 with the reason) while /health stays 200", async () => {
    const ready = await http.get("/ready");
    expect(ready.status).toBe(503);
    expect(ready.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(ready.body.detail).toMatch(
      /^Writes are refused: \d+ MiB free in DATA_DIR, below DISK_FREE_MIN_MB \(\d+ MiB\)\. Reads still work\.$/,
    );
    expect((await http.get("/health")).status).toBe(200);
  });

  it("takes writes again above the floor", async () => {
    const log = pino({ level: "silent" });
    const roomy = await createApp({
      db,
      log,
      config: { rateLimitPerSecond: 0, rateLimitBurst: 50, dataDir: os.tmpdir(), diskFreeMinMb: 0 },
    });
    try {
      expect(
        (await request(roomy.app).post("/v1/portfolios").set("authorization", key).send({ name: "Written" })).status,
      ).toBe(201);
      expect((await request(roomy.app).get("/ready")).status).toBe(200);
    } finally {
      await roomy.stop();
    }
  });
});

(onPGlite ? describe.skip : describe)("the free-space floor on PostgreSQL", () => {
  it("does not apply: the server database guards its own disk", async () => {
    expect((await http.post("/v1/portfolios").set("authorization", key).send({ name: "Written" })).status).toBe(201);
    expect((await gql(`mutation { createPortfolio(input: { name: "Written too" }) { id } }`)).status).toBe(200);
    expect((await http.get("/ready")).status).toBe(200);
  });
});
