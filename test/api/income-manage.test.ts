import { newTrade } from "../factories";
import { expectAbsent, expectError, expectInvalid, expectOk } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { cbaHolding, bhpHolding } from "../scenarios/holdings";
import { incomeApi } from "./income.transports";

/**
 * Managing income: confirm, get, list, update, delete, and pro-rata distributions.
 * (Split from income.test.ts by story; the transports and setup functions are in ./income.transports.ts.)
 */

const t = useTestApp();
let key: string;
let portfolioId: number;
/** CBA.ASX: 100 units bought at 100 on 2024-01-10 (cost base 10,000). */
let holdingId: number;
beforeEach(async () => {
  key = await t.newAccount();
  ({ portfolioId, holdingId } = await cbaHolding(t, key));
});
const { unchanged, rest, TRANSPORTS, seedIncome, dividend } = incomeApi(t, () => holdingId);

describe.each(TRANSPORTS)("income over $name", (tr) => {
  describe("confirm, get, list, update, delete", () => {
    it("confirm marks the record confirmed and changes nothing else", async () => {
      const r = await seedIncome(key, dividend({ frankedAmount: 700 }));
      const confirmed = expectOk(await tr.confirm(key, r.id), 200);
      expect(confirmed).toEqual({ ...r, isConfirmed: true });
      expect(expectOk(await tr.get(key, r.id))).toEqual(confirmed);
      // Confirming again is harmless.
      expect(expectOk(await tr.confirm(key, r.id))).toEqual(confirmed);
    });

    it("gets one record by id", async () => {
      const r = await seedIncome(key, dividend({ unfrankedAmount: "12.34", notes: "n" }));
      expect(expectOk(await tr.get(key, r.id), 200)).toEqual(r);
    });

    it("lists a holding's records by paid date (ties by id), and only that holding's", async () => {
      const other = await bhpHolding(t, key, portfolioId);
      const late = await seedIncome(
        key,
        dividend({ exDividendDate: "2024-08-01", paidDate: "2024-09-20", unfrankedAmount: 3 }),
      );
      const early = await seedIncome(
        key,
        dividend({ exDividendDate: "2024-02-01", paidDate: "2024-02-20", unfrankedAmount: 1 }),
      );
      const sameDay = await seedIncome(
        key,
        dividend({ exDividendDate: "2024-08-05", paidDate: "2024-09-20", unfrankedAmount: 4 }),
      );
      await seedIncome(key, {
        holdingId: other,
        exDividendDate: "2024-02-01",
        paidDate: "2024-03-01",
        unfrankedAmount: 2,
      });
      expect(expectOk(await tr.list(key, holdingId), 200)).toEqual([early, late, sameDay]);
      const empty = (
        await newTrade(t, key, {
          portfolioId,
          symbol: "WES",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 1,
          price: 50,
        })
      ).holdingId;
      expect(expectOk(await tr.list(key, empty))).toEqual([]);
    });

    it("update replaces the content, recomputes the derived amounts, and keeps the record on its holding", async () => {
      const r = await seedIncome(key, dividend({ frankedAmount: 700, notes: "first" }));
      const updated = expectOk(
        await tr.update(
          key,
          r.id,
          dividend({
            exDividendDate: "2024-02-15",
            paidDate: "2024-03-29",
            frankedAmount: 350,
            unfrankedAmount: 150,
            withholdingTax: 20,
            isTrustIncome: true,
          }),
        ),
        200,
      );
      expect(updated).toEqual({
        ...r,
        exDividendDate: "2024-02-15",
        paidDate: "2024-03-29",
        frankedAmount: "350",
        unfrankedAmount: "150",
        frankingCredits: "150",
        withholdingTax: "20",
        grossAmount: "500",
        netAmount: "480",
        isTrustIncome: true,
        notes: "",
      });
      expect(expectOk(await rest.get(key, r.id))).toEqual(updated);
    });

    it("update to another holdingId is refused with BUSINESS_RULE; a bad update with VALIDATION_FAILED; neither writes", async () => {
      const other = await bhpHolding(t, key, portfolioId);
      const r = await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      await unchanged(async () => {
        expectError(await tr.update(key, r.id, dividend({ holdingId: other, unfrankedAmount: 10 })), "BUSINESS_RULE");
        expectInvalid(await tr.update(key, r.id, dividend({ unfrankedAmount: 10, withholdingTax: 11 })), [
          "withholdingTax",
        ]);
        expectInvalid(await tr.update(key, r.id, dividend({ frankedAmount: 10, netAmount: 11 })), ["netAmount"]);
      });
      expect(expectOk(await tr.get(key, r.id))).toEqual(r);
    });

    it("delete answers 204 (true); the record is then gone", async () => {
      const r = await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      const keep = await seedIncome(key, dividend({ unfrankedAmount: 11 }));
      expect(expectOk(await tr.remove(key, r.id), 204)).toBe(true);
      expectAbsent(await tr.get(key, r.id));
      expectError(await tr.remove(key, r.id), "NOT_FOUND");
      expect(expectOk(await tr.list(key, holdingId))).toEqual([keep]);
    });

    it("update, confirm and delete of an id that does not exist: NOT_FOUND, nothing written", async () => {
      await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      await unchanged(async () => {
        expectError(await tr.update(key, 999999, dividend({ unfrankedAmount: 1 })), "NOT_FOUND");
        expectError(await tr.confirm(key, 999999), "NOT_FOUND");
        expectError(await tr.remove(key, 999999), "NOT_FOUND");
      });
      expectAbsent(await tr.get(key, 999999));
    });
  });

  describe("pro-rata distributions", () => {
    /** Four distributions of CBA: three in FY2025 (2024-07-01..2025-06-30), one just after it. */
    async function seedYear() {
      // Created out of ex-dividend order, so "last" has to mean the latest ex-dividend date.
      const june = await seedIncome(
        key,
        dividend({ exDividendDate: "2025-06-30", paidDate: "2025-07-20", foreignIncome: 350 }),
      );
      const sept = await seedIncome(
        key,
        dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", unfrankedAmount: 100 }),
      );
      // Weighted by gross (250), not net (200).
      const dec = await seedIncome(
        key,
        dividend({
          exDividendDate: "2024-12-31",
          paidDate: "2025-01-15",
          frankedAmount: 150,
          unfrankedAmount: 100,
          withholdingTax: 50,
        }),
      );
      const july = await seedIncome(
        key,
        dividend({ exDividendDate: "2025-07-01", paidDate: "2025-07-20", unfrankedAmount: 50 }),
      );
      return { june, sept, dec, july };
    }

    it("spreads FY2025's totals over its three distributions by gross amount; the parts add up exactly; the next year's is left alone", async () => {
      const { june, sept, dec, july } = await seedYear();
      const updated = expectOk(
        await tr.proRata(key, holdingId, 2025, { discountedCapitalGains: 100, nonPrimaryProductionIncome: "33.3333" }),
        200,
      );
      expect(updated).toEqual([
        {
          ...sept,
          isTrustIncome: true,
          components: { discountedCapitalGains: "14.2857", nonPrimaryProductionIncome: "4.7619" },
        },
        {
          ...dec,
          isTrustIncome: true,
          components: { discountedCapitalGains: "35.7143", nonPrimaryProductionIncome: "11.9048" },
        },
        {
          ...june,
          isTrustIncome: true,
          components: { discountedCapitalGains: "50", nonPrimaryProductionIncome: "16.6666" },
        },
      ]);
      for (const [name, total] of [
        ["discountedCapitalGains", 1_000_000],
        ["nonPrimaryProductionIncome", 333_333],
      ] as const) {
        // Sum in units of 0.0001, exactly.
        expect(updated.reduce((s, r) => s + Math.round(Number(r.components![name]) * 10_000), 0)).toBe(total);
      }
      for (const r of updated) expect(expectOk(await tr.get(key, r.id))).toEqual(r);
      expect(expectOk(await tr.get(key, july.id))).toEqual(july);
      expect(july).toMatchObject({ isTrustIncome: false, components: null });
    });

    it("a second statement for the year replaces the components", async () => {
      const { sept, dec, june } = await seedYear();
      expectOk(
        await tr.proRata(key, holdingId, 2025, { discountedCapitalGains: 100, nonPrimaryProductionIncome: "33.3333" }),
      );
      const again = expectOk(await tr.proRata(key, holdingId, 2025, { cgtConcessionAmount: 7 }));
      expect(again.map((r) => [r.id, r.components])).toEqual([
        [sept.id, { cgtConcessionAmount: "1" }],
        [dec.id, { cgtConcessionAmount: "2.5" }],
        [june.id, { cgtConcessionAmount: "3.5" }],
      ]);
    });

    it("a year without a distribution: BUSINESS_RULE, nothing written", async () => {
      await seedYear();
      await unchanged(async () =>
        expectError(await tr.proRata(key, holdingId, 2023, { discountedCapitalGains: 100 }), "BUSINESS_RULE"),
      );
    });

    it("rejects a bad component name and an empty statement with VALIDATION_FAILED, writing nothing", async () => {
      await seedYear();
      await unchanged(async () => {
        const o = await tr.proRata(key, holdingId, 2025, { "discounted capital gains": 100 });
        expectError(o, "VALIDATION_FAILED");
        if (!o.ok) {
          expect(o.errors!.length).toBeGreaterThanOrEqual(1);
          for (const e of o.errors!) expect(e.path).toMatch(/^components/);
        }
        expectInvalid(await tr.proRata(key, holdingId, 2025, {}), ["components"]);
        const five = await tr.proRata(key, holdingId, 2025, { nonPrimaryProductionIncome: "1.00001" });
        expectError(five, "VALIDATION_FAILED");
      });
    });
  });
});
