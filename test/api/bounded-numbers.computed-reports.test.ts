import fs from "node:fs";
import path from "node:path";
import { buildSchema, getNamedType, isLeafType, isNonNullType, isObjectType, type GraphQLObjectType } from "graphql";
import type { Response } from "supertest";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { utcDate } from "../support/kit";
import { restCall, withApp, type Json } from "../support/outcomes";

/**
 * Every computed report over zero, tiny and huge prices and rates answers valid, finite JSON or a
 * clear 4xx, never a 500.
 *
 * Issue 20, rows 5 and 10: no non-finite number ever leaves the service. Every computed report is
 * walked, over REST and GraphQL, on a ledger whose market prices, custom price and FX rate are 0
 * (legacy rows, an income's exchange rate among them: the API refuses 0 now, see bounded-positive-inputs.test.ts, so they are written
 * straight to the database), tiny (the smallest the columns store) or huge (the largest). Each
 * answer is 2xx JSON that parses and holds no NaN/Infinity, or a clear 4xx; never a 500.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { accountIdOf } = withApp(() => t);

const FY = 2023; // 2022-07-01 .. 2023-06-30
const FROM = "2022-07-01";
const TO = "2023-06-30";

/** A ledger over AUD: a listed holding (ZED), a USD one (AAPL), a custom investment, income and a sale; a model toward NEWCO, held by nobody. */
async function ledger(close: string, rate: string, fx: [string, string, string][]) {
  const p = await newPortfolio(t, key);
  const zed = await newTrade(t, key, {
    portfolioId: p,
    symbol: "ZED",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2022-08-01",
    quantity: 100,
    price: 10,
  });
  const aapl = await newTrade(t, key, {
    portfolioId: p,
    symbol: "AAPL",
    exchange: "NASDAQ",
    tradeType: "Buy",
    tradeDate: "2022-08-01",
    quantity: 10,
    price: 100,
    exchangeRate: 1.5,
  });
  await newTrade(t, key, {
    portfolioId: p,
    symbol: "ZED",
    exchange: "ASX",
    tradeType: "Sell",
    tradeDate: "2023-03-01",
    quantity: 40,
    price: 12,
  });
  const house = await postCreated<{ id: number }>(t, key, `/v1/portfolios/${p}/holdings`, {
    symbol: "HOUSE",
    name: "Beach house",
  });
  await postCreated(t, key, `/v1/holdings/${house.id}/prices`, { date: "2022-08-01", price: 500000 });
  await postCreated(t, key, "/v1/income", {
    holdingId: zed.holdingId,
    exDividendDate: "2023-02-01",
    paidDate: "2023-02-15",
    frankedAmount: 70,
    unfrankedAmount: 30,
  });
  const dividend = await postCreated<{ id: number }>(t, key, "/v1/income", {
    holdingId: aapl.holdingId,
    exDividendDate: "2023-04-03",
    paidDate: "2023-04-17",
    foreignIncome: 1000,
    foreignTaxPaid: 150,
    exchangeRate: 1.5,
  });
  await postCreated(t, key, `/v1/portfolios/${p}/allocation-models`, {
    name: "Toward NEWCO",
    dimension: "holding",
    isActive: true,
    buckets: [
      { label: "ZED.ASX", targetPct: 30, tolerancePct: 1 },
      { label: "AAPL.NASDAQ", targetPct: 30, tolerancePct: 1 },
      { label: "NEWCO.ASX", targetPct: 40, tolerancePct: 1 },
    ],
  });
  // The legacy rows: what the API accepted before prices and rates had to be positive.
  const account = await accountIdOf(p);
  for (const [symbol, exchange] of [
    ["ZED", "ASX"],
    ["AAPL", "NASDAQ"],
    ["NEWCO", "ASX"],
  ]) {
    for (const date of ["2022-07-01", "2022-09-01", "2023-01-03"]) {
      await t.db.prisma.marketPrice.create({
        data: { accountId: account, symbol, exchange, date: utcDate(date), close },
      });
    }
  }
  await t.db.prisma.customPrice.create({ data: { holdingId: house.id, date: utcDate("2022-09-01"), price: close } });
  await t.db.prisma.income.update({ where: { id: dividend.id }, data: { exchangeRate: rate } });
  for (const [base, quote, r] of fx)
    await t.db.prisma.fxRate.create({
      data: { accountId: account, base, quote, date: utcDate("2022-09-01"), rate: r },
    });
  return { p, zed: zed.holdingId, aapl: aapl.holdingId, house: house.id };
}

