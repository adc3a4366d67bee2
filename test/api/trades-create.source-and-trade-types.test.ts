import { newPortfolio } from "../factories";
import { expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * A trade's source (a Source id), and what every trade type does to units and cost base.
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
  describe("sourceId must be a Source id (GET /v1/sources)", () => {
    it("keeps a Source id and answers it back", async () => {
      const sources = (await t.http.get("/v1/sources").set("authorization", key)).body as {
        id: string;
        name: string;
      }[];
      const commsec = sources.find((s) => s.name === "CommSec")!;
      const p = await newPortfolio(t, key);
      const created = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          symbol: "CBA",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 1,
          price: 100,
          sourceId: commsec.id,
        }),
      );
      expect(created.sourceId).toBe(commsec.id);
      expect(expectOk(await tr.getTrade(key, created.id))!.sourceId).toBe(commsec.id);
    });

    it.each([
      ["a UUID that is no Source", "00000000-0000-4000-8000-000000000000"],
      ["a Source name instead of its id", "CommSec"],
      ["text that is no UUID", "not-a-uuid"],
    ])("rejects %s with VALIDATION_FAILED on sourceId, writing nothing", async (_label, sourceId) => {
      const p = await newPortfolio(t, key);
      await unchanged(async () => {
        expectInvalid(
          await tr.createTrade(key, {
            portfolioId: p,
            symbol: "CBA",
            exchange: "ASX",
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 1,
            price: 100,
            sourceId,
          }),
          ["sourceId"],
        );
      });
    });
  });

  describe("every trade type changes units and cost base as DOMAIN.md §1 says", () => {
    // Each starts from one parcel: 100 units bought at 10 with 10 brokerage (cost base 1,010).
    const CASES: [string, Json, { quantity: string; costBase: string; tradeQuantity: string }][] = [
      [
        "Buy adds a parcel (units × price + brokerage)",
        { tradeType: "Buy", quantity: 50, price: 12, brokerage: 5 },
        { quantity: "150", costBase: "1615", tradeQuantity: "50" },
      ],
      [
        "Sell removes units and their share of the cost base",
        { tradeType: "Sell", quantity: 40, price: 12, brokerage: 10 },
        { quantity: "60", costBase: "606", tradeQuantity: "-40" },
      ],
      [
        "Split adds the units gained; the cost base stays",
        { tradeType: "Split", quantity: 100 },
        { quantity: "200", costBase: "1010", tradeQuantity: "100" },
      ],
      [
        "Consolidation removes the units lost; the cost base stays",
        { tradeType: "Consolidation", quantity: 50 },
        { quantity: "50", costBase: "1010", tradeQuantity: "-50" },
      ],
      [
        "Bonus without a price adds units to the parcels; the cost base stays (s130-20)",
        { tradeType: "Bonus", quantity: 25 },
        { quantity: "125", costBase: "1010", tradeQuantity: "25" },
      ],
      [
        "Bonus with a price (taxed as a dividend) adds a parcel at units × price",
        { tradeType: "Bonus", quantity: 25, price: 2 },
        { quantity: "125", costBase: "1060", tradeQuantity: "25" },
      ],
      [
        "ReturnOfCapital lowers the cost base by units × amount",
        { tradeType: "ReturnOfCapital", quantity: 100, price: "0.5" },
        { quantity: "100", costBase: "960", tradeQuantity: "100" },
      ],
      [
        "CostBaseIncrease raises the cost base",
        { tradeType: "CostBaseIncrease", quantity: 100, price: "0.2" },
        { quantity: "100", costBase: "1030", tradeQuantity: "100" },
      ],
      [
        "CostBaseDecrease lowers the cost base",
        { tradeType: "CostBaseDecrease", quantity: 100, price: "0.1" },
        { quantity: "100", costBase: "1000", tradeQuantity: "100" },
      ],
      [
        "OpeningBalance adds a parcel",
        { tradeType: "OpeningBalance", quantity: 20, price: 8, acquisitionDate: "2020-05-01" },
        { quantity: "120", costBase: "1170", tradeQuantity: "20" },
      ],
      [
        "Cancellation disposes of every unit for nothing (quantity may be absent)",
        { tradeType: "Cancellation" },
        { quantity: "0", costBase: "0", tradeQuantity: "-100" },
      ],
      [
        "TransferIn adds a parcel",
        { tradeType: "TransferIn", quantity: 20, price: 9 },
        { quantity: "120", costBase: "1190", tradeQuantity: "20" },
      ],
      [
        "TransferOut removes units and their cost base",
        { tradeType: "TransferOut", quantity: 30 },
        { quantity: "70", costBase: "707", tradeQuantity: "-30" },
      ],
    ];

    it.each(CASES)("%s", async (_label, input, expected) => {
      const p = await newPortfolio(t, key);
      const first = await buy(p, "CBA", 100, 10, "2024-01-10", { brokerage: 10 });
      const created = expectOk(
        await tr.createTrade(key, { portfolioId: p, holdingId: first.holdingId, tradeDate: "2024-02-01", ...input }),
        201,
      );
      expect(created).toMatchObject({
        tradeType: input.tradeType,
        tradeDate: "2024-02-01",
        quantity: expected.tradeQuantity,
        holdingId: first.holdingId,
      });
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({
        quantity: expected.quantity,
        costBase: expected.costBase,
      });
      expect(expectOk(await tr.getTrade(key, created.id))).toEqual(created);
    });

    describe("a Cancellation's quantity, when given, is the units held (docs/rules.md §1)", () => {
      // Holding: 100 CBA bought 2024-01-10. A Cancellation on 2024-02-01 takes all 100.
      it.each([
        ["100", 100],
        ["-100 (units leaving)", -100],
        ['"100.0000" (the same figure)', "100.0000"],
      ])("%s is taken as given", async (_label, quantity) => {
        const p = await newPortfolio(t, key);
        const first = await buy(p, "CBA", 100, 10, "2024-01-10");
        const created = expectOk(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: first.holdingId,
            tradeType: "Cancellation",
            tradeDate: "2024-02-01",
            quantity,
          }),
        );
        expect(created.quantity).toBe("-100");
      });

      it("another figure is refused (422 on quantity, naming the units held), not replaced; nothing is written", async () => {
        const p = await newPortfolio(t, key);
        const first = await buy(p, "CBA", 100, 10, "2024-01-10");
        await unchanged(async () => {
          const o = await tr.createTrade(key, {
            portfolioId: p,
            holdingId: first.holdingId,
            tradeType: "Cancellation",
            tradeDate: "2024-02-01",
            quantity: 40,
          });
          expectError(o, "BUSINESS_RULE");
          if (tr.name === "REST") {
            expect(o.errors).toEqual([
              {
                path: "quantity",
                message:
                  "is 40, but a Cancellation takes every unit held on its date: 100; give that, or leave quantity out",
              },
            ]);
          }
        });
      });

      it("with no units held on its date it is refused (422), not stored as a Cancellation of 0", async () => {
        const p = await newPortfolio(t, key);
        const first = await buy(p, "CBA", 100, 10, "2024-01-10");
        await unchanged(async () => {
          const o = await tr.createTrade(key, {
            portfolioId: p,
            holdingId: first.holdingId,
            tradeType: "Cancellation",
            tradeDate: "2023-05-01",
          });
          expectError(o, "BUSINESS_RULE");
          expect(o.message).toMatch(/Cancellation on 2023-05-01: no units are held/);
        });
      });

      it("an update that changes the units held under a Cancellation must give the new figure or none", async () => {
        const p = await newPortfolio(t, key);
        const first = await buy(p, "CBA", 100, 10, "2024-01-10");
        const cancelled = expectOk(
          await tr.createTrade(key, {
            portfolioId: p,
            holdingId: first.holdingId,
            tradeType: "Cancellation",
            tradeDate: "2024-02-01",
          }),
        );
        const body = { portfolioId: p, holdingId: first.holdingId, tradeType: "Cancellation", tradeDate: "2024-02-01" };
        // The buy edited to 150 units: the stored 100 no longer stands; no quantity takes the 150.
        expectOk(
          await tr.updateTrade(key, first.id, {
            portfolioId: p,
            holdingId: first.holdingId,
            tradeType: "Buy",
            tradeDate: "2024-01-10",
            quantity: 150,
            price: 10,
          }),
        );
        expectError(await tr.updateTrade(key, cancelled.id, { ...body, quantity: 100 }), "BUSINESS_RULE");
        expect(expectOk(await tr.updateTrade(key, cancelled.id, body)).quantity).toBe("-150");
      });
    });

    it("a sell may give its quantity negative; it means the same", async () => {
      const p = await newPortfolio(t, key);
      const first = await buy(p, "CBA", 100, 10, "2024-01-10");
      const sold = expectOk(
        await tr.createTrade(key, {
          portfolioId: p,
          holdingId: first.holdingId,
          tradeType: "Sell",
          tradeDate: "2024-02-01",
          quantity: -40,
          price: 12,
        }),
      );
      expect(sold.quantity).toBe("-40");
      expect(expectOk(await tr.getHolding(key, first.holdingId))).toMatchObject({ quantity: "60", costBase: "600" });
    });
  });
});
