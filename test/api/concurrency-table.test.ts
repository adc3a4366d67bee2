import { isWrite, type Endpoint } from "../../src/http/endpoint";
import { endpoints } from "../../src/http/router";
import { toDomainError } from "../../src/lib/to-domain-error";
import { startTestApp, type TestApp } from "../support/app";
import { ATTACHMENT_PDF, fixtureUrl, seedWriteFixture, writeBodies, type FixtureIds } from "../support/write-fixture";

/**
 * Ten identical requests at once on every REST write, each over a fresh account's fixture: none
 * answers 5xx, and the state afterwards is what the domain says ten identical requests leave (ten
 * creates make ten rows, or one and nine CONFLICTs where a name or date is unique; one delete
 * wins and nine answer 404; a repeated change is recorded once). On PostgreSQL the requests
 * really run at once; on PGlite (one connection) they queue, and the same outcome must hold.
 */
const N = 10;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Fixture {
  key: string;
  ids: FixtureIds;
  /** The first column of the first row of a query. */
  value(text: string, ...params: unknown[]): Promise<unknown>;
  get(path: string): Promise<Record<string, unknown>>;
  send(e: Endpoint): Promise<{ status: number; body: { code?: string }; text: string }>;
}

interface Case {
  /** `every`: all ten succeed; otherwise one succeeds and nine answer this status. */
  outcome: "every" | 404 | 409;
  setup?: (f: Fixture) => Promise<void>;
  after: (f: Fixture) => Promise<void>;
}

const CODE: Record<number, string> = { 404: "NOT_FOUND", 409: "CONFLICT" };

const count = async (f: Fixture, text: string, ...params: unknown[]) =>
  Number(await f.value(`SELECT count(*) FROM ${text}`, ...params));
const quantity = async (f: Fixture) => (await f.get(`/v1/holdings/${f.ids.holdingId}`)).quantity;
const balance = async (f: Fixture) => (await f.get(`/v1/cash-accounts/${f.ids.cashAccountId}`)).balance;