const schema = buildSchema(fs.readFileSync(path.join(__dirname, "../../schema.graphql"), "utf8"));

/** Every field of `type` a query can select without arguments, to `depth` levels: the whole answer, so every number is serialised. */
function selection(type: GraphQLObjectType, depth: number): string {
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) parts.push(field.name);
    else if (isObjectType(named) && depth > 1) parts.push(`${field.name} { ${selection(named, depth - 1)} }`);
  }
  return parts.join(" ") || "__typename";
}
const returnType = (root: "Query" | "Mutation", field: string) =>
  getNamedType(
    (root === "Query" ? schema.getQueryType() : schema.getMutationType())!.getFields()[field].type,
  ) as GraphQLObjectType;

interface Call {
  name: string;
  send(): Promise<Response>;
}

/** Every computed report of the ledger, as REST and GraphQL calls. */
function reports(l: Awaited<ReturnType<typeof ledger>>): Call[] {
  const get = (url: string) => () => t.http.get(url).set("authorization", key);
  const post = (url: string, body: Json) => () => t.http.post(url).set("authorization", key).send(body);
  const gql =
    (root: "Query" | "Mutation", field: string, args: string, vars: Json = {}, varDefs = "") =>
    () =>
      t.gql(
        key,
        `${root === "Query" ? "query" : "mutation"}${varDefs} { ${field}${args} { ${selection(returnType(root, field), 4)} } }`,
        vars,
      );
  const period = `from=${FROM}&to=${TO}`;
  const simulate = { holdingId: l.zed, quantity: 1, price: 15, date: "2023-06-01" };
  const rebalance = { asOf: TO, wholeUnits: false, cashToInvest: 1000, taxAware: true };
  return [
    { name: "REST holdings with values", send: get(`/v1/portfolios/${l.p}/holdings?date=${TO}`) },
    { name: "REST holding", send: get(`/v1/holdings/${l.zed}`) },
    { name: "REST performance", send: get(`/v1/portfolios/${l.p}/performance?${period}`) },
    {
      name: "REST performance by currency",
      send: get(`/v1/portfolios/${l.p}/performance?${period}&groupBy=currency&showLocalCurrency=true`),
    },
    { name: "REST benchmark NEWCO", send: get(`/v1/portfolios/${l.p}/benchmark?symbol=NEWCO&exchange=ASX&${period}`) },
    { name: "REST portfolio timeseries", send: get(`/v1/portfolios/${l.p}/timeseries?${period}&interval=week`) },
    { name: "REST holding timeseries ZED", send: get(`/v1/holdings/${l.zed}/timeseries?${period}&interval=week`) },
    { name: "REST holding timeseries AAPL", send: get(`/v1/holdings/${l.aapl}/timeseries?${period}&interval=week`) },
    { name: "REST holding timeseries HOUSE", send: get(`/v1/holdings/${l.house}/timeseries?${period}&interval=week`) },
    { name: "REST rebalance", send: post(`/v1/portfolios/${l.p}/rebalance`, rebalance) },
    {
      name: "REST rebalance whole units",
      send: post(`/v1/portfolios/${l.p}/rebalance`, { asOf: TO, band: "ExactTarget" }),
    },
    { name: "REST drift", send: get("/v1/drift") },
    { name: "REST capital gains", send: get(`/v1/portfolios/${l.p}/reports/capital-gains?financialYear=${FY}`) },
    { name: "REST unrealised", send: get(`/v1/portfolios/${l.p}/reports/unrealised-capital-gains?date=${TO}`) },
    { name: "REST taxable income", send: get(`/v1/portfolios/${l.p}/reports/taxable-income?financialYear=${FY}`) },
    { name: "REST mytax", send: get(`/v1/portfolios/${l.p}/reports/ato-mytax?financialYear=${FY}`) },
    { name: "REST simulate sell", send: post(`/v1/portfolios/${l.p}/simulate-sell`, simulate) },
    {
      name: "REST simulate sell USD",
      send: post(`/v1/portfolios/${l.p}/simulate-sell`, { ...simulate, holdingId: l.aapl }),
    },
    { name: "GraphQL holdings", send: gql("Query", "portfolio", `(id: "${l.p}")`) },
    {
      name: "GraphQL performance",
      send: gql(
        "Query",
        "performance",
        `(portfolioId: "${l.p}", from: "${FROM}", to: "${TO}", groupBy: "currency", showLocalCurrency: true)`,
      ),
    },
    {
      name: "GraphQL benchmark NEWCO",
      send: gql(
        "Query",
        "benchmark",
        `(portfolioId: "${l.p}", symbol: "NEWCO", exchange: "ASX", from: "${FROM}", to: "${TO}")`,
      ),
    },
    {
      name: "GraphQL portfolio timeseries",
      send: gql(
        "Query",
        "portfolioTimeseries",
        `(portfolioId: "${l.p}", from: "${FROM}", to: "${TO}", interval: week)`,
      ),
    },
    {
      name: "GraphQL holding timeseries ZED",
      send: gql("Query", "holdingTimeseries", `(holdingId: "${l.zed}", from: "${FROM}", to: "${TO}", interval: week)`),
    },
    {
      name: "GraphQL holding timeseries AAPL",
      send: gql("Query", "holdingTimeseries", `(holdingId: "${l.aapl}", from: "${FROM}", to: "${TO}", interval: week)`),
    },
    {
      name: "GraphQL rebalance",
      send: gql(
        "Mutation",
        "computeRebalance",
        `(portfolioId: "${l.p}", input: $input)`,
        { input: rebalance },
        "($input: RebalanceInput)",
      ),
    },
    { name: "GraphQL drift", send: gql("Query", "driftOverview", "") },
    {
      name: "GraphQL capital gains",
      send: gql("Query", "capitalGainsReport", `(portfolioId: "${l.p}", financialYear: ${FY})`),
    },
    {
      name: "GraphQL unrealised",
      send: gql("Query", "unrealisedCapitalGainsReport", `(portfolioId: "${l.p}", date: "${TO}")`),
    },
    {
      name: "GraphQL taxable income",
      send: gql("Query", "taxableIncomeReport", `(portfolioId: "${l.p}", financialYear: ${FY})`),
    },
    { name: "GraphQL mytax", send: gql("Query", "myTaxReport", `(portfolioId: "${l.p}", financialYear: ${FY})`) },
    {
      name: "GraphQL simulate sell",
      send: gql(
        "Query",
        "simulateSell",
        `(portfolioId: "${l.p}", input: $input)`,
        { input: { ...simulate, holdingId: String(l.zed) } },
        "($input: SimulateSellInput!)",
      ),
    },
  ];
}

