import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
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
 * Unrealised capital gains (docs/reports.md §5.2) and simulate sell (§5.5) over REST and GraphQL.
 *
 * Ledger (Individual, FIFO): AAA buy 100 @ 10 on 2023-05-02 (cost 1,000), buy 50 @ 20 on
 * 2024-08-01 (1,000); BBB buy 10 @ 10 on 2024-07-10, sell 10 @ 40 on 2024-12-01 (a 300
 * short-term gain in FY2025). AAA closes at 16 on 2025-02-28.
 *
 * Unrealised on 2025-03-01: parcel 1: 100 × 16 = 1,600, gain 600, discountable; parcel 2: 50 × 16
 * = 800, loss 200, discountable from 2025-08-02 (12 months after 2024-08-01, both days excluded).
 * Summary: the 200 loss comes off the 600 discount gain (no non-discount gain): 400 left,
 * discount 200, net 200; 18H 600.
 *
 * Simulate selling 120 AAA @ 16 on 2025-03-01, FIFO: parcel 1 all 100 (proceeds 1,600, gain 600),
 * parcel 2 20 units (cost 400, proceeds 320, loss 80). Alone: 80 off 600 = 520, discount 260,
 * assessable 260. Year to date: before, BBB's 300 (net 300); after, the 80 loss comes off BBB's
 * 300 first (220 left) and the 600 is halved: 220 + 300 = 520.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

async function ledger(k = key) {
  const portfolioId = await newPortfolio(t, k, { name: "Holder" });
  const first = await newTrade(t, k, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2023-05-02",
    quantity: 100,
    price: 10,
  });
  const second = await newTrade(t, k, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-08-01",
    quantity: 50,
    price: 20,
  });
  await newTrade(t, k, {
    portfolioId,
    symbol: "BBB",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-07-10",
    quantity: 10,
    price: 10,
  });
  await newTrade(t, k, {
    portfolioId,
    symbol: "BBB",
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: "2024-12-01",
    quantity: 10,
    price: 40,
  });
  expect(
    (
      await t.http
        .post("/v1/market-prices/bulk")
        .set("authorization", k)
        .send([{ symbol: "AAA", exchange: "ASX", date: "2025-02-28", close: 16 }])
    ).status,
  ).toBe(200);
  return { portfolioId, holdingId: first.holdingId, first: first.id, second: second.id };
}

const SUMMARY = `shortTermGains longTermGains trustCapitalGains capitalLosses lossesAppliedToShortTerm lossesAppliedToLongTerm carriedForwardLossesAvailable carriedForwardLossesApplied discount totalCapitalGains netCapitalGain netCapitalLossesCarriedForward`;
const PARCEL = `acquisitionTradeId acquisitionDate quantity costBase proceeds capitalGain isDiscountable`;

const transports: {
  name: string;
  unrealised(k: string, p: number, query: Json): Promise<Outcome<Json>>;
  simulate(k: string, p: number, input: Json): Promise<Outcome<Json>>;
}[] = [
  {
    name: "REST",
    unrealised: (k, p, query) =>
      restCall(
        t.http.get(`/v1/portfolios/${p}/reports/unrealised-capital-gains`).query(query).set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as Json,
      ),
    simulate: (k, p, input) =>
      restCall(
        t.http.post(`/v1/portfolios/${p}/simulate-sell`).set("authorization", k).send(input),
        200,
        (b) => canonicalAnswer(b) as Json,
      ),
  },
  {
    name: "GraphQL",
    unrealised: async (k, p, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $d: Date, $cf: Boolean) { unrealisedCapitalGainsReport(portfolioId: $p, date: $d, includeCarriedForward: $cf) { portfolioId date financialYear entityType discountPercent summary { ${SUMMARY} }
            holdings { holdingId symbol exchange quantity marketValue costBase unrealisedGain shortTermGain longTermGain capitalLoss nextDiscountDate parcels { ${PARCEL} disposalDate } } unpricedHoldings { holdingId } } }`,
          { p: String(p), d: query.date, cf: query.includeCarriedForward },
        ),
        "unrealisedCapitalGainsReport",
        (b) => canonicalAnswer(b) as Json,
      ),
    simulate: async (k, p, input) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $input: SimulateSellInput!) { simulateSell(portfolioId: $p, input: $input) { holdingId symbol date quantity method proceeds costBase capitalGain shortTermGain longTermGain capitalLoss discount assessableCapitalGain
            parcels { ${PARCEL} } yearToDate { financialYear netCapitalGainBefore netCapitalGainAfter } } }`,
          {
            p: String(p),
            input: {
              ...input,
              holdingId: input.holdingId === undefined ? undefined : String(input.holdingId),
              parcels: (input.parcels as Json[] | undefined)?.map((x) => ({ ...x, tradeId: String(x.tradeId) })),
            },
          },
        ),
        "simulateSell",
        (b) => canonicalAnswer(b) as Json,
      ),
  },
];

