import { newPortfolio } from "../factories";
import { ISO_UTC } from "../support/kit";
import { expectAbsent, expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { holdingsApi } from "./holdings.transports";

/**
 * Changing holdings: updates (notes, classification, DRP), deletes, custom investments created explicitly, and ticker changes that keep the history.
 * (Split from holdings.test.ts by story; the transports and setup functions are in ./holdings.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { unchanged, count, rest, TRANSPORTS, trade, buy, sell, customPrice } = holdingsApi(t, () => key);

describe.each(TRANSPORTS)("holdings over $name", (tr) => {
  describe("updating a holding: notes, classification, DRP", () => {
    it("changes what is given and keeps the rest", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const first = expectOk(
        await tr.update(key, b.holdingId, {
          notes: "Core holding",
          classification: { assetClass: "Australian Equities", sector: "Financials", industry: "Banks" },
          drp: { enabled: true, rounding: "Nearest" },
        }),
        200,
      );
      expect(first).toMatchObject({
        id: b.holdingId,
        symbol: "CBA",
        quantity: "10",
        costBase: "1000",
        notes: "Core holding",
        classification: { assetClass: "Australian Equities", sector: "Financials", industry: "Banks" },
        drp: { enabled: true, rounding: "Nearest" },
      });
      expect(expectOk(await tr.get(key, b.holdingId))).toEqual(first);

      const second = expectOk(
        await tr.update(key, b.holdingId, { classification: { sector: "Banking" }, drp: { enabled: false } }),
      );
      expect(second).toEqual({
        ...first,
        classification: { assetClass: "Australian Equities", sector: "Banking", industry: "Banks" },
        drp: { enabled: false, rounding: "Nearest" },
      });
      // null clears a classification field.
      const third = expectOk(await tr.update(key, b.holdingId, { classification: { industry: null }, notes: "" }));
      expect(third).toEqual({
        ...second,
        classification: { assetClass: "Australian Equities", sector: "Banking", industry: null },
        notes: "",
      });
    });

    it("rejects a bad DRP rounding or an empty classification, naming the path, writing nothing", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await unchanged(async () => {
        const sideways = await tr.update(key, b.holdingId, { drp: { rounding: "Sideways" } });
        // GraphQL's DrpRounding enum refuses it before the service: BAD_USER_INPUT (docs/conventions.md §9.3).
        if (sideways.transport === "GraphQL") expect(!sideways.ok && sideways.code).toBe("BAD_USER_INPUT");
        else expectInvalid(sideways, ["drp.rounding"]);
        expectInvalid(await tr.update(key, b.holdingId, { classification: { assetClass: "  " } }), [
          "classification.assetClass",
        ]);
        expectInvalid(await tr.update(key, b.holdingId, { notes: "a\u0000b" }), ["notes"]);
      });
    });

    it("another account's holding or a missing one is NOT_FOUND and stays as it was", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const other = await t.newAccount();
      await unchanged(async () => {
        expectError(await tr.update(other, b.holdingId, { notes: "hijacked" }), "NOT_FOUND");
        expectError(await tr.update(key, 999999, { notes: "x" }), "NOT_FOUND");
      });
      expectAbsent(await tr.get(other, b.holdingId));
    });
  });

  describe("deleting a holding removes its trades", () => {
    it("answers 204 (true), then the holding and its trades are gone; other holdings stay", async () => {
      const p = await newPortfolio(t, key);
      const b1 = await buy(p, "CBA", 10, 100, "2024-01-10");
      const b2 = await buy(p, "CBA", 5, 100, "2024-01-11");
      await sell(p, "CBA", 3, 100, "2024-01-12");
      const keep = await buy(p, "NAB", 5, 30, "2024-01-10");
      await t.http
        .put(`/v1/trades/${b1.id}/attachment`)
        .set("authorization", key)
        .attach("file", Buffer.from("%PDF-1.4\n%%EOF\n"), { filename: "note.pdf", contentType: "application/pdf" })
        .expect(200);

      expect(expectOk(await tr.remove(key, b1.holdingId), 204)).toBe(true);
      expectAbsent(await tr.get(key, b1.holdingId));
      for (const id of [b1.id, b2.id])
        expect((await t.http.get(`/v1/trades/${id}`).set("authorization", key)).status).toBe(404);
      expect((await t.http.get(`/v1/holdings/${b1.holdingId}/trades`).set("authorization", key)).status).toBe(404);
      expect(await count("trade")).toBe(1);
      expect(await count("trade_attachment")).toBe(0);
      expect(expectOk(await tr.list(key, p))!.map((h) => h.id)).toEqual([keep.holdingId]);
      expectError(await tr.remove(key, b1.holdingId), "NOT_FOUND");
    });

    it("another account cannot delete it (NOT_FOUND), and nothing changes", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const other = await t.newAccount();
      await unchanged(async () => expectError(await tr.remove(other, b.holdingId), "NOT_FOUND"));
    });
  });

  describe("custom investments are created explicitly", () => {
    it("creates one with CUSTOM exchange, Custom type and the base currency by default; a trade and a custom price value it", async () => {
      const p = await newPortfolio(t, key);
      const h = expectOk(await tr.create(key, p, { symbol: "farm1", name: "Family farm" }), 201);
      expect(h).toEqual({
        id: expect.any(Number),
        portfolioId: p,
        symbol: "FARM1",
        exchange: "CUSTOM",
        name: "Family farm",
        currencyCode: "AUD",
        holdingType: "Custom",
        quantity: "0",
        costBase: "0",
        price: null,
        priceDate: null,
        priceSource: "None",
        priceStale: false,
        exchangeRate: "1",
        marketValue: "0",
        unrealisedGain: "0",
        baseCurrencyCode: "AUD",
        classification: { assetClass: null, sector: null, industry: null },
        drp: { enabled: false, rounding: "Down" },
        notes: "",
      });
      expect(expectOk(await tr.get(key, h.id))).toEqual(h);
      // It is listed with includeClosed only until it holds units.
      expect(expectOk(await tr.list(key, p))).toEqual([]);
      expect(expectOk(await tr.list(key, p, { includeClosed: true }))).toEqual([h]);

      await trade(p, { holdingId: h.id, tradeType: "Buy", tradeDate: "2024-01-10", quantity: 1, price: 500000 });
      // A trade naming FARM1.CUSTOM reaches the same holding.
      await trade(p, {
        symbol: "FARM1",
        exchange: "CUSTOM",
        tradeType: "CostBaseIncrease",
        tradeDate: "2024-02-10",
        quantity: 1,
        price: 20000,
      });
      await customPrice(h.id, "2024-06-30", "650000");
      expect(expectOk(await tr.get(key, h.id))).toMatchObject({
        quantity: "1",
        costBase: "520000",
        priceSource: "Custom",
        price: "650000",
        marketValue: "650000",
        unrealisedGain: "130000",
      });
    });

    it("keeps the exchange, currency, type, notes and classification given", async () => {
      const p = await newPortfolio(t, key);
      const h = expectOk(
        await tr.create(key, p, {
          symbol: "PRIVFUND",
          exchange: "UNLISTED",
          name: "Private fund",
          currencyCode: "USD",
          holdingType: "Fund",
          notes: "Wholesale",
          classification: { assetClass: "Private Equity" },
        }),
      );
      expect(h).toMatchObject({
        symbol: "PRIVFUND",
        exchange: "UNLISTED",
        currencyCode: "USD",
        holdingType: "Fund",
        notes: "Wholesale",
        classification: { assetClass: "Private Equity", sector: null, industry: null },
      });
    });

    it("a second holding with the same symbol and exchange is 409 CONFLICT and nothing is written", async () => {
      const p = await newPortfolio(t, key);
      expectOk(await tr.create(key, p, { symbol: "FARM1", name: "Family farm" }));
      await buy(p, "CBA", 1, 100, "2024-01-10");
      await unchanged(async () => {
        expectError(await tr.create(key, p, { symbol: "farm1", name: "Again" }), "CONFLICT");
        expectError(
          await tr.create(key, p, { symbol: "CBA", exchange: "asx", name: "Commonwealth again" }),
          "CONFLICT",
        );
      });
      // Another portfolio may have its own.
      expectOk(await tr.create(key, await newPortfolio(t, key), { symbol: "FARM1", name: "Family farm" }));
    });

    it("rejects a bad symbol or currency naming the path; another account's portfolio is NOT_FOUND", async () => {
      const p = await newPortfolio(t, key);
      const other = await t.newAccount();
      await unchanged(async () => {
        expectInvalid(await tr.create(key, p, { symbol: "my fund", name: "x" }), ["symbol"]);
        expectInvalid(await tr.create(key, p, { symbol: "F", name: "x", currencyCode: "EURO" }), ["currencyCode"]);
        expectInvalid(await tr.create(key, p, { symbol: "F", name: "" }), ["name"]);
        expectError(await tr.create(other, p, { symbol: "F", name: "x" }), "NOT_FOUND");
      });
    });
  });

  describe("a ticker change keeps the holding's history", () => {
    it("changes symbol and exchange, keeps trades, units and cost base, and records the change", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      await sell(p, "CBA", 4, 110, "2024-02-10");
      const before = expectOk(await tr.get(key, b.holdingId))!;

      const changed = expectOk(await tr.changeSymbol(key, b.holdingId, "cbax", "asx"), 200);
      expect(changed).toEqual({ ...before, symbol: "CBAX", exchange: "ASX" });
      const trades = (await t.http.get(`/v1/holdings/${b.holdingId}/trades`).set("authorization", key)).body as Json[];
      expect(trades.map((x) => [x.symbol, x.quantity])).toEqual([
        ["CBAX", 10],
        ["CBAX", -4],
      ]);
      // A new trade under the new ticker goes to the same holding.
      expect((await buy(p, "CBAX", 1, 100, "2024-03-01")).holdingId).toBe(b.holdingId);

      // A second change to a known security takes its name.
      expect(expectOk(await tr.changeSymbol(key, b.holdingId, "WBC", "ASX"))).toMatchObject({
        symbol: "WBC",
        name: "Westpac Banking Corporation",
        quantity: "7",
      });

      const history = await t.http.get(`/v1/holdings/${b.holdingId}/symbol-changes`).set("authorization", key);
      expect(history.status).toBe(200);
      expect(history.body).toEqual([
        {
          fromSymbol: "CBA",
          fromExchange: "ASX",
          toSymbol: "CBAX",
          toExchange: "ASX",
          changedAt: expect.stringMatching(ISO_UTC),
        },
        {
          fromSymbol: "CBAX",
          fromExchange: "ASX",
          toSymbol: "WBC",
          toExchange: "ASX",
          changedAt: expect.stringMatching(ISO_UTC),
        },
      ]);
    });

    it("is 409 CONFLICT when the portfolio already holds the new symbol, and nothing is written", async () => {
      const p = await newPortfolio(t, key);
      await buy(p, "CBA", 10, 100, "2024-01-10");
      const nab = await buy(p, "NAB", 10, 30, "2024-01-10");
      await unchanged(async () => expectError(await tr.changeSymbol(key, nab.holdingId, "cba", "ASX"), "CONFLICT"));
      // Another portfolio's CBA does not stand in the way.
      const q = await newPortfolio(t, key);
      const other = await buy(q, "NAB", 1, 30, "2024-01-10");
      expect(expectOk(await tr.changeSymbol(key, other.holdingId, "CBA", "ASX")).name).toBe(
        "Commonwealth Bank of Australia",
      );
    });

    it("changing to the same ticker records nothing", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      expect(expectOk(await tr.changeSymbol(key, b.holdingId, "CBA", "ASX")).symbol).toBe("CBA");
      expect(await count("holding_symbol_change")).toBe(0);
    });

    it("rejects a bad symbol naming it; another account's holding is NOT_FOUND", async () => {
      const p = await newPortfolio(t, key);
      const b = await buy(p, "CBA", 10, 100, "2024-01-10");
      const other = await t.newAccount();
      await unchanged(async () => {
        expectInvalid(await tr.changeSymbol(key, b.holdingId, "C BA", "ASX"), ["symbol"]);
        expectInvalid(await tr.changeSymbol(key, b.holdingId, "CBA", "A.S.X"), ["exchange"]);
        expectError(await tr.changeSymbol(other, b.holdingId, "CBAX", "ASX"), "NOT_FOUND");
      });
      expect((await t.http.get(`/v1/holdings/${b.holdingId}/symbol-changes`).set("authorization", other)).status).toBe(
        404,
      );
    });
  });
});