/** Every string or number in a parsed answer that spells a non-finite number. */
function nonFinite(value: unknown, at = "$"): string[] {
  if (typeof value === "number") return Number.isFinite(value) ? [] : [at];
  if (typeof value === "string") return /^[-+]?(NaN|Infinity)$/.test(value) ? [`${at} = ${value}`] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => nonFinite(v, `${at}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => nonFinite(v, `${at}.${k}`));
  return [];
}

/** One answer judged: `ok` (2xx, valid JSON, finite), `4xx CODE`, or what went wrong. */
function verdict(res: Response): string {
  let body: Json;
  try {
    body = JSON.parse(res.text) as Json;
  } catch {
    return `${res.status} with a body that is not JSON: ${res.text.slice(0, 200)}`;
  }
  const bad = nonFinite(body);
  if (bad.length) return `${res.status} with non-finite numbers at ${bad.slice(0, 3).join(", ")}`;
  if (res.status >= 500) return `${res.status} ${String(body.code)}`;
  if (res.status >= 400) return `4xx ${String(body.code)}`;
  const errors = body.errors as { extensions?: { code?: string } }[] | undefined;
  if (errors?.length) {
    const codes = errors.map((e) => e.extensions?.code ?? "?");
    return codes.some((c) => c === "INTERNAL" || c === "INTERNAL_SERVER_ERROR")
      ? `GraphQL ${codes.join(",")}`
      : `4xx ${codes.join(",")}`;
  }
  return "ok";
}

const direct = (rate: string): [string, string, string][] => [["USD", "AUD", rate]];
// Four values each: it.each hands a callback with more parameters than values a `done` to call.
const CASES: [string, string, string, [string, string, string][]][] = [
  ["zero prices (and a zero FX rate)", "0", "0", direct("0")],
  ["tiny prices and rate", "0.00000001", "0.0000000001", direct("0.0000000001")],
  [
    "huge prices and rate (the columns' maxima)",
    "9999999999999999.99999999",
    "9999999999.9999999999",
    direct("9999999999.9999999999"),
  ],
  // Crossed through EUR, 10^-10 × 10^-10 rounds to a rate of 0 at 10 decimals.
  [
    "tiny rates crossed to 0",
    "1",
    "1",
    [
      ["USD", "EUR", "0.0000000001"],
      ["EUR", "AUD", "0.0000000001"],
    ],
  ],
  [
    "huge rates crossed to 10^20",
    "1",
    "1",
    [
      ["USD", "EUR", "9999999999.9999999999"],
      ["AUD", "EUR", "0.0000000001"],
    ],
  ],
];

describe("every computed report over zero, tiny and huge prices and rates (issue 20, row 5)", () => {
  it.each(CASES)(
    "%s: each answer is valid, finite JSON or a clear 4xx, never a 500",
    async (_name, close, rate, fx) => {
      const l = await ledger(close, rate, fx);
      const outcomes: Record<string, string> = {};
      for (const call of reports(l)) {
        // supertest parses a JSON body itself: invalid JSON (a bare NaN) fails there.
        outcomes[call.name] = await call
          .send()
          .then(verdict, (error: Error) => `an answer that is not JSON: ${error.message}`);
      }
      if (process.env.SHOW_OUTCOMES) console.log(JSON.stringify(outcomes, null, 1));
      const wrong = Object.entries(outcomes).filter(([, v]) => v !== "ok" && !v.startsWith("4xx "));
      expect(wrong).toEqual([]);
      // Most reports have an answer even then: a clear refusal is the exception (the benchmark on a price of 0).
      expect(Object.values(outcomes).filter((v) => v === "ok").length).toBeGreaterThanOrEqual(reports(l).length - 2);
    },
  );

  it("a rebalance toward a security whose close is 0 buys none of it and says why (was quantity Infinity, invalid JSON)", async () => {
    const l = await ledger("0", "1.5", [["USD", "AUD", "1.5"]]);
    const res = await t.http
      .post(`/v1/portfolios/${l.p}/rebalance`)
      .set("authorization", key)
      .send({ asOf: TO, cashToInvest: 1000, wholeUnits: false });
    expect(res.status).toBe(200);
    const plan = JSON.parse(res.text) as { legs: Json[]; warnings: Json[]; cashRemaining: number };
    expect(plan.legs.filter((leg) => leg.symbol === "NEWCO")).toEqual([]);
    expect(plan.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "NO_HOLDING_NO_PRICE", label: "NEWCO.ASX" })]),
    );
    // The holdings priced at 0 are named as unpriced, not silently valued at nothing.
    expect(plan.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "NO_PRICE", holdingId: l.zed })]),
    );
    expect(plan.cashRemaining).toBe(1000);
  });

  it("a benchmark on a security whose close is 0 is a 422 naming it (was totalReturnValue Infinity)", async () => {
    const l = await ledger("0", "1.5", [["USD", "AUD", "1.5"]]);
    const res = await restCall(
      t.http
        .get(`/v1/portfolios/${l.p}/benchmark?symbol=NEWCO&exchange=ASX&${`from=${FROM}&to=${TO}`}`)
        .set("authorization", key),
    );
    expect({ status: res.status, code: res.code }).toEqual({ status: 422, code: "BUSINESS_RULE" });
    expect(res.errors).toEqual([{ path: "symbol", message: expect.stringContaining("a price of 0") }]);
  });
});
