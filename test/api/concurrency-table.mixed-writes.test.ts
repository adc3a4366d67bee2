import { toDomainError } from "../../src/lib/to-domain-error";
import { useTestApp } from "../support/app";
import { count, writes, concurrencyFixture } from "./concurrency-table.fixture";

/**
 * Different writes at once on one portfolio: no 5xx and no deadlock (one that slips past the lock
 * order is a 409 CONFLICT), the ledger folds, and a holding deleted while others write to it takes
 * each write before the delete or answers 404.
 */

const t = useTestApp({ reset: "none" });
const { freshFixture } = concurrencyFixture(t);

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
