import { newPortfolio, newTrade } from "../factories";
import { expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { cbaHolding, aaplHolding } from "../scenarios/holdings";
import { incomeApi } from "./income.transports";

/**
 * Recording income: create, DRP, and foreign-currency income (USD holding in an AUD portfolio).
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
const { unchanged, accountIdOf, rest, TRANSPORTS, position, seedIncome, dividend } = incomeApi(t, () => holdingId);

describe.each(TRANSPORTS)("income over $name", (tr) => {
  describe("create", () => {
    it("answers 201 with an unconfirmed record: gross = franked + unfranked + foreign, net = gross − withholding − foreign tax paid, 700 franked → 300 credit", async () => {
      const created = expectOk(
        await tr.create(
          key,
          dividend({
            frankedAmount: 700,
            unfrankedAmount: "50.5",
            foreignIncome: 25,
            foreignTaxPaid: "3.75",
            withholdingTax: 100,
            notes: "Interim dividend",
          }),
        ),
        201,
      );
      expect(created).toEqual({
        id: expect.any(Number),
        holdingId,
        portfolioId,
        symbol: "CBA",
        exchange: "ASX",
        exDividendDate: "2024-02-14",
        paidDate: "2024-03-28",
        frankedAmount: "700",
        unfrankedAmount: "50.5",
        frankingCredits: "300",
        foreignIncome: "25",
        foreignTaxPaid: "3.75",
        withholdingTax: "100",
        grossAmount: "775.5",
        // docs/rules.md §6.1: 775.5 − 100 withholding − 3.75 foreign tax paid.
        netAmount: "671.75",
        currencyCode: "AUD",
        exchangeRate: "1",
        isTrustIncome: false,
        isReinvested: false,
        drpQuantity: null,
        drpPrice: null,
        components: null,
        notes: "Interim dividend",
        isConfirmed: false,
        origin: "User",
        estimated: [],
      });
      // What was answered is what was stored.
      expect(expectOk(await rest.get(key, created.id))).toEqual(created);
      // A plain dividend is no parcel: the position is unchanged.
      expect(await position(key, holdingId)).toEqual({ quantity: "100", costBase: "10000" });
    });

    it("keeps a franking credit that is given, even one that differs from the computed one", async () => {
      expect(
        expectOk(await tr.create(key, dividend({ frankedAmount: 700, frankingCredits: "299.99" }))).frankingCredits,
      ).toBe("299.99");
      expect(expectOk(await tr.create(key, dividend({ frankedAmount: 700, frankingCredits: 0 }))).frankingCredits).toBe(
        "0",
      );
    });

    it("computes the credit at companyTaxRate 0.25: 750 franked → 250; nothing franked → no credit", async () => {
      const r = expectOk(await tr.create(key, dividend({ frankedAmount: 750, companyTaxRate: "0.25" })));
      expect(r).toMatchObject({ frankedAmount: "750", frankingCredits: "250", grossAmount: "750", netAmount: "750" });
      expect(expectOk(await tr.create(key, dividend({ unfrankedAmount: 40 }))).frankingCredits).toBe("0");
    });

    it("a netAmount alone is the unfranked amount; with withholding tax, unfranked = net + withholding", async () => {
      expect(expectOk(await tr.create(key, dividend({ netAmount: "55.5" })))).toMatchObject({
        frankedAmount: "0",
        unfrankedAmount: "55.5",
        frankingCredits: "0",
        withholdingTax: "0",
        grossAmount: "55.5",
        netAmount: "55.5",
      });
      expect(expectOk(await tr.create(key, dividend({ netAmount: "55.5", withholdingTax: "4.5" })))).toMatchObject({
        unfrankedAmount: "60",
        withholdingTax: "4.5",
        grossAmount: "60",
        netAmount: "55.5",
      });
    });

    it("accepts a netAmount that agrees with the amounts", async () => {
      const r = expectOk(
        await tr.create(
          key,
          dividend({ frankedAmount: 700, unfrankedAmount: 300, withholdingTax: 100, netAmount: 900 }),
        ),
      );
      expect(r).toMatchObject({ grossAmount: "1000", netAmount: "900", frankingCredits: "300" });
    });

    const BAD: [string, Json, string][] = [
      [
        "a netAmount inconsistent with the amounts (700 franked, net 1000)",
        { frankedAmount: 700, netAmount: 1000 },
        "netAmount",
      ],
      [
        "a netAmount that ignores the withholding tax",
        { unfrankedAmount: 100, withholdingTax: 10, netAmount: 100 },
        "netAmount",
      ],
      ["withholding tax above the gross amount", { unfrankedAmount: 100, withholdingTax: "100.01" }, "withholdingTax"],
      [
        "a paidDate before the exDividendDate",
        { exDividendDate: "2024-03-01", paidDate: "2024-02-29", unfrankedAmount: 10 },
        "paidDate",
      ],
      ["isReinvested without drpQuantity", { unfrankedAmount: 10, isReinvested: true }, "drpQuantity"],
      [
        "isReinvested with a drpPrice but no drpQuantity",
        { unfrankedAmount: 10, isReinvested: true, drpPrice: 2 },
        "drpQuantity",
      ],
      [
        "isReinvested with drpQuantity 0 (no units to allot, no price to derive)",
        { unfrankedAmount: 10, isReinvested: true, drpQuantity: 0 },
        "drpQuantity",
      ],
      ["drpQuantity without isReinvested", { unfrankedAmount: 10, drpQuantity: 5 }, "isReinvested"],
      [
        "drpQuantity and drpPrice with isReinvested false",
        { unfrankedAmount: 10, isReinvested: false, drpQuantity: 5, drpPrice: 2 },
        "isReinvested",
      ],
      ["no amount at all", {}, "netAmount"],
      ["a negative franked amount", { frankedAmount: -1 }, "frankedAmount"],
      ["an amount with 5 decimals", { unfrankedAmount: "10.12345" }, "unfrankedAmount"],
      ["a company tax rate above 50%", { frankedAmount: 700, companyTaxRate: "0.6" }, "companyTaxRate"],
      [
        "an exchange rate other than 1 on income in the base currency",
        { unfrankedAmount: 10, exchangeRate: "1.5" },
        "exchangeRate",
      ],
      ["a paidDate that is not a calendar date", { paidDate: "2024-02-30", unfrankedAmount: 10 }, "paidDate"],
      // Not even date-shaped: must be refused as input like any other, never reach a Date (a 500).
      [
        "an exDividendDate that is not YYYY-MM-DD",
        { exDividendDate: "14/02/2024", unfrankedAmount: 10 },
        "exDividendDate",
      ],
    ];

    it.each(BAD)(
      "rejects %s with VALIDATION_FAILED naming the field, writing nothing",
      async (_label, fields, path) => {
        await seedIncome(key, dividend({ unfrankedAmount: 1 }));
        await unchanged(async () => expectInvalid(await tr.create(key, dividend(fields)), [path]));
      },
    );

    it("rejects a holding that does not exist with NOT_FOUND, writing nothing", async () => {
      await unchanged(async () =>
        expectError(await tr.create(key, dividend({ holdingId: 999999, unfrankedAmount: 10 })), "NOT_FOUND"),
      );
    });
  });

  describe("DRP", () => {
    it("a reinvested record of 10 units at 2 adds 10 units and 20 to the holding's cost base", async () => {
      const r = expectOk(
        await tr.create(
          key,
          dividend({ paidDate: "2024-03-01", unfrankedAmount: 20, isReinvested: true, drpQuantity: 10, drpPrice: 2 }),
        ),
        201,
      );
      expect(r).toMatchObject({ isReinvested: true, drpQuantity: "10", drpPrice: "2", netAmount: "20" });
      expect(await position(key, holdingId)).toEqual({ quantity: "110", costBase: "10020" });
    });

    it("drpPrice defaults to net ÷ units (net 90 over 30 units → 3; 10 over 3 → 3.33333333)", async () => {
      const r = expectOk(
        await tr.create(
          key,
          dividend({ frankedAmount: 70, unfrankedAmount: 30, withholdingTax: 10, isReinvested: true, drpQuantity: 30 }),
        ),
      );
      expect(r).toMatchObject({ netAmount: "90", drpQuantity: "30", drpPrice: "3", frankingCredits: "30" });
      expect(await position(key, holdingId)).toEqual({ quantity: "130", costBase: "10090" });
      const thirds = expectOk(await tr.create(key, dividend({ netAmount: 10, isReinvested: true, drpQuantity: 3 })));
      expect(thirds).toMatchObject({ drpQuantity: "3", drpPrice: "3.33333333" });
      expect((await position(key, holdingId)).quantity).toBe("133");
    });

    it("turning a plain record into a reinvested one and back adds and removes its units", async () => {
      const plain = await seedIncome(key, dividend({ paidDate: "2024-03-01", unfrankedAmount: 20 }));
      const drp = expectOk(
        await tr.update(
          key,
          plain.id,
          dividend({ paidDate: "2024-03-01", unfrankedAmount: 20, isReinvested: true, drpQuantity: 10, drpPrice: 2 }),
        ),
      );
      expect(drp).toMatchObject({ id: plain.id, isReinvested: true, drpQuantity: "10", drpPrice: "2" });
      expect(await position(key, holdingId)).toEqual({ quantity: "110", costBase: "10020" });
      const back = expectOk(await tr.update(key, plain.id, dividend({ paidDate: "2024-03-01", unfrankedAmount: 20 })));
      expect(back).toMatchObject({ isReinvested: false, drpQuantity: null, drpPrice: null });
      expect(await position(key, holdingId)).toEqual({ quantity: "100", costBase: "10000" });
    });

    it("deleting, un-reinvesting, shrinking or postponing a DRP record whose units a later sell used: 422, nothing written", async () => {
      const drpInput = dividend({
        paidDate: "2024-03-01",
        unfrankedAmount: 20,
        isReinvested: true,
        drpQuantity: 10,
        drpPrice: 2,
      });
      const drp = await seedIncome(key, drpInput);
      const sell = await newTrade(t, key, {
        portfolioId,
        holdingId,
        tradeType: "Sell",
        tradeDate: "2024-04-02",
        quantity: 110,
        price: 120,
      });
      expect((await position(key, holdingId)).quantity).toBe("0");

      await unchanged(async () => {
        expectError(await tr.remove(key, drp.id), "BUSINESS_RULE");
        expectError(
          await tr.update(key, drp.id, {
            ...drpInput,
            isReinvested: false,
            drpQuantity: undefined,
            drpPrice: undefined,
          }),
          "BUSINESS_RULE",
        );
        expectError(await tr.update(key, drp.id, { ...drpInput, drpQuantity: 5 }), "BUSINESS_RULE");
        expectError(await tr.update(key, drp.id, { ...drpInput, paidDate: "2024-05-01" }), "BUSINESS_RULE");
      });
      expect(expectOk(await rest.get(key, drp.id))).toEqual(drp);

      // A change that keeps the units before the sell is fine.
      expect(
        expectOk(await tr.update(key, drp.id, { ...drpInput, paidDate: "2024-04-01", notes: "moved" })),
      ).toMatchObject({ paidDate: "2024-04-01", notes: "moved" });

      // Without the sell, the record can go, and its units with it.
      expect((await t.http.delete(`/v1/trades/${sell.id}`).set("authorization", key)).status).toBe(204);
      expect(expectOk(await tr.remove(key, drp.id), 204)).toBe(true);
      expect(await position(key, holdingId)).toEqual({ quantity: "100", costBase: "10000" });
    });
  });

  describe("foreign-currency income (USD holding in an AUD portfolio)", () => {
    let aapl: number;
    beforeEach(async () => {
      aapl = await aaplHolding(t, key, portfolioId);
    });
    const usd = (extra: Json = {}): Json => ({
      holdingId: aapl,
      exDividendDate: "2024-02-09",
      paidDate: "2024-03-01",
      unfrankedAmount: "2.4",
      withholdingTax: "0.36",
      ...extra,
    });

    it("keeps the exchange rate given; the currency is the holding's", async () => {
      expect(expectOk(await tr.create(key, usd({ exchangeRate: "1.5234" })), 201)).toMatchObject({
        symbol: "AAPL",
        exchange: "NASDAQ",
        currencyCode: "USD",
        exchangeRate: "1.5234",
        grossAmount: "2.4",
        netAmount: "2.04",
      });
    });

    it("takes the rate from the FX table: the latest on or before the paid date, either direction", async () => {
      const accountId = await accountIdOf(portfolioId);
      await t.db.prisma.fxRate.create({
        data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-02-01T00:00:00Z"), rate: "1.4" },
      });
      await t.db.prisma.fxRate.create({
        data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-02-27T00:00:00Z"), rate: "1.55" },
      });
      await t.db.prisma.fxRate.create({
        data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-03-04T00:00:00Z"), rate: "1.6" },
      });
      expect(expectOk(await tr.create(key, usd()))).toMatchObject({ currencyCode: "USD", exchangeRate: "1.55" });

      // Only the inverse quote (1 AUD = 0.64 USD) on the paid date: 1 / 0.64 = 1.5625.
      await t.db.prisma.fxRate.create({
        data: { accountId, base: "AUD", quote: "USD", date: new Date("2024-06-14T00:00:00Z"), rate: "0.64" },
      });
      expect(
        expectOk(await tr.create(key, usd({ exDividendDate: "2024-05-10", paidDate: "2024-06-14" }))),
      ).toMatchObject({ exchangeRate: "1.5625" });
    });

    it("no imported rate on or before the paid date (later ones and another account's do not count): the portfolio's last USD trade's rate (DOMAIN §3); before any USD trade either: BUSINESS_RULE, nothing written", async () => {
      const accountId = await accountIdOf(portfolioId);
      const otherKey = await t.newAccount();
      const otherAccountId = await accountIdOf(await newPortfolio(t, otherKey));
      await t.db.prisma.fxRate.create({
        data: { accountId, base: "USD", quote: "AUD", date: new Date("2024-03-02T00:00:00Z"), rate: "1.4" },
      }); // the day after it is paid
      await t.db.prisma.fxRate.create({
        data: {
          accountId: otherAccountId,
          base: "USD",
          quote: "AUD",
          date: new Date("2024-03-01T00:00:00Z"),
          rate: "1.5",
        },
      });
      // The AAPL buy of 2024-01-10 at 1.5 is the last USD trade before the paid date.
      expect(expectOk(await tr.create(key, usd()))).toMatchObject({ exchangeRate: "1.5" });
      await unchanged(async () =>
        expectError(
          await tr.create(key, usd({ exDividendDate: "2024-01-02", paidDate: "2024-01-05" })),
          "BUSINESS_RULE",
        ),
      );
    });
  });
});
