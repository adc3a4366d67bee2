import { ledgerSnapshot, useTestApp } from "../support/app";
import { ISO_UTC } from "../support/kit";
import { expectError, expectInvalid } from "../support/outcomes";
import { PORTFOLIO_KEYS, created, BAD_FIELDS, portfoliosApi } from "./portfolios.transports";

/**
 * Creating and updating portfolios, over REST and GraphQL.
 * (Split from portfolios.test.ts by story; the transports and setup functions are in ./portfolios.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { count, rest, graphql } = portfoliosApi(t);

describe.each([rest, graphql])("portfolios over $name", (tr) => {
  describe("create", () => {
    it("answers the new portfolio with the documented defaults (AUD, AU, Individual, 06-30)", async () => {
      const o = await tr.create(key, { name: "Retirement" });
      expect(o.code).toBeUndefined();
      if (tr.name === "REST") {
        expect(o.status).toBe(201);
        expect(Object.keys(o.res.body).sort()).toEqual(PORTFOLIO_KEYS);
      }
      expect(o.data).toEqual({
        id: expect.any(Number),
        name: "Retirement",
        dateCreated: expect.stringMatching(ISO_UTC),
        baseCurrencyCode: "AUD",
        taxResidency: "AU",
        entityType: "Individual",
        financialYearEnd: "06-30",
      });
      expect(Number.isInteger(o.data!.id) && o.data!.id > 0).toBe(true);
      expect(new Date(o.data!.dateCreated).toISOString()).toBe(o.data!.dateCreated);
      // What was answered is what was stored.
      expect((await rest.get(key, o.data!.id)).data).toEqual(o.data);
      expect(await count("portfolio")).toBe(1);
    });

    it("keeps every field given explicitly", async () => {
      const p = await created(tr, key, {
        name: "Family trust",
        baseCurrencyCode: "USD",
        taxResidency: "US",
        entityType: "Trust",
        financialYearEnd: "09-30",
      });
      expect(p).toMatchObject({
        name: "Family trust",
        baseCurrencyCode: "USD",
        taxResidency: "US",
        entityType: "Trust",
        financialYearEnd: "09-30",
      });
      expect((await rest.get(key, p.id)).data).toEqual(p);
    });

    it("defaults the financial year end from the tax residency (NZ 03-31, GB 04-05, other 12-31)", async () => {
      expect(
        (await created(tr, key, { name: "Kiwi", taxResidency: "NZ", baseCurrencyCode: "NZD" })).financialYearEnd,
      ).toBe("03-31");
      expect(
        (await created(tr, key, { name: "UK", taxResidency: "GB", baseCurrencyCode: "GBP" })).financialYearEnd,
      ).toBe("04-05");
      expect(
        (await created(tr, key, { name: "US", taxResidency: "US", baseCurrencyCode: "USD" })).financialYearEnd,
      ).toBe("12-31");
      // An explicit year end wins over the residency's default.
      expect(
        (await created(tr, key, { name: "Kiwi 2", taxResidency: "NZ", financialYearEnd: "06-30" })).financialYearEnd,
      ).toBe("06-30");
    });

    it("accepts each entity type and a name of exactly 200 characters", async () => {
      for (const entityType of ["Individual", "Trust", "SMSF", "Company"]) {
        expect((await created(tr, key, { name: entityType, entityType })).entityType).toBe(entityType);
      }
      expect((await created(tr, key, { name: "n".repeat(200) })).name).toBe("n".repeat(200));
    });

    it.each(BAD_FIELDS)(
      "rejects %s with VALIDATION_FAILED naming the field, writing nothing",
      async (_label, fields, path) => {
        const before = await ledgerSnapshot(t.db);
        expectInvalid(await tr.create(key, { name: "Valid name", ...fields }), path);
        expect(await ledgerSnapshot(t.db)).toBe(before);
      },
    );

    it("rejects an input without a name, writing nothing", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { baseCurrencyCode: "AUD" });
      if (tr.name === "REST") expectInvalid(o, "name");
      // GraphQL: name is String! in CreatePortfolioInput, so the schema rejects it first.
      else expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it('rejects entityType "Person", writing nothing', async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, { name: "P", entityType: "Person" });
      if (tr.name === "REST") expectInvalid(o, "entityType");
      else {
        // An enum value GraphQL itself refuses: BAD_USER_INPUT is its spelling of VALIDATION_FAILED
        // (docs/conventions.md §9.3).
        expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
        expect(o.res.body.errors[0].message).toContain("entityType");
      }
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("reports every bad field at once", async () => {
      const before = await ledgerSnapshot(t.db);
      const o = await tr.create(key, {
        name: "",
        baseCurrencyCode: "aud",
        taxResidency: "XX",
        financialYearEnd: "13-01",
      });
      expectError(o, "VALIDATION_FAILED", 400);
      expect(new Set(o.errors!.map((e) => e.path))).toEqual(
        new Set(["name", "baseCurrencyCode", "taxResidency", "financialYearEnd"]),
      );
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });

  describe("update", () => {
    it("renames, changes the entity type and the tax residency; absent fields stay as they are", async () => {
      const p = await created(tr, key, { name: "Old", entityType: "Individual" });

      const renamed = await tr.update(key, p.id, { name: "New" });
      expect(renamed.code).toBeUndefined();
      expect(renamed.data).toEqual({ ...p, name: "New" });

      const retyped = await tr.update(key, p.id, { entityType: "Company" });
      expect(retyped.data).toEqual({ ...p, name: "New", entityType: "Company" });

      // Changing the residency changes nothing else (the year end is only defaulted at creation).
      const moved = await tr.update(key, p.id, { taxResidency: "NZ" });
      expect(moved.data).toEqual({ ...p, name: "New", entityType: "Company", taxResidency: "NZ" });

      const yearEnd = await tr.update(key, p.id, { financialYearEnd: "03-31" });
      expect(yearEnd.data).toEqual({
        ...p,
        name: "New",
        entityType: "Company",
        taxResidency: "NZ",
        financialYearEnd: "03-31",
      });

      const nothing = await tr.update(key, p.id, {});
      expect(nothing.data).toEqual(yearEnd.data);

      expect((await rest.get(key, p.id)).data).toEqual(yearEnd.data);
      expect((await rest.get(key, p.id)).data!.dateCreated).toBe(p.dateCreated);
    });

    it("changes several fields at once", async () => {
      const p = await created(tr, key, { name: "Old" });
      const o = await tr.update(key, p.id, {
        name: "  Trimmed  ",
        entityType: "Trust",
        taxResidency: "GB",
        financialYearEnd: "04-05",
      });
      expect(o.data).toEqual({
        ...p,
        name: "Trimmed",
        entityType: "Trust",
        taxResidency: "GB",
        financialYearEnd: "04-05",
      });
    });

    it("accepts baseCurrencyCode equal to the current one", async () => {
      const p = await created(tr, key, { name: "USD book", baseCurrencyCode: "USD", taxResidency: "US" });
      const o = await tr.update(key, p.id, { baseCurrencyCode: "USD", name: "Still USD" });
      expect(o.code).toBeUndefined();
      expect(o.data).toEqual({ ...p, name: "Still USD" });
    });

    it("refuses a different baseCurrencyCode with 422 BUSINESS_RULE and writes nothing, not even the other fields", async () => {
      const p = await created(tr, key, { name: "AUD book" });
      const before = await ledgerSnapshot(t.db);
      const o = await tr.update(key, p.id, { baseCurrencyCode: "USD", name: "Renamed too" });
      expectError(o, "BUSINESS_RULE", 422);
      expect(await ledgerSnapshot(t.db)).toBe(before);
      expect((await rest.get(key, p.id)).data).toEqual(p);
    });

    it.each(BAD_FIELDS)(
      "rejects %s with VALIDATION_FAILED naming the field, writing nothing",
      async (_label, fields, path) => {
        const p = await created(tr, key, { name: "Unchanged" });
        const before = await ledgerSnapshot(t.db);
        expectInvalid(await tr.update(key, p.id, { ...fields }), path);
        expect(await ledgerSnapshot(t.db)).toBe(before);
        expect((await rest.get(key, p.id)).data).toEqual(p);
      },
    );

    it('rejects entityType "Person", writing nothing', async () => {
      const p = await created(tr, key, { name: "Unchanged" });
      const before = await ledgerSnapshot(t.db);
      const o = await tr.update(key, p.id, { entityType: "Person" });
      if (tr.name === "REST") expectInvalid(o, "entityType");
      else expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("answers NOT_FOUND for an id that does not exist, and rejects a malformed id", async () => {
      await created(tr, key, { name: "One" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(key, 999999, { name: "x" }), "NOT_FOUND", 404);
      expectInvalid(await tr.update(key, "abc", { name: "x" }), "portfolioId");
      expectInvalid(await tr.update(key, "0", { name: "x" }), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });
});