const CASES: Record<string, Case> = {
  createPortfolio: {
    outcome: "every",
    after: async (f) => expect(await count(f, "portfolio WHERE account_id = $1", f.ids.accountId)).toBe(1 + N),
  },
  updatePortfolio: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT name FROM portfolio WHERE id = $1", f.ids.portfolioId)).toBe("Renamed"),
  },
  deletePortfolio: {
    outcome: 404,
    after: async (f) => {
      expect(await count(f, "portfolio WHERE account_id = $1", f.ids.accountId)).toBe(0);
      expect(await count(f, "holding WHERE portfolio_id = $1", f.ids.portfolioId)).toBe(0);
    },
  },
  createHolding: {
    outcome: 409,
    after: async (f) =>
      expect(await count(f, "holding WHERE portfolio_id = $1 AND symbol = 'ART'", f.ids.portfolioId)).toBe(1),
  },
  updateHolding: {
    outcome: "every",
    after: async (f) => expect(await f.value("SELECT notes FROM holding WHERE id = $1", f.ids.holdingId)).toBe("noted"),
  },
  deleteHolding: {
    outcome: 404,
    after: async (f) => {
      expect(await count(f, "holding WHERE id = $1", f.ids.holdingId)).toBe(0);
      expect(await count(f, "trade WHERE holding_id = $1", f.ids.holdingId)).toBe(0);
    },
  },
  changeHoldingSymbol: {
    outcome: "every",
    after: async (f) => {
      expect(await f.value("SELECT symbol FROM holding WHERE id = $1", f.ids.holdingId)).toBe("CBA2");
      // The nine that came second found the change made: one ticker change, from the old symbol.
      expect((await f.get(`/v1/holdings/${f.ids.holdingId}`)).symbol).toBe("CBA2");
      const changes = await count(f, "holding_symbol_change WHERE holding_id = $1", f.ids.holdingId);
      const from = await f.value(
        "SELECT string_agg(from_symbol || '>' || to_symbol, ',') FROM holding_symbol_change WHERE holding_id = $1",
        f.ids.holdingId,
      );
      expect({ changes, from }).toEqual({ changes: 1, from: "CBA>CBA2" });
    },
  },
  createTrade: {
    outcome: "every",
    setup: async (f) =>
      void (await f.value(
        "UPDATE cash_account SET sync_trades = true WHERE id = $1 RETURNING id",
        f.ids.cashAccountId,
      )),
    after: async (f) => {
      expect(await quantity(f)).toBe(100 + N);
      expect(await count(f, "trade WHERE holding_id = $1", f.ids.holdingId)).toBe(1 + N);
      // 1000 deposited, 100 × 100 for the first buy, then ten buys of 1 × 1.
      expect(await balance(f)).toBe(1000 - 100 * 100 - N);
    },
  },
  updateTrade: {
    outcome: "every",
    after: async (f) => {
      expect(await f.value("SELECT price::text FROM trade WHERE id = $1", f.ids.tradeId)).toBe("101.00000000");
      expect(await count(f, "trade WHERE holding_id = $1", f.ids.holdingId)).toBe(1);
      expect(await quantity(f)).toBe(100);
    },
  },
  deleteTrade: {
    outcome: 404,
    after: async (f) => {
      expect(await count(f, "trade WHERE holding_id = $1", f.ids.holdingId)).toBe(0);
      expect(await quantity(f)).toBe(0);
    },
  },
  importTrades: {
    // The same file ten times: the first imports, the other nine find its trade recorded (duplicates=error).
    outcome: 409,
    after: async (f) => {
      expect(await quantity(f)).toBe(100 + 1);
      expect(await count(f, "holding WHERE portfolio_id = $1 AND symbol = 'CBA'", f.ids.portfolioId)).toBe(1);
    },
  },
  uploadTradeAttachment: {
    outcome: "every",
    after: async (f) =>
      expect(
        await f.value("SELECT string_agg(file_name, ',') FROM trade_attachment WHERE trade_id = $1", f.ids.tradeId),
      ).toBe("other.pdf"),
  },
  deleteTradeAttachment: {
    outcome: 404,
    after: async (f) => expect(await count(f, "trade_attachment WHERE trade_id = $1", f.ids.tradeId)).toBe(0),
  },
  createIncome: {
    outcome: "every",
    after: async (f) => expect(await count(f, "income WHERE holding_id = $1", f.ids.holdingId)).toBe(1 + N),
  },
  updateIncome: {
    outcome: "every",
    after: async (f) => {
      expect(await count(f, "income WHERE holding_id = $1", f.ids.holdingId)).toBe(1);
      expect(await f.value("SELECT franked_amount::text FROM income WHERE id = $1", f.ids.incomeId)).toBe("216.0000");
    },
  },
  confirmIncome: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT is_confirmed FROM income WHERE id = $1", f.ids.incomeId)).toBe(true),
  },
  deleteIncome: {
    outcome: 404,
    after: async (f) => expect(await count(f, "income WHERE holding_id = $1", f.ids.holdingId)).toBe(0),
  },
  updateProRataDistributions: {
    outcome: "every",
    after: async (f) =>
      expect(
        await f.value("SELECT components->>'nonPrimaryProductionIncome' FROM income WHERE id = $1", f.ids.incomeId),
      ).toBe("10"),
  },
  createCashAccount: {
    outcome: "every",
    after: async (f) => expect(await count(f, "cash_account WHERE portfolio_id = $1", f.ids.portfolioId)).toBe(1 + N),
  },
  updateCashAccount: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT name FROM cash_account WHERE id = $1", f.ids.cashAccountId)).toBe("Renamed cash"),
  },
  deleteCashAccount: {
    outcome: 404,
    after: async (f) => {
      expect(await count(f, "cash_account WHERE portfolio_id = $1", f.ids.portfolioId)).toBe(0);
      expect(await count(f, "cash_transaction WHERE cash_account_id = $1", f.ids.cashAccountId)).toBe(0);
    },
  },
  createCashTransaction: { outcome: "every", after: async (f) => expect(await balance(f)).toBe(1000 + 5 * N) },
  updateCashTransaction: { outcome: "every", after: async (f) => expect(await balance(f)).toBe(6) },
  deleteCashTransaction: { outcome: 404, after: async (f) => expect(await balance(f)).toBe(0) },
  addCustomPrice: {
    outcome: 409,
    after: async (f) =>
      expect(await count(f, "custom_price WHERE date = '2024-07-31' AND holding_id = $1", f.ids.holdingId)).toBe(1),
  },
  addCustomPrices: {
    outcome: 409,
    after: async (f) =>
      expect(await count(f, "custom_price WHERE date = '2024-08-31' AND holding_id = $1", f.ids.holdingId)).toBe(1),
  },
  updateCustomPrice: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT price::text FROM custom_price WHERE id = $1", f.ids.priceId)).toBe("2.00000000"),
  },
  deleteCustomPrice: {
    outcome: 404,
    after: async (f) => expect(await count(f, "custom_price WHERE id = $1", f.ids.priceId)).toBe(0),
  },
  upsertMarketPrices: {
    outcome: "every",
    after: async (f) =>
      expect(await count(f, "market_price WHERE account_id = $1 AND close = 120", f.ids.accountId)).toBe(1),
  },
  upsertFxRates: {
    outcome: "every",
    after: async (f) => expect(await count(f, "fx_rate WHERE account_id = $1 AND rate = 1.5", f.ids.accountId)).toBe(1),
  },
  createClient: {
    outcome: "every",
    after: async (f) => expect(await count(f, "client WHERE account_id = $1", f.ids.accountId)).toBe(1 + N),
  },
  updateClient: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT last_name FROM client WHERE id = $1", f.ids.clientId)).toBe("Citizen-Smith"),
  },
  deleteClient: {
    outcome: 404,
    after: async (f) => expect(await count(f, "client WHERE account_id = $1", f.ids.accountId)).toBe(0),
  },
  assignClientPortfolios: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT client_id FROM portfolio WHERE id = $1", f.ids.portfolioId)).toBe(f.ids.clientId),
  },
  createClientApiKey: {
    outcome: "every",
    after: async (f) => expect(await count(f, "api_key WHERE client_id = $1", f.ids.clientId)).toBe(N),
  },
  revokeClientApiKeys: {
    outcome: "every",
    setup: async (f) => {
      for (let i = 0; i < 2; i++)
        await t.http.post(`/v1/clients/${f.ids.clientId}/api-keys`).set("authorization", f.key).expect(201);
    },
    after: async (f) => expect(await count(f, "api_key WHERE client_id = $1", f.ids.clientId)).toBe(0),
  },
  createCustomGroup: {
    outcome: 409,
    after: async (f) =>
      expect(await count(f, "custom_group WHERE account_id = $1 AND name = 'Another'", f.ids.accountId)).toBe(1),
  },
  updateCustomGroup: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT array_length(labels, 1) FROM custom_group WHERE id = $1", f.ids.groupId)).toBe(3),
  },
  deleteCustomGroup: {
    outcome: 404,
    after: async (f) => expect(await count(f, "custom_group WHERE account_id = $1", f.ids.accountId)).toBe(0),
  },
  setCustomGroupAssignments: {
    outcome: "every",
    after: async (f) => expect(await count(f, "custom_group_assignment WHERE group_id = $1", f.ids.groupId)).toBe(1),
  },
  updateTaxSettings: {
    outcome: "every",
    after: async (f) =>
      expect(await f.value("SELECT default_method::text FROM portfolio WHERE id = $1", f.ids.portfolioId)).toBe("FIFO"),
  },
  saveAllocationModel: {
    outcome: "every",
    after: async (f) =>
      expect(await count(f, "allocation_model WHERE portfolio_id = $1", f.ids.portfolioId)).toBe(1 + N),
  },
  deleteAllocationModel: {
    outcome: 404,
    after: async (f) =>
      expect(
        await count(
          f,
          "allocation_model WHERE public_id = $1 AND deleted_at IS NOT NULL AND NOT is_active",
          f.ids.publicId,
        ),
      ).toBe(1),
  },
  activateAllocationModel: {
    outcome: "every",
    after: async (f) =>
      expect(
        await f.value(
          "SELECT string_agg(public_id, ',') FROM allocation_model WHERE portfolio_id = $1 AND is_active",
          f.ids.portfolioId,
        ),
      ).toBe(f.ids.publicId),
  },
};

