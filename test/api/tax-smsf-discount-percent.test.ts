import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decimal } from "../../src/lib/money";
import { discountPercentOf, discountRateOf } from "../../src/modules/ledger/discount";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectOk } from "../support/outcomes";
import { taxReportsApi } from "./tax-hostile.transports";

/**
 * Story: an SMSF's CGT discount is written as 33.33, not as 33.33333333333333333333333333333333333333
 * (docs/reports.md §5.1). Source: ITAA 1997 s115-100: a complying super fund's discount is 33⅓ %;
 * the ATO's own tables print it "33.33%". The figures keep the exact third: a 300 discount gain
 * held over 12 months is discounted by 100 (300 ÷ 3), not by 99.99.
 *
 * SMSF, FY2025: AAA buy 100 @ 10 on 2023-05-02, sell 100 @ 13 on 2024-09-10: a 300 discountable
 * gain; discount 300 × ⅓ = 100; net capital gain 200.
 */
const t = useTestApp();
let key: string;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "smsf-discount-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  key = await t.newAccount();
});

const { rest, gql, trade } = taxReportsApi(t, () => key);

async function smsf() {
  const p = await newPortfolio(t, key, { name: "Super fund", entityType: "SMSF" });
  await trade(p, "AAA", "Buy", "2023-05-02", 100, 10);
  await trade(p, "AAA", "Sell", "2024-09-10", 100, 13);
  return p;
}

test("the rule: ⅓ → 33.33, ½ → 50, 0 → 0, to two decimals half up", () => {
  expect(discountPercentOf(discountRateOf("SMSF")).toFixed()).toBe("33.33");
  expect(discountPercentOf(discountRateOf("Individual")).toFixed()).toBe("50");
  expect(discountPercentOf(discountRateOf("Company")).toFixed()).toBe("0");
  expect(discountPercentOf(new Decimal(2).div(3)).toFixed()).toBe("66.67");
});

test("capital gains and unrealised reports write 33.33 on both transports; the figures use the exact third", async () => {
  const p = await smsf();
  const answers = [
    expectOk(await rest.capitalGains(key, p, { financialYear: 2025 })),
    expectOk(await gql.capitalGains(key, p, 2025)),
    expectOk(await rest.unrealised(key, p, { date: "2025-03-01" })),
    expectOk(await gql.unrealised(key, p, "2025-03-01")),
  ];
  expect(answers.map((a) => a.discountPercent)).toEqual(["33.33", "33.33", "33.33", "33.33"]);
  expect(answers[0].summary).toMatchObject({ longTermGains: "300", discount: "100", netCapitalGain: "200" });
  // REST writes the JSON number itself with two decimals.
  const raw = await t.http
    .get(`/v1/portfolios/${p}/reports/capital-gains?financialYear=2025`)
    .set("authorization", key);
  expect(raw.text).toContain('"discountPercent":33.33,');
});

test("the myTax PDF says the same: CGT discount 33.33 %", async () => {
  const p = await smsf();
  const res = await t.http
    .get(`/v1/portfolios/${p}/reports/ato-mytax/pdf?financialYear=2025`)
    .set("authorization", key)
    .buffer(true)
    .parse((r, callback) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => callback(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  const file = join(dir, "smsf.pdf");
  writeFileSync(file, res.body as Buffer);
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  expect(text).toMatch(/Entity: SMSF; CGT discount 33\.33 %/);
});

test("the tax planner and its what-if write 33.33 too (docs/reports.md §6.1)", async () => {
  // A second parcel still held: BBB buy 10 @ 5 on 2024-10-01, so the what-if has a sell to plan.
  const p = await smsf();
  await trade(p, "BBB", "Buy", "2024-10-01", 10, 5);
  const plan = await t.http
    .get(`/v1/portfolios/${p}/tax-planner?financialYear=2025&asOf=2025-03-01`)
    .set("authorization", key);
  expect(plan.status).toBe(200);
  expect(plan.text).toContain('"discountPercent":33.33,');
  const holdings = await t.http.get(`/v1/portfolios/${p}/holdings`).set("authorization", key).expect(200);
  const bbb = (holdings.body as { id: number; symbol: string }[]).find((h) => h.symbol === "BBB")!;
  const whatIf = await t.http
    .post(`/v1/portfolios/${p}/tax-planner/what-if`)
    .set("authorization", key)
    .send({ financialYear: 2025, asOf: "2025-03-01", sells: [{ holdingId: bbb.id, quantity: 10, price: 6 }] });
  expect(whatIf.status).toBe(200);
  expect(whatIf.text).toContain('"discountPercent":33.33,');
});
