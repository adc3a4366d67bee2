import { useTestApp } from "../support/app";
import { type Fixture, count, writes, concurrencyFixture } from "./concurrency-table.fixture";

/**
 * Ten identical requests at once on every REST write, each over a fresh account's fixture: none
 * answers 5xx, and the state afterwards is what the domain says ten identical requests leave (ten
 * creates make ten rows, or one and nine CONFLICTs where a name or date is unique; one delete
 * wins and nine answer 404; a repeated change is recorded once). On PostgreSQL the requests
 * really run at once; on PGlite (one connection) they queue, and the same outcome must hold.
 */

const t = useTestApp({ reset: "none" });
const { freshFixture } = concurrencyFixture(t);

/**
 * Ten identical requests at once on every REST write, each over a fresh account's fixture: none
 * answers 5xx, and the state afterwards is what the domain says ten identical requests leave (ten
 * creates make ten rows, or one and nine CONFLICTs where a name or date is unique; one delete
 * wins and nine answer 404; a repeated change is recorded once). On PostgreSQL the requests
 * really run at once; on PGlite (one connection) they queue, and the same outcome must hold.
 */
const N = 10;

interface Case {
  /** `every`: all ten succeed; otherwise one succeeds and nine answer this status. */
  outcome: "every" | 404 | 409;
  setup?: (f: Fixture) => Promise<void>;
  after: (f: Fixture) => Promise<void>;
}

const CODE: Record<number, string> = { 404: "NOT_FOUND", 409: "CONFLICT" };
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
  // No duplicate rule for income: ten imports of one row write ten confirmed records.
  importIncome: {
    outcome: "every",
    after: async (f) =>
      expect(await count(f, "income WHERE holding_id = $1 AND is_confirmed", f.ids.holdingId)).toBe(N),
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
  // Every request answers 202 with a run's id: the one it started, or the one running then (the
  // test app's providers are none, so a run may end before the next request and another start).
  refreshMarketData: {
    outcome: "every",
    after: async (f) => {
      const runs = await count(f, "market_data_run WHERE true");
      expect(runs).toBeGreaterThanOrEqual(1);
      expect(runs).toBeLessThanOrEqual(N);
    },
  },
  // The first records the split's trade; the nine that waited on the portfolio's lock find it applied.
  applyCorporateAction: {
    outcome: 409,
    after: async (f) => {
      expect(await count(f, "trade WHERE holding_id = $1 AND trade_type = 'Split'", f.ids.holdingId)).toBe(1);
      expect(await quantity(f)).toBe(200);
      expect(await f.value("SELECT status::text FROM corporate_action WHERE id = $1", f.ids.corporateActionId)).toBe(
        "Applied",
      );
    },
  },
  dismissCorporateAction: {
    outcome: "every",
    after: async (f) => {
      expect(await f.value("SELECT status::text FROM corporate_action WHERE id = $1", f.ids.corporateActionId)).toBe(
        "Dismissed",
      );
      expect(await quantity(f)).toBe(100);
    },
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
  createApiKey: {
    outcome: "every",
    after: async (f) =>
      expect(await count(f, "api_key WHERE account_id = $1 AND client_id IS NULL", f.ids.accountId)).toBe(2 + N),
  },
  revokeApiKey: {
    outcome: 404,
    after: async (f) => {
      expect(await count(f, "api_key WHERE id = $1", f.ids.keyId)).toBe(0);
      expect(await count(f, "api_key WHERE account_id = $1", f.ids.accountId)).toBe(1);
    },
  },
  rotateApiKey: {
    outcome: 404,
    after: async (f) => {
      expect(await count(f, "api_key WHERE id = $1", f.ids.keyId)).toBe(0);
      expect(await count(f, "api_key WHERE account_id = $1 AND label = 'Spare'", f.ids.accountId)).toBe(1);
    },
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

it("every write has a case", () => {
  expect(writes.filter((e) => !(e.operationId in CASES)).map((e) => e.operationId)).toEqual([]);
  expect(Object.keys(CASES).filter((id) => !writes.some((e) => e.operationId === id))).toEqual([]);
});

/**
 * Each write's fixture, built before the first test: the fixtures are independent accounts, so they
 * are built a few at a time rather than one per test in turn. Every case reads only its own
 * fixture's rows (the market-data runs aside, which no fixture starts).
 */
const fixtures = new Map<string, Fixture>();
const FIXTURES_AT_ONCE = 4;
beforeAll(async () => {
  for (let i = 0; i < writes.length; i += FIXTURES_AT_ONCE)
    await Promise.all(
      writes.slice(i, i + FIXTURES_AT_ONCE).map(async (e) => void fixtures.set(e.operationId, await freshFixture())),
    );
}, 240_000);

describe.each(writes.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))("%s ×10 at once", (_name, e) => {
  it("answers no 5xx and leaves the state one request would, or each in turn", async () => {
    const c = CASES[e.operationId];
    const f = fixtures.get(e.operationId)!;
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
