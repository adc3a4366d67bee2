import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { aaplHolding } from "../scenarios/holdings";
import { expectOk, gqlOutcome, restCall, restDecimal, type Json } from "../support/outcomes";
import { pagesOf } from "./tax-mytax-pdf.setup";

/**
 * The tax reports say what they leave out (docs/reports.md §5): only confirmed income enters
 * capital gains (trust gains and AMIT cost base changes, docs/rules.md §4.2, §6.5), taxable income
 * and myTax, and each answers `unconfirmedIncome: {count, grossAmount}` for the records paid in
 * its year that are not confirmed; the myTax PDF prints them in one line. FY2025 here:
 *   - confirmed: 700 franked paid 2024-09-10 (in every figure, not in unconfirmedIncome);
 *   - unconfirmed: 100 unfranked paid 2024-10-01, and USD 10 foreign income (1 foreign tax) at
 *     1.5 paid 2025-03-01 → AUD 15 gross: count 2, gross 115;
 *   - unconfirmed, paid 2025-07-15 (a trust distribution ex 30 June): FY2026 by its paid date.
 */
const t = useTestApp();
let key: string;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "unconfirmed-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  key = await t.newAccount();
});

async function investor(): Promise<{ portfolioId: number; ids: number[] }> {
  const portfolioId = await newPortfolio(t, key, { name: "Unconfirmed" });
  const aaa = await newTrade(t, key, {
    portfolioId,
    symbol: "AAA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2023-05-02",
    quantity: 100,
    price: 10,
  });
  const usd = await aaplHolding(t, key, portfolioId);
  const add = (body: Json) => postCreated<{ id: number }>(t, key, "/v1/income", body);
  const h = aaa.holdingId;
  await add({
    holdingId: h,
    exDividendDate: "2024-08-20",
    paidDate: "2024-09-10",
    frankedAmount: 700,
    isConfirmed: true,
  });
  const ids = [
    (await add({ holdingId: h, exDividendDate: "2024-09-01", paidDate: "2024-10-01", unfrankedAmount: 100 })).id,
    (
      await add({
        holdingId: usd,
        exDividendDate: "2025-02-10",
        paidDate: "2025-03-01",
        foreignIncome: 10,
        foreignTaxPaid: 1,
        exchangeRate: "1.5",
      })
    ).id,
    (
      await add({
        holdingId: h,
        exDividendDate: "2025-06-30",
        paidDate: "2025-07-15",
        unfrankedAmount: 40,
        isTrustIncome: true,
      })
    ).id,
  ];
  return { portfolioId, ids };
}

const REPORTS = [
  ["capital gains", "capital-gains", "capitalGainsReport"],
  ["taxable income", "taxable-income", "taxableIncomeReport"],
  ["myTax", "ato-mytax", "myTaxReport"],
] as const;

async function unconfirmedOver(
  transport: "REST" | "GraphQL",
  portfolioId: number,
  path: string,
  field: string,
  fy = 2025,
) {
  if (transport === "REST") {
    const o = await restCall(
      t.http
        .get(`/v1/portfolios/${portfolioId}/reports/${path}`)
        .query({ financialYear: fy })
        .set("authorization", key),
      200,
      (b: { unconfirmedIncome: { count: number; grossAmount: unknown } }) => ({
        count: b.unconfirmedIncome.count,
        grossAmount: restDecimal(b.unconfirmedIncome.grossAmount),
      }),
    );
    return expectOk(o);
  }
  const res = await t.gql(
    key,
    `query($p: ID!, $fy: Int) { ${field}(portfolioId: $p, financialYear: $fy) { unconfirmedIncome { count grossAmount } } }`,
    { p: String(portfolioId), fy },
  );
  return expectOk(
    gqlOutcome(res, field, (d: { unconfirmedIncome: { count: number; grossAmount: string } }) => d.unconfirmedIncome),
  );
}

describe.each(["REST", "GraphQL"] as const)("unconfirmed income over %s", (transport) => {
  it.each(REPORTS)(
    "the %s report counts the year's unconfirmed records by paid date, in AUD",
    async (_n, path, field) => {
      const { portfolioId } = await investor();
      expect(await unconfirmedOver(transport, portfolioId, path, field)).toEqual({ count: 2, grossAmount: "115" });
      expect(await unconfirmedOver(transport, portfolioId, path, field, 2026)).toEqual({ count: 1, grossAmount: "40" });
      expect(await unconfirmedOver(transport, portfolioId, path, field, 2024)).toEqual({ count: 0, grossAmount: "0" });
    },
  );

  it("confirming a record moves it from unconfirmedIncome into the figures", async () => {
    const { portfolioId, ids } = await investor();
    await t.http.put(`/v1/income/${ids[0]}/confirm`).set("authorization", key).expect(200);
    expect(await unconfirmedOver(transport, portfolioId, "taxable-income", "taxableIncomeReport")).toEqual({
      count: 1,
      grossAmount: "15",
    });
    const report = await t.http
      .get(`/v1/portfolios/${portfolioId}/reports/taxable-income?financialYear=2025`)
      .set("authorization", key);
    // 11S: the 100 unfranked now confirmed; 11T the 700 franked confirmed from the start.
    expect(report.body.totals).toMatchObject({ "11S": 100, "11T": 700, "20E": 0 });
  });
});

describe("the myTax PDF", () => {
  const pdf = async (portfolioId: number, name: string) => {
    const res = await t.http
      .get(`/v1/portfolios/${portfolioId}/reports/ato-mytax/pdf?financialYear=2025`)
      .set("authorization", key)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, res.body as Buffer);
    return pagesOf(file).join("\n").replace(/\s+/g, " ");
  };

  it("prints one line for the unconfirmed records, and none once every record is confirmed", async () => {
    const { portfolioId, ids } = await investor();
    const text = await pdf(portfolioId, "unconfirmed");
    expect(text).toContain(
      "Not included: 2 unconfirmed income records paid in the year, 115.00 gross; confirm them to count them.",
    );
    for (const id of ids.slice(0, 2))
      await t.http.put(`/v1/income/${id}/confirm`).set("authorization", key).expect(200);
    expect(await pdf(portfolioId, "confirmed")).not.toContain("Not included");
  });
});