const writes = endpoints.filter(isWrite);

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

it("every write has a case", () => {
  expect(writes.filter((e) => !(e.operationId in CASES)).map((e) => e.operationId)).toEqual([]);
  expect(Object.keys(CASES).filter((id) => !writes.some((e) => e.operationId === id))).toEqual([]);
});

describe.each(writes.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))("%s ×10 at once", (_name, e) => {
  it("answers no 5xx and leaves the state one request would, or each in turn", async () => {
    const c = CASES[e.operationId];
    const f = await freshFixture();
    await c.setup?.(f);
    const results = await Promise.all(Array.from({ length: N }, () => f.send(e)));
    const answers = results.map((r) => (r.status < 300 ? String(r.status) : `${r.status} ${r.body.code}`));
    const ok = String(e.status ?? 200);
    const expected =
      c.outcome === "every" ? Array(N).fill(ok) : [ok, ...Array(N - 1).fill(`${c.outcome} ${CODE[c.outcome]}`)];
    const unexpected = results.filter((r) => r.status >= 500).map((r) => r.text.slice(0, 200));
    expect({ answers: answers.sort(), unexpected }).toEqual({ answers: expected.sort(), unexpected: [] });
    await c.after(f);
  });
});

it("different writes at once on one portfolio: no 5xx, no deadlock, and the ledger folds", async () => {
  const f = await freshFixture();
  const mixed = [
    "createTrade",
    "updateTrade",
    "importTrades",
    "changeHoldingSymbol",
    "updateTaxSettings",
    "createIncome",
    "updateIncome",
    "updateProRataDistributions",
    "updateHolding",
    "setCustomGroupAssignments",
    "saveAllocationModel",
    "activateAllocationModel",
    "createCashTransaction",
  ];
  const requests = mixed.flatMap((id) => Array.from({ length: 3 }, () => writes.find((e) => e.operationId === id)!));
  const results = await Promise.all(
    requests.map((e) =>
      f.send(e).then((r) => `${e.operationId} ${r.status}${r.status >= 300 ? " " + r.text.slice(0, 200) : ""}`),
    ),
  );
  // Three equal imports of CBA.ASX: each one either imports or is refused as a duplicate (409) of
  // one before it. Which happens depends on the interleaving with the ticker change (CBA → CBA2):
  // an import after it names no recorded holding, so it opens a new CBA holding, rightly.
  expect(results.filter((r) => !/ 20[01]$/.test(r) && !/^importTrades 409 /.test(r))).toEqual([]);
  const imported = results.filter((r) => /^importTrades 20[01]$/.test(r)).length;
  expect(imported).toBeGreaterThanOrEqual(1);
  const duplicates = await f.value(
    "SELECT count(*)::int FROM (SELECT holding_id FROM trade WHERE portfolio_id = $1 AND trade_date = '2024-02-02' GROUP BY holding_id HAVING count(*) > 1) d",
    f.ids.portfolioId,
  );
  expect(duplicates).toBe(0);
  // Every holding still folds and values: the ledger stayed consistent under the interleaving.
  const { body: holdings } = await t.http
    .get(`/v1/portfolios/${f.ids.portfolioId}/holdings?includeClosed=true`)
    .set("authorization", f.key)
    .expect(200);
  const total = holdings
    .filter((h: { exchange: string }) => h.exchange === "ASX")
    .reduce((s: number, h: { quantity: number }) => s + h.quantity, 0);
  expect(total).toBe(100 + 3 + imported);
});

