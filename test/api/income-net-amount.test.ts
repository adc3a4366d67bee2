import { aaplHolding } from "../scenarios/holdings";
import { useTestApp } from "../support/app";

/**
 * docs/rules.md §6.1: `netAmount` = gross − withholding tax − foreign tax paid, the cash that arrives.
 * The case: a USD dividend of 1.5 with 0.225 foreign tax paid arrives as 1.275, and every
 * view of it says so: the income record (REST and GraphQL), the synced USD cash account's ledger
 * and balance, and the portfolio transaction ledger.
 */

const t = useTestApp();
let key: string;
let portfolioId: number;
let holdingId: number;
let cashAccountId: number;

beforeEach(async () => {
  key = await t.newAccount();
  portfolioId = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "US shares" }).expect(201))
    .body.id;
  holdingId = await aaplHolding(t, key, portfolioId);
  const account = { portfolioId, name: "USD account", currencyCode: "USD", syncTrades: false, syncIncome: true };
  cashAccountId = (await t.http.post("/v1/cash-accounts").set("authorization", key).send(account).expect(201)).body.id;
});

const usdDividend = (extra: Record<string, unknown> = {}) => ({
  holdingId,
  exDividendDate: "2024-02-09",
  paidDate: "2024-03-01",
  foreignIncome: "1.5",
  foreignTaxPaid: "0.225",
  exchangeRate: "1.5",
  ...extra,
});

describe("netAmount = gross − withholding − foreign tax paid", () => {
  it("REST: 1.5 gross, 0.225 foreign tax → 1.275 net, in the record, the cash ledger and the portfolio ledger", async () => {
    const income = (await t.http.post("/v1/income").set("authorization", key).send(usdDividend()).expect(201)).body;
    expect(income).toMatchObject({ grossAmount: 1.5, foreignTaxPaid: 0.225, withholdingTax: 0, netAmount: 1.275 });

    const ledger = (
      await t.http.get(`/v1/cash-accounts/${cashAccountId}/transactions`).set("authorization", key).expect(200)
    ).body;
    expect(ledger).toEqual([expect.objectContaining({ source: "Income", sourceId: income.id, amount: 1.275 })]);
    expect(
      (await t.http.get(`/v1/cash-accounts/${cashAccountId}`).set("authorization", key).expect(200)).body.balance,
    ).toBe(1.275);

    const transactions = (
      await t.http.get(`/v1/portfolios/${portfolioId}/transactions?type=Income`).set("authorization", key).expect(200)
    ).body;
    expect(transactions).toEqual([expect.objectContaining({ kind: "Income", id: income.id, amount: 1.275 })]);
  });

  it("GraphQL answers the same net amount", async () => {
    const res = await t.gql(
      key,
      `mutation($input: IncomeInput!) { createIncome(input: $input) { grossAmount foreignTaxPaid netAmount } }`,
      { input: { ...usdDividend(), holdingId: String(holdingId) } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createIncome).toEqual({ grossAmount: "1.5", foreignTaxPaid: "0.225", netAmount: "1.275" });
  });

  it("withholding and foreign tax together: 100 gross − 15 withholding − 10 foreign tax = 75", async () => {
    const income = (
      await t.http
        .post("/v1/income")
        .set("authorization", key)
        .send(usdDividend({ foreignIncome: 100, withholdingTax: 15, foreignTaxPaid: 10 }))
        .expect(201)
    ).body;
    expect(income).toMatchObject({ grossAmount: 100, netAmount: 75 });
  });

  it("a netAmount given alone is the cash that arrived: gross = net + withholding + foreign tax paid", async () => {
    const income = (
      await t.http
        .post("/v1/income")
        .set("authorization", key)
        .send({
          holdingId,
          exDividendDate: "2024-02-09",
          paidDate: "2024-03-01",
          exchangeRate: "1.5",
          netAmount: "1.275",
          foreignTaxPaid: "0.225",
        })
        .expect(201)
    ).body;
    expect(income).toMatchObject({ grossAmount: 1.5, netAmount: 1.275 });
  });

  it("a netAmount that disagrees with the amounts, or taxes above the gross: 400 naming the field, nothing written", async () => {
    const wrong = await t.http
      .post("/v1/income")
      .set("authorization", key)
      .send(usdDividend({ netAmount: "1.5" }))
      .expect(400);
    expect(wrong.body.errors).toEqual([
      { path: "netAmount", message: "must equal gross − withholding tax − foreign tax paid (1.275), or be left out" },
    ]);
    const above = await t.http
      .post("/v1/income")
      .set("authorization", key)
      .send(usdDividend({ withholdingTax: "1", foreignTaxPaid: "0.6" }))
      .expect(400);
    expect(above.body.errors).toEqual([
      { path: "foreignTaxPaid", message: "withholding tax plus foreign tax paid must not exceed the gross amount" },
    ]);
    expect(await t.db.prisma.income.count()).toBe(0);
  });
});
