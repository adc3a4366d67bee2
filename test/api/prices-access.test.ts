import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectAbsent, expectError, expectOk } from "../support/outcomes";
import { pricesApi } from "./prices.transports";

/**
 * Who may see and change prices: tenant isolation and client keys.
 * (Split from prices.test.ts by story; the transports and setup functions are in ./prices.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { newHolding, rest, graphql } = pricesApi(t);

describe.each([rest, graphql])("prices over $name", (tr) => {
  describe("tenant isolation", () => {
    it("keeps each account's prices and rates to itself and hides its custom prices like missing ones", async () => {
      const other = await t.newAccount();
      const { holdingId } = await newHolding(other);
      const theirs = expectOk(await tr.addCustom(other, holdingId, { date: "2024-01-31", price: 5 }));
      expectOk(await tr.upsertMarket(other, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 }]));
      expectOk(await tr.upsertFx(other, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 }]));
      const before = await ledgerSnapshot(t.db);

      expect(expectOk(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX" }))).toEqual([]);
      expect(expectOk(await tr.listFx(key, { base: "USD", quote: "AUD" }))).toEqual([]);
      expectError(await tr.listCustom(key, holdingId), "NOT_FOUND", 404);
      expectAbsent(await tr.getCustom(key, theirs.id));
      expectError(await tr.addCustom(key, holdingId, { date: "2024-02-29", price: 1 }), "NOT_FOUND", 404);
      expectError(await tr.addCustomBulk(key, holdingId, [{ date: "2024-02-29", price: 1 }]), "NOT_FOUND", 404);
      expectError(await tr.updateCustom(key, theirs.id, { price: 1 }), "NOT_FOUND", 404);
      expectError(await tr.deleteCustom(key, theirs.id), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);

      // The same key in my account is a row of my own; theirs keeps its close.
      expectOk(await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 200 }]));
      expect(expectOk(await tr.listMarket(other, { symbol: "CBA", exchange: "ASX" }))[0].close).toBe("100");
      expect(expectOk(await tr.listMarket(key, { symbol: "CBA", exchange: "ASX" }))[0].close).toBe("200");
    });
  });

  describe("client keys", () => {
    it("a Read key reads its holdings' prices and the account's prices and rates, and writes nothing (403)", async () => {
      const { holdingId, portfolioId } = await newHolding(key);
      const hidden = await newHolding(key);
      const p = expectOk(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 5 }));
      const hiddenPrice = expectOk(await tr.addCustom(key, hidden.holdingId, { date: "2024-01-31", price: 6 }));
      expectOk(await tr.upsertMarket(key, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-02", close: 100 }]));
      expectOk(await tr.upsertFx(key, [{ base: "USD", quote: "AUD", date: "2024-01-02", rate: 1.5 }]));
      const reader = await t.newClientKey(key, "Read", [portfolioId]);
      const before = await ledgerSnapshot(t.db);

      expect(expectOk(await tr.listCustom(reader, holdingId))).toEqual([p]);
      expect(expectOk(await tr.getCustom(reader, p.id))).toEqual(p);
      expectAbsent(await tr.getCustom(reader, hiddenPrice.id));
      expectError(await tr.listCustom(reader, hidden.holdingId), "NOT_FOUND", 404);
      expect(expectOk(await tr.listMarket(reader, { symbol: "CBA", exchange: "ASX" }))).toHaveLength(1);
      expect(expectOk(await tr.listFx(reader, { base: "USD", quote: "AUD" }))).toHaveLength(1);

      expectError(await tr.addCustom(reader, holdingId, { date: "2024-02-29", price: 1 }), "FORBIDDEN", 403);
      expectError(await tr.addCustomBulk(reader, holdingId, [{ date: "2024-02-29", price: 1 }]), "FORBIDDEN", 403);
      expectError(await tr.updateCustom(reader, p.id, { price: 1 }), "FORBIDDEN", 403);
      expectError(await tr.deleteCustom(reader, p.id), "FORBIDDEN", 403);
      expectError(
        await tr.upsertMarket(reader, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 1 }]),
        "FORBIDDEN",
        403,
      );
      expectError(
        await tr.upsertFx(reader, [{ base: "USD", quote: "AUD", date: "2024-01-03", rate: 1 }]),
        "FORBIDDEN",
        403,
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a ReadWrite key changes its holdings' custom prices, but never the account's market prices or rates (403)", async () => {
      const { holdingId, portfolioId } = await newHolding(key);
      const writer = await t.newClientKey(key, "ReadWrite", [portfolioId]);
      const p = expectOk(await tr.addCustom(writer, holdingId, { date: "2024-01-31", price: 5 }));
      expect(expectOk(await tr.addCustomBulk(writer, holdingId, [{ date: "2024-02-29", price: 6 }]))).toHaveLength(1);
      expect(expectOk(await tr.updateCustom(writer, p.id, { price: 7 })).price).toBe("7");
      expect(expectOk(await tr.deleteCustom(writer, p.id))).toBe(true);
      const before = await ledgerSnapshot(t.db);
      expectError(
        await tr.upsertMarket(writer, [{ symbol: "CBA", exchange: "ASX", date: "2024-01-03", close: 1 }]),
        "FORBIDDEN",
        403,
      );
      expectError(
        await tr.upsertFx(writer, [{ base: "USD", quote: "AUD", date: "2024-01-03", rate: 1 }]),
        "FORBIDDEN",
        403,
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });
});
