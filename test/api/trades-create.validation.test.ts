import { newPortfolio } from "../factories";
import { expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * Validation of a trade on create and update: VALIDATION_FAILED naming the bad path, nothing written.
 *
 * Recording trades: the first trade creates the holding, sourceId, what each trade type does, validation, and the order a holding lists its trades (docs/rules.md §1–2).
 * (Split from trades.test.ts by story; the transports and setup functions are in ./trades.transports.ts.)
 */

const t = useTestApp();
let key: string;
const { unchanged, TRANSPORTS, trade, buy } = tradesApi(t, () => key);

beforeEach(async () => {
  key = await t.newAccount();
});

describe.each(TRANSPORTS)("trades over $name", (tr) => {
  describe("validation: VALIDATION_FAILED naming the bad path, nothing written", () => {
    const VALID: Json = {
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    };
    const BAD: [string, Json, string[]][] = [
      ["a date that is not on the calendar (2024-02-30)", { tradeDate: "2024-02-30" }, ["tradeDate"]],
      // A string that is not YYYY-MM-DD, or has month 13, must be a 400 too, not a 500 (src/lib/dates.ts).
      ["a date in another format (10/01/2024)", { tradeDate: "10/01/2024" }, ["tradeDate"]],
      ["a date with month 13 (2024-13-01)", { tradeDate: "2024-13-01" }, ["tradeDate"]],
      ["a date that is not a date at all", { tradeDate: "yesterday" }, ["tradeDate"]],
      ["zero quantity for a Buy", { quantity: 0 }, ["quantity"]],
      ["a negative quantity for a Buy", { quantity: -5 }, ["quantity"]],
      ["a Buy without quantity", { quantity: undefined }, ["quantity"]],
      ["a Buy without price", { price: undefined }, ["price"]],
      ["a negative price", { price: -1 }, ["price"]],
      ["a price on a Split", { tradeType: "Split", price: 5 }, ["price"]],
      ["brokerage on a Bonus", { tradeType: "Bonus", price: undefined, brokerage: 10 }, ["brokerage"]],
      ["brokerage on a priced Bonus", { tradeType: "Bonus", price: 2, brokerage: 10 }, ["brokerage"]],
      ["a ReturnOfCapital without an amount per unit", { tradeType: "ReturnOfCapital", price: 0 }, ["price"]],
      ["parcels on a Buy", { parcels: [{ tradeId: 1, quantity: 1 }] }, ["parcels"]],
      [
        "an acquisitionDate after the tradeDate",
        { tradeType: "OpeningBalance", acquisitionDate: "2024-02-01" },
        ["acquisitionDate"],
      ],
      ["an acquisitionDate on a Buy", { acquisitionDate: "2024-01-01" }, ["acquisitionDate"]],
      ["neither symbol nor holdingId", { symbol: undefined, exchange: undefined }, ["symbol"]],
      ["a symbol without its exchange", { exchange: undefined }, ["symbol"]],
      ["a symbol with a space", { symbol: "C BA" }, ["symbol"]],
      ["more than 8 decimals in quantity", { quantity: "1.123456789" }, ["quantity"]],
      ["more than 8 decimals in price", { price: "0.123456789" }, ["price"]],
      ["more than 4 decimals in brokerage", { brokerage: "9.12345" }, ["brokerage"]],
      ["exponent notation in quantity", { quantity: "1e3" }, ["quantity"]],
      ['a currency code that is not ISO 4217 ("usd")', { currencyCode: "usd" }, ["currencyCode"]],
      ["notes with a NUL character", { notes: "a\u0000b" }, ["notes"]],
      [
        "several bad fields at once",
        { tradeDate: "2024-02-30", price: "0.123456789", brokerage: "1.12345", currencyCode: "usd" },
        ["tradeDate", "price", "brokerage", "currencyCode"],
      ],
    ];

    it.each(BAD)("rejects %s", async (_label, change, paths) => {
      const p = await newPortfolio(t, key);
      await unchanged(async () =>
        expectInvalid(await tr.createTrade(key, { portfolioId: p, ...VALID, ...change }), paths),
      );
    });

    it("rejects the same input on update, leaving the trade as it was", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await unchanged(async () => {
        expectInvalid(await tr.updateTrade(key, b.id, { portfolioId: p, ...VALID, tradeDate: "2024-02-30" }), [
          "tradeDate",
        ]);
        expectInvalid(await tr.updateTrade(key, b.id, { portfolioId: p, ...VALID, quantity: "1.123456789" }), [
          "quantity",
        ]);
      });
    });

    it("rejects an unknown tradeType (GraphQL: the enum refuses it)", async () => {
      const p = await newPortfolio(t, key);
      await unchanged(async () => {
        const o = await tr.createTrade(key, { portfolioId: p, ...VALID, tradeType: "Purchase" });
        if (tr.name === "REST") expectInvalid(o, ["tradeType"]);
        else {
          expect(o.ok).toBe(false);
          if (!o.ok) expect(["BAD_USER_INPUT", "VALIDATION_FAILED"]).toContain(o.code);
          expect(o.raw).toContain("tradeType");
        }
      });
    });

    it("accepts exactly 8 decimals in quantity and price, and decimal strings", async () => {
      const p = await newPortfolio(t, key);
      const created = expectOk(
        await tr.createTrade(key, { portfolioId: p, ...VALID, quantity: "1.12345678", price: "0.00000001" }),
      );
      expect(created).toMatchObject({ quantity: "1.12345678", price: "0.00000001" });
    });

    it("rejects a portfolio that does not exist with NOT_FOUND", async () => {
      await unchanged(async () =>
        expectError(await tr.createTrade(key, { portfolioId: 999999, ...VALID }), "NOT_FOUND"),
      );
    });
  });
});