describe.each(transports)("over $name", (tr) => {
  it("unrealised: every open parcel sold at the day's price, with the summary and nextDiscountDate", async () => {
    const s = await ledger();
    const r = expectOk(await tr.unrealised(key, s.portfolioId, { date: "2025-03-01" }));
    expect(r).toMatchObject({
      portfolioId: s.portfolioId,
      date: "2025-03-01",
      financialYear: 2025,
      entityType: "Individual",
      discountPercent: "50",
    });
    expect(r.summary).toEqual({
      shortTermGains: "0",
      longTermGains: "600",
      trustCapitalGains: "0",
      capitalLosses: "200",
      lossesAppliedToShortTerm: "0",
      lossesAppliedToLongTerm: "200",
      carriedForwardLossesAvailable: "0",
      carriedForwardLossesApplied: "0",
      discount: "200",
      totalCapitalGains: "600",
      netCapitalGain: "200",
      netCapitalLossesCarriedForward: "0",
    });
    expect(r.holdings).toEqual([
      {
        holdingId: s.holdingId,
        symbol: "AAA",
        exchange: "ASX",
        quantity: "150",
        marketValue: "2400",
        costBase: "2000",
        unrealisedGain: "400",
        shortTermGain: "0",
        longTermGain: "600",
        capitalLoss: "200",
        nextDiscountDate: "2025-08-02",
        parcels: [
          {
            acquisitionTradeId: s.first,
            acquisitionDate: "2023-05-02",
            disposalDate: "2025-03-01",
            quantity: "100",
            costBase: "1000",
            proceeds: "1600",
            capitalGain: "600",
            isDiscountable: true,
          },
          {
            acquisitionTradeId: s.second,
            acquisitionDate: "2024-08-01",
            disposalDate: "2025-03-01",
            quantity: "50",
            costBase: "1000",
            proceeds: "800",
            capitalGain: "-200",
            isDiscountable: false,
          },
        ],
      },
    ]);
    expect(r.unpricedHoldings).toEqual([]);
  });

  it("unrealised refuses a date in the future, another account's portfolio and a non-AUD one", async () => {
    const s = await ledger();
    expectInvalid(await tr.unrealised(key, s.portfolioId, { date: "2999-01-01" }), "date");
    expectInvalid(await tr.unrealised(key, s.portfolioId, { date: "2025-02-30" }), "date");
    expectError(
      await tr.unrealised(await t.newAccount("intruder"), s.portfolioId, { date: "2025-03-01" }),
      "NOT_FOUND",
    );
    expectError(
      await tr.unrealised(key, await newPortfolio(t, key, { name: "US", baseCurrencyCode: "USD" }), {
        date: "2025-03-01",
      }),
      "BUSINESS_RULE",
    );
  });

  it("simulate sell by the method that applies: the parcels, the sale alone and the year to date", async () => {
    const s = await ledger();
    const r = expectOk(
      await tr.simulate(key, s.portfolioId, { holdingId: s.holdingId, quantity: 120, price: 16, date: "2025-03-01" }),
    );
    expect(r).toEqual({
      holdingId: s.holdingId,
      symbol: "AAA",
      date: "2025-03-01",
      quantity: "120",
      method: "FIFO",
      proceeds: "1920",
      costBase: "1400",
      capitalGain: "520",
      shortTermGain: "0",
      longTermGain: "600",
      capitalLoss: "80",
      discount: "260",
      assessableCapitalGain: "260",
      parcels: [
        {
          acquisitionTradeId: s.first,
          acquisitionDate: "2023-05-02",
          quantity: "100",
          costBase: "1000",
          proceeds: "1600",
          capitalGain: "600",
          isDiscountable: true,
        },
        {
          acquisitionTradeId: s.second,
          acquisitionDate: "2024-08-01",
          quantity: "20",
          costBase: "400",
          proceeds: "320",
          capitalGain: "-80",
          isDiscountable: false,
        },
      ],
      yearToDate: { financialYear: 2025, netCapitalGainBefore: "300", netCapitalGainAfter: "520" },
    });
  });

  it("simulate sell by another method, or by manual parcels", async () => {
    const s = await ledger();
    // LIFO: all 50 of parcel 2 (cost 1,000, proceeds 800, loss 200), then 70 of parcel 1 (cost
    // 700, proceeds 1,120, gain 420). Alone: 420 − 200 = 220, discount 110, assessable 110.
    const lifo = expectOk(
      await tr.simulate(key, s.portfolioId, {
        holdingId: s.holdingId,
        quantity: 120,
        price: 16,
        date: "2025-03-01",
        method: "LIFO",
      }),
    );
    expect(lifo).toMatchObject({
      method: "LIFO",
      capitalGain: "220",
      capitalLoss: "200",
      longTermGain: "420",
      discount: "110",
      assessableCapitalGain: "110",
    });
    const manual = expectOk(
      await tr.simulate(key, s.portfolioId, {
        holdingId: s.holdingId,
        quantity: 120,
        price: 16,
        date: "2025-03-01",
        parcels: [
          { tradeId: s.second, quantity: 50 },
          { tradeId: s.first, quantity: 70 },
        ],
      }),
    );
    expect(manual).toMatchObject({ method: "Manual", capitalGain: "220", assessableCapitalGain: "110" });
  });

  it("simulate sell writes nothing, and a Read client key may call it", async () => {
    const s = await ledger();
    const before = await t.db.sql<{ n: number }>("SELECT count(*)::int AS n FROM trade");
    const reader = await t.newClientKey(key, "Read", [s.portfolioId]);
    expect(
      expectOk(
        await tr.simulate(reader, s.portfolioId, {
          holdingId: s.holdingId,
          quantity: 1,
          price: 16,
          date: "2025-03-01",
        }),
      ),
    ).toMatchObject({ quantity: "1" });
    expect(await t.db.sql<{ n: number }>("SELECT count(*)::int AS n FROM trade")).toEqual(before);
  });

  it("simulate sell refuses more units than held (422), a bad method, quantity or holding", async () => {
    const s = await ledger();
    expectError(
      await tr.simulate(key, s.portfolioId, { holdingId: s.holdingId, quantity: 151, price: 16, date: "2025-03-01" }),
      "BUSINESS_RULE",
    );
    // Before the second buy only 100 are held.
    expectError(
      await tr.simulate(key, s.portfolioId, { holdingId: s.holdingId, quantity: 120, price: 16, date: "2024-07-31" }),
      "BUSINESS_RULE",
    );
    expectInvalid(
      await tr.simulate(key, s.portfolioId, { holdingId: s.holdingId, quantity: 0, price: 16, date: "2025-03-01" }),
      "quantity",
    );
    if (tr.name === "REST")
      expectInvalid(
        await tr.simulate(key, s.portfolioId, {
          holdingId: s.holdingId,
          quantity: 1,
          price: 16,
          date: "2025-03-01",
          method: "Random",
        }),
        "method",
      );
    expectError(
      await tr.simulate(key, s.portfolioId, { holdingId: 999_999, quantity: 1, price: 16, date: "2025-03-01" }),
      "NOT_FOUND",
    );
    const intruder = await t.newAccount("intruder");
    expectError(
      await tr.simulate(intruder, s.portfolioId, {
        holdingId: s.holdingId,
        quantity: 1,
        price: 16,
        date: "2025-03-01",
      }),
      "NOT_FOUND",
    );
  });
});
