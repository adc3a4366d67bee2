import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { plannerLedger, plannerPrices, plannerTrade } from "../scenarios/tax-planner-ledger";
import { importTradesJson, measured } from "../support/kit";
import { expectError, expectInvalid, expectOk, type Json } from "../support/outcomes";
import { AS_OF, plannerTransports } from "./tax-planner.transports";

/**
 * The end-of-year tax planner (docs/reports.md §6.1) over REST and GraphQL, on a real ledger
 * (test/scenarios/tax-planner-ledger.ts tells its story and its figures): the plan, what it
 * refuses and who may read it, and the overview of a book. What-if sells are in
 * tax-planner-what-if.test.ts.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const transports = plannerTransports(t);

describe.each(transports)("over $name", (tr) => {
  it("the plan: realised to date, the loss to harvest, the gains to wait for", async () => {
    const s = await plannerLedger(t, key);
    const r = expectOk(await tr.planner(key, s.portfolioId, AS_OF));
    expect(r).toMatchObject({
      portfolioId: s.portfolioId,
      financialYear: 2026,
      asOf: "2026-05-15",
      endOfYear: "2026-06-30",
      entityType: "Individual",
      discountPercent: "50",
      marginalTaxRate: "37",
      unrealised: { gains: "900", losses: "600" },
      projectedNetCapitalGain: "700",
      estimatedTax: "259",
    });
    expect(r.realisedToDate).toMatchObject({
      shortTermGains: "200",
      longTermGains: "1000",
      discount: "500",
      totalCapitalGains: "1200",
      netCapitalGain: "700",
    });
    expect(r.harvest).toEqual([
      {
        holdingId: s.ccc,
        symbol: "CCC",
        exchange: "ASX",
        acquisitionTradeId: s.cccFirst,
        acquisitionDate: "2024-03-01",
        quantity: "100",
        costBase: "1500",
        marketValue: "900",
        unrealisedLoss: "600",
        netCapitalGainReduction: "400",
        taxSaved: "148",
        washSaleRisk: true,
      },
    ]);
    expect(r.waitForDiscount).toEqual([
      {
        holdingId: s.ddd,
        symbol: "DDD",
        exchange: "ASX",
        acquisitionTradeId: s.dddBuy,
        acquisitionDate: "2025-09-01",
        quantity: "50",
        unrealisedGain: "800",
        discountEligibleFrom: "2026-09-02",
        daysToWait: "110",
        gainIfSoldNow: "800",
        gainIfSoldWhenEligible: "400",
        taxSaved: "148",
      },
      {
        holdingId: s.bbb,
        symbol: "BBB",
        exchange: "ASX",
        acquisitionTradeId: s.bbbBuy,
        acquisitionDate: "2025-08-01",
        quantity: "50",
        unrealisedGain: "100",
        discountEligibleFrom: "2026-08-02",
        daysToWait: "79",
        gainIfSoldNow: "100",
        gainIfSoldWhenEligible: "50",
        taxSaved: "18.5",
      },
    ]);
    expect((r.warnings as Json[]).map((w) => [w.code, w.holdingId])).toEqual([["WASH_SALE_RISK", s.ccc]]);
  });

  it("without a rate every tax figure is null; the same request answers the same bytes", async () => {
    const s = await plannerLedger(t, key);
    const query = { financialYear: 2026, asOf: "2026-05-15" };
    const first = expectOk(await tr.planner(key, s.portfolioId, query));
    expect([first.marginalTaxRate, first.estimatedTax]).toEqual([null, null]);
    expect((first.harvest as Json[]).map((h) => h.taxSaved)).toEqual([null]);
    expect((first.waitForDiscount as Json[]).map((h) => h.taxSaved)).toEqual([null, null]);
    const again = await tr.planner(key, s.portfolioId, query);
    const once = await tr.planner(key, s.portfolioId, query);
    expect([again.ok, once.ok]).toEqual([true, true]);
    expect(typeof again.raw).toBe("string");
    expect(again.raw).toBe(once.raw);
  });

  it("refuses bad input (400) and writes nothing", async () => {
    const s = await plannerLedger(t, key);
    const before = await t.db.sql<{ n: number }>("SELECT count(*)::int AS n FROM trade");
    expectInvalid(await tr.planner(key, s.portfolioId, { financialYear: 2025, asOf: "2026-05-15" }), "asOf");
    expectInvalid(await tr.planner(key, s.portfolioId, { ...AS_OF, marginalTaxRate: "101" }), "marginalTaxRate");
    expectInvalid(await tr.planner(key, s.portfolioId, { ...AS_OF, marginalTaxRate: "-1" }), "marginalTaxRate");
    expectInvalid(await tr.planner(key, s.portfolioId, { ...AS_OF, asOf: "2026-02-30" }), "asOf");
    expectInvalid(await tr.whatIf(key, s.portfolioId, { ...AS_OF, sells: [] }), "sells");
    expectInvalid(
      await tr.whatIf(key, s.portfolioId, { ...AS_OF, sells: [{ holdingId: s.ccc, quantity: 1, date: "2026-07-01" }] }),
      "sells[0].date",
    );
    expectInvalid(
      await tr.whatIf(key, s.portfolioId, { ...AS_OF, sells: [{ holdingId: s.ccc, quantity: 0 }] }),
      "sells[0].quantity",
    );
    expectInvalid(await tr.overview(key, { financialYear: 2024, asOf: "2026-05-15" }), "asOf");
    // A year taken from asOf has the bounds of a year asked for: FY1900 and FY2201 are refused.
    expectInvalid(await tr.planner(key, s.portfolioId, { asOf: "1900-01-01" }), "asOf");
    expectInvalid(await tr.planner(key, s.portfolioId, { asOf: "2200-12-31" }), "asOf");
    expectInvalid(await tr.overview(key, { asOf: "1900-01-01" }), "asOf");
    expect(await t.db.sql<{ n: number }>("SELECT count(*)::int AS n FROM trade")).toEqual(before);
  });

  it("another account's portfolio or holding: 404; a non-AUD portfolio: 422; a Read client key may plan", async () => {
    const s = await plannerLedger(t, key);
    const intruder = await t.newAccount("intruder");
    expectError(await tr.planner(intruder, s.portfolioId, AS_OF), "NOT_FOUND");
    expectError(
      await tr.whatIf(intruder, s.portfolioId, { ...AS_OF, sells: [{ holdingId: s.ccc, quantity: 1 }] }),
      "NOT_FOUND",
    );
    const theirs = await plannerLedger(t, intruder);
    expectError(
      await tr.whatIf(key, s.portfolioId, { ...AS_OF, sells: [{ holdingId: theirs.ccc, quantity: 1 }] }),
      "NOT_FOUND",
    );
    const usd = await newPortfolio(t, key, { name: "US", baseCurrencyCode: "USD" });
    expectError(await tr.planner(key, usd, AS_OF), "BUSINESS_RULE");

    const reader = await t.newClientKey(key, "Read", [s.portfolioId]);
    expect(expectOk(await tr.planner(reader, s.portfolioId, AS_OF)).estimatedTax).toBe("259");
    expect(
      expectOk(await tr.whatIf(reader, s.portfolioId, { ...AS_OF, sells: [{ holdingId: s.ccc, quantity: 1 }] })).sells,
    ).toHaveLength(1);
    // The client key's book is its one portfolio.
    expect(expectOk(await tr.overview(reader, { asOf: "2026-05-15" })).map((r) => r.portfolioId)).toEqual([
      s.portfolioId,
    ]);
  });
});

describe("the overview of a book (GET /v1/tax-planner, taxPlannerOverview)", () => {
  /** A portfolio that realised `gain` (short-term) in FY2026 and holds a loss of `loss` at asOf. */
  async function book(k: string, name: string, gain: number, loss: number, entityType = "Individual") {
    const p = await newPortfolio(t, k, { name, entityType });
    const res = await importTradesJson(t, k, p, [
      plannerTrade("GGG", "Buy", "2025-08-01", 100, 10),
      plannerTrade("GGG", "Sell", "2025-12-01", 100, 10 + gain / 100),
      plannerTrade("LLL", "Buy", "2025-08-01", 100, 10 + loss / 100),
    ]);
    expect(res.status).toBe(201);
    return p;
  }

  it("one row per AUD, AU portfolio, as its planner reports it, largest gain first, in a fixed number of statements", async () => {
    await plannerPrices(t, key, [["LLL", 10]]);
    const first = await book(key, "First", 300, 100);
    const second = await book(key, "Second", 500, 800, "Company");
    await newPortfolio(t, key, { name: "In dollars", baseCurrencyCode: "USD" });
    const third = await book(key, "Third", 0, 0, "SMSF");
    const query = { asOf: "2026-05-15" };
    const three = await measured(t.db, () => transports[0].overview(key, query));
    // Individual: 300 short, LLL loss 100 → reduction 100. Company: 500, loss 800 → reduction 500.
    expect(expectOk(three.res)).toEqual([
      {
        portfolioId: second,
        name: "Second",
        entityType: "Company",
        realisedNetCapitalGain: "500",
        unrealisedLosses: "800",
        largestHarvestReduction: "500",
      },
      {
        portfolioId: first,
        name: "First",
        entityType: "Individual",
        realisedNetCapitalGain: "300",
        unrealisedLosses: "100",
        largestHarvestReduction: "100",
      },
      {
        portfolioId: third,
        name: "Third",
        entityType: "SMSF",
        realisedNetCapitalGain: "0",
        unrealisedLosses: "0",
        largestHarvestReduction: "0",
      },
    ]);
    // The same figures each portfolio's own planner reports.
    const own = expectOk(await transports[0].planner(key, second, query));
    expect([
      (own.realisedToDate as Json).netCapitalGain,
      (own.unrealised as Json).losses,
      (own.harvest as Json[])[0].netCapitalGainReduction,
    ]).toEqual(["500", "800", "500"]);

    for (let i = 0; i < 9; i++) await book(key, `More ${i}`, 100 + i, 50);
    const twelve = await measured(t.db, () => transports[0].overview(key, query));
    expect(expectOk(twelve.res)).toHaveLength(12);
    expect(twelve.statements).toBe(three.statements);
    expect(expectOk(await transports[1].overview(key, query))).toEqual(expectOk(twelve.res));
  });

  it("clientId narrows an adviser's book; a client key names only its own; another account's client: 404", async () => {
    await plannerPrices(t, key, [["LLL", 10]]);
    const mine = await book(key, "Mine", 300, 100);
    const other = await book(key, "Other", 200, 0);
    const mineKey = await t.newClientKey(key, "Read", [mine]);
    await t.newClientKey(key, "Read", [other]);
    const [mineClient, otherClient] = await t.db.sql<{ client_id: number }>(
      "SELECT client_id FROM portfolio WHERE id = ANY($1) ORDER BY id",
      [[mine, other]],
    );
    const client_id = mineClient.client_id;
    for (const tr of transports) {
      // A client key: its own book with or without its own id; another client's id is not its to name.
      expect(expectOk(await tr.overview(mineKey, { asOf: "2026-05-15" })).map((r) => r.portfolioId)).toEqual([mine]);
      expect(
        expectOk(await tr.overview(mineKey, { asOf: "2026-05-15", clientId: client_id })).map((r) => r.portfolioId),
      ).toEqual([mine]);
      expectError(await tr.overview(mineKey, { asOf: "2026-05-15", clientId: otherClient.client_id }), "NOT_FOUND");
      expect(
        expectOk(await tr.overview(key, { asOf: "2026-05-15", clientId: client_id })).map((r) => r.portfolioId),
      ).toEqual([mine]);
      const stranger = await t.newAccount();
      expectError(await tr.overview(stranger, { asOf: "2026-05-15", clientId: client_id }), "NOT_FOUND");
      expect(expectOk(await tr.overview(stranger, { asOf: "2026-05-15" }))).toEqual([]);
    }
  });
});
