import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { importTradesJson, measured } from "../support/kit";
import {
  canonicalAnswer,
  expectError,
  expectInvalid,
  expectOk,
  gqlOutcome,
  restCall,
  type Json,
  type Outcome,
} from "../support/outcomes";

/**
 * The end-of-year tax planner (docs/reports.md §6.1) over REST and GraphQL, on a real ledger.
 *
 * Ledger (Individual, FIFO), FY2026, asOf 2026-05-15:
 * - AAA: buy 100 @ 10 on 2024-07-01, sell 100 @ 20 on 2025-10-01: a 1,000 long-term gain.
 * - BBB: buy 100 @ 10 on 2025-08-01, sell 50 @ 14 on 2025-11-01: a 200 short-term gain; 50 left
 *   (cost 500), at 12 worth 600: a 100 gain, discountable from 2026-08-02 (79 days).
 * - CCC: buy 100 @ 15 on 2024-03-01 (cost 1,500), at 9 worth 900: a 600 loss; bought again, 10 @ 9
 *   on 2026-05-01 (14 days before asOf: a wash-sale risk), no gain.
 * - DDD: buy 50 @ 20 on 2025-09-01 (cost 1,000), at 36 worth 1,800: an 800 gain, discountable from
 *   2026-09-02 (110 days).
 * Realised to date: 200 short + 1,000 long → 200 + 500 = 700 net; at 37 %: 259.
 * Harvest CCC's parcel: 200 off the short gain, 400 off the long (−200): net 300, reduction 400,
 * taxSaved 148. Wait: DDD 800 → 400 (saves 400, 148), BBB 100 → 50 (saves 50, 18.5).
 * Unrealised: gains 800 + 100 + 0 = 900, losses 600.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const trade = (symbol: string, tradeType: "Buy" | "Sell", tradeDate: string, quantity: number, price: number) => ({
  symbol,
  exchange: "ASX",
  tradeType,
  tradeDate,
  quantity,
  price,
});

async function prices(k: string, rows: [string, number][], date = "2026-05-15") {
  const res = await t.http
    .post("/v1/market-prices/bulk")
    .set("authorization", k)
    .send(rows.map(([symbol, close]) => ({ symbol, exchange: "ASX", date, close })));
  expect(res.status).toBe(200);
}

async function ledger(k = key, overrides: Json = {}) {
  const portfolioId = await newPortfolio(t, k, { name: "Planner", ...overrides });
  const res = await importTradesJson(t, k, portfolioId, [
    trade("AAA", "Buy", "2024-07-01", 100, 10),
    trade("AAA", "Sell", "2025-10-01", 100, 20),
    trade("BBB", "Buy", "2025-08-01", 100, 10),
    trade("BBB", "Sell", "2025-11-01", 50, 14),
    trade("CCC", "Buy", "2024-03-01", 100, 15),
    trade("CCC", "Buy", "2026-05-01", 10, 9),
    trade("DDD", "Buy", "2025-09-01", 50, 20),
  ]);
  expect(res.status).toBe(201);
  await prices(k, [
    ["BBB", 12],
    ["CCC", 9],
    ["DDD", 36],
  ]);
  const trades = await t.db.sql<{ id: number; symbol: string; holding_id: number; trade_date: Date }>(
    "SELECT t.id, h.symbol, t.holding_id, t.trade_date FROM trade t JOIN holding h ON h.id = t.holding_id WHERE t.portfolio_id = $1 ORDER BY t.id",
    [portfolioId],
  );
  const holding = (symbol: string) => trades.find((r) => r.symbol === symbol)!.holding_id;
  const tradeOf = (symbol: string, date: string) =>
    trades.find((r) => r.symbol === symbol && r.trade_date.toISOString().startsWith(date))!.id;
  return {
    portfolioId,
    bbb: holding("BBB"),
    ccc: holding("CCC"),
    ddd: holding("DDD"),
    cccFirst: tradeOf("CCC", "2024-03-01"),
    cccSecond: tradeOf("CCC", "2026-05-01"),
    dddBuy: tradeOf("DDD", "2025-09-01"),
    bbbBuy: tradeOf("BBB", "2025-08-01"),
  };
}

const SUMMARY = `shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward`;
const PLAN = `portfolioId financialYear asOf endOfYear entityType discountPercent marginalTaxRate realisedToDate { ${SUMMARY} }
  unrealised { gains losses }
  harvest { holdingId symbol exchange acquisitionTradeId acquisitionDate quantity costBase marketValue unrealisedLoss netCapitalGainReduction taxSaved washSaleRisk }
  waitForDiscount { holdingId symbol exchange acquisitionTradeId acquisitionDate quantity unrealisedGain discountEligibleFrom daysToWait gainIfSoldNow gainIfSoldWhenEligible taxSaved }
  projectedNetCapitalGain estimatedTax warnings { code holdingId message }`;
const WHAT_IF = `portfolioId financialYear asOf entityType discountPercent marginalTaxRate before { ${SUMMARY} } after { ${SUMMARY} }
  difference { netCapitalGain netCapitalLossesCarriedForward estimatedTax }
  sells { holdingId symbol exchange date quantity price method proceeds costBase capitalGain parcels { acquisitionTradeId acquisitionDate quantity costBase proceeds capitalGain isDiscountable } }`;
const OVERVIEW = `portfolioId name entityType realisedNetCapitalGain unrealisedLosses largestHarvestReduction`;

const canonical = (b: never) => canonicalAnswer(b) as Json;
const idsToText = (input: Json): Json => ({
  ...input,
  sells: (input.sells as Json[] | undefined)?.map((s) => ({
    ...s,
    holdingId: s.holdingId === undefined ? undefined : String(s.holdingId),
    parcels: (s.parcels as Json[] | undefined)?.map((p) => ({ ...p, tradeId: String(p.tradeId) })),
  })),
});

const transports: {
  name: string;
  planner(k: string, p: number, query: Json): Promise<Outcome<Json>>;
  whatIf(k: string, p: number, input: Json): Promise<Outcome<Json>>;
  overview(k: string, query: Json): Promise<Outcome<Json[]>>;
}[] = [
  {
    name: "REST",
    planner: (k, p, query) =>
      restCall(t.http.get(`/v1/portfolios/${p}/tax-planner`).query(query).set("authorization", k), 200, canonical),
    whatIf: (k, p, input) =>
      restCall(
        t.http.post(`/v1/portfolios/${p}/tax-planner/what-if`).set("authorization", k).send(input),
        200,
        canonical,
      ),
    overview: (k, query) =>
      restCall(t.http.get(`/v1/tax-planner`).query(query).set("authorization", k), 200, (b: never) =>
        (b as Json[]).map((r) => canonicalAnswer(r) as Json),
      ),
  },
  {
    name: "GraphQL",
    planner: async (k, p, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $fy: Int, $asOf: Date, $rate: Decimal) { taxPlanner(portfolioId: $p, financialYear: $fy, asOf: $asOf, marginalTaxRate: $rate) { ${PLAN} } }`,
          { p: String(p), fy: query.financialYear, asOf: query.asOf, rate: query.marginalTaxRate },
        ),
        "taxPlanner",
        canonical,
      ),
    whatIf: async (k, p, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $input: TaxPlannerWhatIfInput!) { taxPlannerWhatIf(portfolioId: $p, input: $input) { ${WHAT_IF} } }`,
          { p: String(p), input: idsToText(input) },
        ),
        "taxPlannerWhatIf",
        canonical,
      ),
    overview: async (k, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($fy: Int, $asOf: Date, $c: ID) { taxPlannerOverview(financialYear: $fy, asOf: $asOf, clientId: $c) { ${OVERVIEW} } }`,
          {
            fy: query.financialYear,
            asOf: query.asOf,
            c: query.clientId === undefined ? undefined : String(query.clientId),
          },
        ),
        "taxPlannerOverview",
        (b: never) => (b as Json[]).map((r) => canonicalAnswer(r) as Json),
      ),
  },
];

const AS_OF = { financialYear: 2026, asOf: "2026-05-15", marginalTaxRate: "37" };

describe.each(transports)("over $name", (tr) => {
  it("the plan: realised to date, the loss to harvest, the gains to wait for", async () => {
    const s = await ledger();
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
    const s = await ledger();
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

  it("what-if: two sells of one holding (the second after the first), and two holdings at once", async () => {
    const s = await ledger();
    // CCC at 9 (asOf's price), FIFO: 60 of the 2024 parcel (cost 900, proceeds 540, loss 360), then
    // the other 40 (cost 600, proceeds 360, loss 240) and 5 of the 2026 parcel (45 for 45: 0).
    const two = expectOk(
      await tr.whatIf(key, s.portfolioId, {
        ...AS_OF,
        sells: [
          { holdingId: s.ccc, quantity: 60 },
          { holdingId: s.ccc, quantity: 45 },
        ],
      }),
    );
    expect((two.sells as Json[]).map((x) => [x.quantity, x.price, x.method, x.capitalGain, x.parcels])).toEqual([
      [
        "60",
        "9",
        "FIFO",
        "-360",
        [
          {
            acquisitionTradeId: s.cccFirst,
            acquisitionDate: "2024-03-01",
            quantity: "60",
            costBase: "900",
            proceeds: "540",
            capitalGain: "-360",
            isDiscountable: true,
          },
        ],
      ],
      [
        "45",
        "9",
        "FIFO",
        "-240",
        [
          {
            acquisitionTradeId: s.cccFirst,
            acquisitionDate: "2024-03-01",
            quantity: "40",
            costBase: "600",
            proceeds: "360",
            capitalGain: "-240",
            isDiscountable: true,
          },
          {
            acquisitionTradeId: s.cccSecond,
            acquisitionDate: "2026-05-01",
            quantity: "5",
            costBase: "45",
            proceeds: "45",
            capitalGain: "0",
            isDiscountable: false,
          },
        ],
      ],
    ]);
    // The 600 of losses: as the harvest row said, 700 → 300.
    expect([two.before, two.after].map((x) => (x as Json).netCapitalGain)).toEqual(["700", "300"]);
    expect(two.difference).toEqual({
      netCapitalGain: "-400",
      netCapitalLossesCarriedForward: "0",
      estimatedTax: "-148",
    });

    // CCC's 100 at 9 (loss 600) and DDD's 50 at 40 on 2026-06-01 (gain 1,000, not discountable):
    // short 200 + 1,000 − 600 = 600, long 1,000 → 500: 1,100; tax 407 − 259 = 148.
    const mixed = expectOk(
      await tr.whatIf(key, s.portfolioId, {
        ...AS_OF,
        sells: [
          { holdingId: s.ccc, quantity: 100 },
          { holdingId: s.ddd, quantity: 50, price: 40, date: "2026-06-01" },
        ],
      }),
    );
    expect((mixed.after as Json).netCapitalGain).toBe("1100");
    expect(mixed.difference).toEqual({
      netCapitalGain: "400",
      netCapitalLossesCarriedForward: "0",
      estimatedTax: "148",
    });
    expect((mixed.sells as Json[]).map((x) => [x.date, x.proceeds, x.costBase, x.capitalGain])).toEqual([
      ["2026-05-15", "900", "1500", "-600"],
      ["2026-06-01", "2000", "1000", "1000"],
    ]);
  });

  it("refuses bad input (400) and writes nothing", async () => {
    const s = await ledger();
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
    expect(await t.db.sql<{ n: number }>("SELECT count(*)::int AS n FROM trade")).toEqual(before);
  });

  it("more units than held in a what-if: 422 naming the sell", async () => {
    const s = await ledger();
    const o = await tr.whatIf(key, s.portfolioId, {
      ...AS_OF,
      sells: [
        { holdingId: s.ccc, quantity: 100 },
        { holdingId: s.ccc, quantity: 20 },
      ],
    });
    expectError(o, "BUSINESS_RULE");
    expect(!o.ok && o.message).toContain("sells[1]");
  });

  it("another account's portfolio or holding: 404; a non-AUD portfolio: 422; a Read client key may plan", async () => {
    const s = await ledger();
    const intruder = await t.newAccount("intruder");
    expectError(await tr.planner(intruder, s.portfolioId, AS_OF), "NOT_FOUND");
    expectError(
      await tr.whatIf(intruder, s.portfolioId, { ...AS_OF, sells: [{ holdingId: s.ccc, quantity: 1 }] }),
      "NOT_FOUND",
    );
    const theirs = await ledger(intruder);
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
      trade("GGG", "Buy", "2025-08-01", 100, 10),
      trade("GGG", "Sell", "2025-12-01", 100, 10 + gain / 100),
      trade("LLL", "Buy", "2025-08-01", 100, 10 + loss / 100),
    ]);
    expect(res.status).toBe(201);
    return p;
  }

  it("one row per AUD, AU portfolio, as its planner reports it, largest gain first, in a fixed number of statements", async () => {
    await prices(key, [["LLL", 10]]);
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
    await prices(key, [["LLL", 10]]);
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

it("both transports give the same plan and the same what-if, figure for figure", async () => {
  const s = await ledger();
  const [rest, graphql] = transports;
  expect(expectOk(await graphql.planner(key, s.portfolioId, AS_OF))).toEqual(
    expectOk(await rest.planner(key, s.portfolioId, AS_OF)),
  );
  const input = { ...AS_OF, sells: [{ holdingId: s.ddd, quantity: 20, brokerage: 9.95, method: "LIFO" }] };
  expect(expectOk(await graphql.whatIf(key, s.portfolioId, input))).toEqual(
    expectOk(await rest.whatIf(key, s.portfolioId, input)),
  );
});
