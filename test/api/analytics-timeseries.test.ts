import { useTestApp } from "../support/app";
import { navexaWorkedExample } from "../scenarios/navexa-worked-example";
import { newPortfolio, postCreated } from "../factories";
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
import { cashFundedRoundTrip, usdHolding } from "../scenarios/analytics";

/**
 * The portfolio timeseries (docs/reports.md §1) over REST and GraphQL.
 *
 * docs/rules.md §11.5's worked example: buy 1,000 @ 2.00 on 2018-01-01, buy 1,000 @ 2.20 on 2018-12-31,
 * sell 2,000 @ 2.30 on 2019-12-31; no cash account, so the trades are the flows. Monthly points
 * from 2018-01-01 to 2019-12-31: the first is `from`, then every month end (24), the last `to`.
 *   2018-01-01  value 1,000 × 2.00 = 2,000, invested 2,000, TWR 0
 *   2018-12-31  value 2,000 × 2.20 = 4,400, invested 4,200, TWR 4,400 / 4,200 − 1 = 4.761904762 %
 *   2019-12-31  value 0 (sold for 4,600), invested 4,200 − 4,600 = −400, TWR 9.523809524 %
 * Every point: totalValue = marketValue + cashValue + incomeReceivable.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const navexa = (k = key) => navexaWorkedExample(t, k, "Worked example");

type Point = {
  date: string;
  marketValue: string;
  cashValue: string;
  incomeReceivable: string;
  totalValue: string;
  netInvested: string;
  cumulativeReturnPercent: string;
};

const transports: { name: string; series(k: string, p: number, query: Json): Promise<Outcome<Point[]>> }[] = [
  {
    name: "REST",
    series: (k, p, query) =>
      restCall(
        t.http.get(`/v1/portfolios/${p}/timeseries`).query(query).set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as Point[],
      ),
  },
  {
    name: "GraphQL",
    series: async (k, p, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($p: ID!, $from: Date, $to: Date, $i: TimeseriesInterval) { portfolioTimeseries(portfolioId: $p, from: $from, to: $to, interval: $i) { date marketValue cashValue incomeReceivable totalValue netInvested cumulativeReturnPercent } }`,
          {
            p: String(p),
            from: query.from,
            to: query.to,
            i: query.interval,
          },
        ),
        "portfolioTimeseries",
        (b) => canonicalAnswer(b) as Point[],
      ),
  },
];

const pct = (p: Point) => Number(p.cumulativeReturnPercent);

describe.each(transports)("portfolio timeseries over $name", (tr) => {
  it("the worked example, monthly: values, net invested and the time-weighted return", async () => {
    const p = await navexa();
    const points = expectOk(await tr.series(key, p, { from: "2018-01-01", to: "2019-12-31" }));
    // Over 400 days: monthly by default; from + 24 month ends (the last is `to`).
    expect(points).toHaveLength(25);
    expect(points[0]).toMatchObject({
      date: "2018-01-01",
      marketValue: "2000",
      cashValue: "0",
      incomeReceivable: "0",
      totalValue: "2000",
      netInvested: "2000",
    });
    expect(pct(points[0])).toBe(0);
    expect(points[1].date).toBe("2018-01-31");
    const endOf2018 = points.find((x) => x.date === "2018-12-31")!;
    expect(endOf2018).toMatchObject({ marketValue: "4400", totalValue: "4400", netInvested: "4200" });
    expect(pct(endOf2018)).toBeCloseTo(4.761904762, 8);
    const last = points[points.length - 1];
    expect(last).toMatchObject({ date: "2019-12-31", marketValue: "0", totalValue: "0", netInvested: "-400" });
    expect(pct(last)).toBeCloseTo(9.523809524, 8);
    for (const x of points)
      expect(Number(x.totalValue)).toBeCloseTo(
        Number(x.marketValue) + Number(x.cashValue) + Number(x.incomeReceivable),
        8,
      );
  });

  it("daily and weekly points; from and to are always points", async () => {
    const p = await navexa();
    const daily = expectOk(await tr.series(key, p, { from: "2018-12-29", to: "2019-01-02" }));
    expect(daily.map((x) => x.date)).toEqual(["2018-12-29", "2018-12-30", "2018-12-31", "2019-01-01", "2019-01-02"]);
    // 2018-12-31: 4,400 / (2,000 + 2,200) − 1 from the opening 2,000 of 2018-12-28's close.
    expect(pct(daily[2])).toBeCloseTo(4.761904762, 8);
    // Wednesday 2019-01-02 to Wednesday 2019-01-16: the Sundays 6 and 13 between.
    const weekly = expectOk(await tr.series(key, p, { from: "2019-01-02", to: "2019-01-16", interval: "week" }));
    expect(weekly.map((x) => x.date)).toEqual(["2019-01-02", "2019-01-06", "2019-01-13", "2019-01-16"]);
  });

  it("with a cash account the deposits are the flows: net invested is what was deposited", async () => {
    const { portfolioId } = await cashFundedRoundTrip(t, key);
    // Deposit 1,000 (a flow); the buy (500) and the sale (600) settle through the synced account
    // (not flows). 2024-01-04: cash 1,000 − 500 + 600 = 1,100, holdings 0; TWR 1,100 / 1,000 − 1 = 10 %.
    const points = expectOk(await tr.series(key, portfolioId, { from: "2024-01-01", to: "2024-01-04" }));
    expect(points.map((x) => [x.date, x.marketValue, x.cashValue, x.netInvested])).toEqual([
      ["2024-01-01", "0", "1000", "1000"],
      ["2024-01-02", "500", "500", "1000"],
      ["2024-01-03", "500", "500", "1000"],
      ["2024-01-04", "0", "1100", "1000"],
    ]);
    expect(pct(points[3])).toBeCloseTo(10, 9);
  });

  it("a portfolio with no events answers one point of zeros for today", async () => {
    const p = await newPortfolio(t, key, { name: "Empty" });
    const points = expectOk(await tr.series(key, p, {}));
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({ date: new Date().toISOString().slice(0, 10), totalValue: "0", netInvested: "0" });
  });

  it("refuses from after to, a malformed date, an unknown interval (400 naming the field); another account's portfolio: 404", async () => {
    const p = await navexa();
    expectInvalid(await tr.series(key, p, { from: "2019-01-02", to: "2019-01-01" }), "from");
    if (tr.name === "REST") {
      expectInvalid(await tr.series(key, p, { from: "2019-02-30" }), "from");
      expectInvalid(await tr.series(key, p, { interval: "year" }), "interval");
    }
    expectError(await tr.series(await t.newAccount("intruder"), p, {}), "NOT_FOUND");
  });

  it("a Read client key reads it", async () => {
    const p = await navexa();
    const reader = await t.newClientKey(key, "Read", [p]);
    expect(expectOk(await tr.series(reader, p, { from: "2019-12-31", to: "2019-12-31" }))[0]).toMatchObject({
      netInvested: "-400",
    });
  });
});

type HoldingPoint = {
  date: string;
  quantity: string;
  price: string | null;
  exchangeRate: string | null;
  marketValue: string;
  costBase: string;
  netInvested: string;
  cumulativeReturnPercent: string;
};

const holdingTransports: {
  name: string;
  series(k: string, h: number, query: Json): Promise<Outcome<HoldingPoint[]>>;
}[] = [
  {
    name: "REST",
    series: (k, h, query) =>
      restCall(
        t.http.get(`/v1/holdings/${h}/timeseries`).query(query).set("authorization", k),
        200,
        (b) => canonicalAnswer(b) as HoldingPoint[],
      ),
  },
  {
    name: "GraphQL",
    series: async (k, h, query) =>
      gqlOutcome(
        await t.gql(
          k,
          `query($h: ID!, $from: Date, $to: Date, $i: TimeseriesInterval) { holdingTimeseries(holdingId: $h, from: $from, to: $to, interval: $i) { date quantity price exchangeRate marketValue costBase netInvested cumulativeReturnPercent } }`,
          {
            h: String(h),
            from: query.from,
            to: query.to,
            i: query.interval,
          },
        ),
        "holdingTimeseries",
        (b) => canonicalAnswer(b) as HoldingPoint[],
      ),
  },
];

describe.each(holdingTransports)("holding timeseries over $name", (tr) => {
  it("the worked example's holding: units, price, cost base, its own flows and return", async () => {
    const p = await navexa();
    const [{ id: holdingId }] = (
      await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key)
    ).body as { id: number }[];
    const points = expectOk(await tr.series(key, holdingId, { from: "2018-01-01", to: "2019-12-31" }));
    expect(points).toHaveLength(25);
    expect(points[0]).toMatchObject({
      date: "2018-01-01",
      quantity: "1000",
      price: "2",
      exchangeRate: "1",
      marketValue: "2000",
      costBase: "2000",
      netInvested: "2000",
    });
    const endOf2018 = points.find((x) => x.date === "2018-12-31")!;
    // Cost base 2,000 + 2,200; the return 4,400 / 4,200 − 1.
    expect(endOf2018).toMatchObject({
      quantity: "2000",
      price: "2.2",
      marketValue: "4400",
      costBase: "4200",
      netInvested: "4200",
    });
    expect(Number(endOf2018.cumulativeReturnPercent)).toBeCloseTo(4.761904762, 8);
    const last = points[points.length - 1];
    expect(last).toMatchObject({ quantity: "0", price: "2.3", marketValue: "0", costBase: "0", netInvested: "-400" });
    expect(Number(last.cumulativeReturnPercent)).toBeCloseTo(9.523809524, 8);
  });

  it("a USD holding: its income is an outflow at its own rate", async () => {
    const { holdingId } = await usdHolding(t, key, "US");
    await postCreated(t, key, "/v1/income", {
      holdingId,
      exDividendDate: "2024-01-05",
      paidDate: "2024-01-10",
      unfrankedAmount: 20,
      currencyCode: "USD",
      exchangeRate: 1.5,
    });
    // In: 10 × USD 100 × 1.5 = AUD 1,500; out on 2024-01-10: USD 20 × 1.5 = AUD 30.
    const points = expectOk(
      await tr.series(key, holdingId, { from: "2024-01-02", to: "2024-01-10", interval: "week" }),
    );
    expect(points.map((x) => [x.date, x.quantity, x.price, x.exchangeRate, x.marketValue, x.netInvested])).toEqual([
      ["2024-01-02", "10", "100", "1.5", "1500", "1500"],
      ["2024-01-07", "10", "100", "1.5", "1500", "1500"],
      ["2024-01-10", "10", "100", "1.5", "1500", "1470"],
    ]);
    // The income accrues from its ex-date (docs/rules.md §10): on 2024-01-07 the holding is worth 1,500 and
    // is owed AUD 30: (1,500 + 30) / 1,500 − 1 = 2 % already. Paid at the end of 2024-01-10, the 30
    // leaves as an outflow as the receivable ends: (1,500 + 30) / (1,530) − 1 = 0 that day; still 2 %.
    expect(Number(points[1].cumulativeReturnPercent)).toBeCloseTo(2, 9);
    expect(Number(points[2].cumulativeReturnPercent)).toBeCloseTo(2, 9);
  });

  it("another account's holding: 404; from after to: 400", async () => {
    const p = await navexa();
    const [{ id: holdingId }] = (
      await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key)
    ).body as { id: number }[];
    expectError(await tr.series(await t.newAccount("intruder"), holdingId, {}), "NOT_FOUND");
    expectInvalid(await tr.series(key, holdingId, { from: "2019-01-02", to: "2019-01-01" }), "from");
  });
});