// PGlite has one connection: its transactions queue and cannot deadlock.
(process.env.TEST_DATABASE_URL ? it : it.skip)(
  "a deadlock that slips past the lock order answers 409 CONFLICT, never 500",
  async () => {
    const key = await t.newAccount();
    const [a, b] = await Promise.all(
      ["A", "B"].map(
        async (name) =>
          (
            await t.http
              .post("/v1/clients")
              .set("authorization", key)
              .send({ firstName: name, lastName: "X" })
              .expect(201)
          ).body.id as number,
      ),
    );
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (const raw of [true, false]) {
      const cross = (first: number, second: number) =>
        t.db.prisma.$transaction(
          async (tx) => {
            for (const id of [first, second]) {
              if (raw) await tx.$executeRaw`UPDATE client SET last_name = 'Y' WHERE id = ${id}`;
              else await tx.client.update({ where: { id }, data: { lastName: "Y" } });
              await sleep(200);
            }
          },
          { maxWait: 5_000, timeout: 10_000 },
        );
      const outcomes = await Promise.allSettled([cross(a, b), cross(b, a)]);
      const failures = outcomes.flatMap((o) => (o.status === "rejected" ? [toDomainError(o.reason).code] : []));
      expect(failures).toEqual(["CONFLICT"]);
    }
  },
);

it("a holding deleted while others write to it: each write lands before the delete or answers 404", async () => {
  for (let round = 0; round < 3; round++) {
    const f = await freshFixture();
    const onHolding = [
      "createTrade",
      "createIncome",
      "changeHoldingSymbol",
      "updateHolding",
      "addCustomPrice",
      "setCustomGroupAssignments",
      "updateProRataDistributions",
      "updateTaxSettings",
    ];
    const requests = [...onHolding, "deleteHolding", ...onHolding].map((id) =>
      writes.find((e) => e.operationId === id)!,
    );
    const results = await Promise.all(
      requests.map((e) =>
        f.send(e).then((r) => `${e.operationId} ${r.status}${r.status >= 300 ? " " + r.text.slice(0, 200) : ""}`),
      ),
    );
    expect(results.filter((r) => !/ (20[014]|404 .*NOT_FOUND.*|409 .*CONFLICT.*)$/.test(r))).toEqual([]);
    expect(results.filter((r) => r.startsWith("deleteHolding "))).toEqual(["deleteHolding 204"]);
    expect(await count(f, "holding WHERE id = $1", f.ids.holdingId)).toBe(0);
    expect(await count(f, "trade WHERE holding_id = $1", f.ids.holdingId)).toBe(0);
    expect(await count(f, "custom_group_assignment WHERE holding_id = $1", f.ids.holdingId)).toBe(0);
  }
});
