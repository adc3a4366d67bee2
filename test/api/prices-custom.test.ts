import { ledgerSnapshot, useTestApp } from "../support/app";
import { expectAbsent, expectError, expectInvalidInOrder, expectOk } from "../support/outcomes";
import { auth, pricesApi } from "./prices.transports";

/**
 * Custom prices of a custom investment, one at a time and in bulk.
 * (Split from prices.test.ts by story; the transports and setup functions are in ./prices.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, newHolding, rest, graphql } = pricesApi(t);

describe.each([rest, graphql])("prices over $name", (tr) => {
  describe("custom prices", () => {
    it("adds, lists oldest first, gets, updates and deletes prices", async () => {
      const { holdingId } = await newHolding(key);
      const o = await tr.addCustom(key, holdingId, { date: "2024-06-30", price: "512000.12345678" });
      const june = expectOk(o);
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res.body).sort()).toEqual(["date", "holdingId", "id", "price"]);
      }
      expect(june).toEqual({ id: expect.any(Number), holdingId, date: "2024-06-30", price: "512000.12345678" });
      const jan = expectOk(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 480000 }));
      expect(expectOk(await tr.listCustom(key, holdingId))).toEqual([jan, june]);
      expect(expectOk(await tr.getCustom(key, june.id))).toEqual(june);

      const repriced = expectOk(await tr.updateCustom(key, june.id, { price: "515000" }));
      expect(repriced).toEqual({ ...june, price: "515000" });
      const moved = expectOk(await tr.updateCustom(key, june.id, { date: "2024-07-01" }));
      expect(moved).toEqual({ ...repriced, date: "2024-07-01" });
      expect(expectOk(await tr.updateCustom(key, june.id, {}))).toEqual(moved);

      expect(expectOk(await tr.deleteCustom(key, jan.id))).toBe(true);
      expectAbsent(await tr.getCustom(key, jan.id));
      expectError(await tr.deleteCustom(key, jan.id), "NOT_FOUND", 404);
      expectError(await tr.updateCustom(key, jan.id, { price: 1 }), "NOT_FOUND", 404);
      expect(expectOk(await tr.listCustom(key, holdingId))).toEqual([moved]);
    });

    it("keeps one price per holding per date (409), on add and on update", async () => {
      const { holdingId, portfolioId } = await newHolding(key);
      const a = expectOk(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 1 }));
      const b = expectOk(await tr.addCustom(key, holdingId, { date: "2024-02-29", price: 2 }));
      // Another holding may have a price on the same date.
      const other = await t.http
        .post(`/v1/portfolios/${portfolioId}/holdings`)
        .set(auth(key))
        .send({ symbol: "ART", name: "Painting" });
      expectOk(await tr.addCustom(key, other.body.id, { date: "2024-01-31", price: 3 }));
      const before = await ledgerSnapshot(t.db);
      const dup = await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 9 });
      expectError(dup, "CONFLICT", 409);
      expect(dup.message).toContain("2024-01-31");
      expectError(await tr.updateCustom(key, b.id, { date: "2024-01-31" }), "CONFLICT", 409);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      // Updating a price to its own date is no conflict.
      expect(expectOk(await tr.updateCustom(key, a.id, { date: "2024-01-31", price: 4 }))).toEqual({
        ...a,
        price: "4",
      });
    });

    it.each([
      ["a negative price", { date: "2024-01-02", price: -1 }, ["price"]],
      ["9 decimals", { date: "2024-01-02", price: "1.123456789" }, ["price"]],
      ["a price beyond DECIMAL(24,8)", { date: "2024-01-02", price: "10000000000000000" }, ["price"]],
      ["a bad date", { date: "2024-02-30", price: 1 }, ["date"]],
      ["both", { date: "31/01/2024", price: "abc" }, ["date", "price"]],
    ])("rejects %s, writing nothing", async (_label, input, paths) => {
      const { holdingId } = await newHolding(key);
      const p = expectOk(await tr.addCustom(key, holdingId, { date: "2024-01-01", price: 1 }));
      const before = await ledgerSnapshot(t.db);
      expectInvalidInOrder(await tr.addCustom(key, holdingId, input), paths);
      expectInvalidInOrder(await tr.updateCustom(key, p.id, input), paths);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for unknown holdings and prices, and rejects malformed ids", async () => {
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.listCustom(key, 999999), "NOT_FOUND", 404);
      expectError(await tr.addCustom(key, 999999, { date: "2024-01-02", price: 1 }), "NOT_FOUND", 404);
      expectError(await tr.addCustomBulk(key, 999999, [{ date: "2024-01-02", price: 1 }]), "NOT_FOUND", 404);
      expectAbsent(await tr.getCustom(key, 999999));
      expectInvalidInOrder(await tr.listCustom(key, "abc"), ["holdingId"]);
      expectInvalidInOrder(await tr.getCustom(key, "0"), ["priceId"]);
      expectInvalidInOrder(await tr.deleteCustom(key, "1.5"), ["priceId"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("custom prices in bulk", () => {
    it("adds every row and answers them oldest first", async () => {
      const { holdingId } = await newHolding(key);
      const existing = expectOk(await tr.addCustom(key, holdingId, { date: "2023-12-31", price: 90 }));
      const o = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-03-31", price: "103.5" },
        { date: "2024-01-31", price: 101 },
        { date: "2024-02-29", price: "102.25" },
      ]);
      if (tr.name === "REST") expect(o.status).toBe(201);
      const added = expectOk(o);
      expect(added.map((p) => [p.date, p.price])).toEqual([
        ["2024-01-31", "101"],
        ["2024-02-29", "102.25"],
        ["2024-03-31", "103.5"],
      ]);
      expect(added.every((p) => p.holdingId === holdingId && Number.isInteger(p.id))).toBe(true);
      expect(expectOk(await tr.listCustom(key, holdingId))).toEqual([existing, ...added]);
    });

    it("refuses dates repeated in the body or already priced (409 naming them and their lines), writing nothing", async () => {
      const { holdingId } = await newHolding(key);
      expectOk(await tr.addCustom(key, holdingId, { date: "2024-01-31", price: 1 }));
      const before = await ledgerSnapshot(t.db);
      const repeated = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-02-29", price: 1 },
        { date: "2024-03-31", price: 2 },
        { date: "2024-02-29", price: 3 },
      ]);
      expectError(repeated, "CONFLICT", 409);
      expect(repeated.message).toContain("2024-02-29");
      expect(repeated.message).not.toContain("2024-03-31");
      // Each conflict names its row's line, as a bad row does (the third row is line 3).
      expect(repeated.errors).toEqual([
        { path: "line 3.date", message: "repeats line 1: one price per holding per date", line: 3 },
      ]);
      const taken = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-04-30", price: 1 },
        { date: "2024-01-31", price: 2 },
      ]);
      expectError(taken, "CONFLICT", 409);
      expect(taken.message).toContain("2024-01-31");
      expect(taken.message).not.toContain("2024-04-30");
      expect(taken.errors).toEqual([
        { path: "line 2.date", message: "is 2024-01-31, a date the holding already has a price on", line: 2 },
      ]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("refuses bad rows (400 naming each), writing none of the good ones", async () => {
      const { holdingId } = await newHolding(key);
      const before = await ledgerSnapshot(t.db);
      const o = await tr.addCustomBulk(key, holdingId, [
        { date: "2024-01-31", price: 1 },
        { date: "2024-02-29", price: -1 },
        { date: "2024-02-30", price: 1 },
        { date: "2024-04-30", price: "1.123456789" },
      ]);
      expectInvalidInOrder(o, ["line 2.price", "line 3.date", "line 4.price"]);
      expectInvalidInOrder(await tr.addCustomBulk(key, holdingId, []), ["(body)"]);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("takes up to 10,000 rows at once, not 10,001", async () => {
      const { holdingId } = await newHolding(key);
      const rows = (n: number) =>
        Array.from({ length: n }, (_, i) => ({
          date: new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10),
          price: i + 1,
        }));
      expectError(await tr.addCustomBulk(key, holdingId, rows(10_001)), "PAYLOAD_TOO_LARGE", 413);
      expect(await count("custom_price")).toBe(0);
      expect(expectOk(await tr.addCustomBulk(key, holdingId, rows(10_000)))).toHaveLength(10_000);
      expect(await count("custom_price")).toBe(10_000);
    });
  });
});
