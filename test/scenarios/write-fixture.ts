import type { TestApp } from "../support/app";

/**
 * One account's worth of everything a REST write can name: a portfolio with a listed holding
 * (one buy with an attachment, one income record, one pending 2:1 split), a cash account with a deposit, a custom
 * investment with a price, a client, a custom group, an allocation model and a second account
 * key (its `keyId` is the one revoked and rotated). The tables that
 * drive every write (tenancy, concurrency) build their requests from it.
 */
export type FixtureIds = Record<string, number | string>;

export const ATTACHMENT_PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

export async function seedWriteFixture(t: TestApp, key: string): Promise<FixtureIds> {
  const post = async (path: string, body: unknown) => {
    const res = await t.http
      .post(path)
      .set("authorization", key)
      .send(body as object);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const portfolio = await post("/v1/portfolios", { name: "Owner's" });
  const buy = await post("/v1/trades", {
    portfolioId: portfolio.id,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 100,
    price: 100,
  });
  const upload = await t.http
    .put(`/v1/trades/${buy.id}/attachment`)
    .set("authorization", key)
    .attach("file", ATTACHMENT_PDF, { filename: "note.pdf", contentType: "application/pdf" });
  if (upload.status !== 200) throw new Error(`attachment: ${upload.status} ${upload.text}`);
  const account = (
    await t.db.sql<{ account_id: number }>("SELECT account_id FROM portfolio WHERE id = $1", [portfolio.id])
  )[0].account_id;
  const income = await t.db.prisma.income.create({
    data: {
      portfolioId: portfolio.id,
      holdingId: buy.holdingId,
      exDividendDate: new Date("2024-08-14"),
      paidDate: new Date("2024-09-26"),
      frankedAmount: "215",
      frankingCredits: "92.1429",
      currencyCode: "AUD",
    },
  });
  // A provider's 2:1 split of CBA offered to the holding (as a refresh would): applying it doubles the 100 units.
  const corporateAction = await t.db.prisma.corporateAction.create({
    data: {
      portfolioId: portfolio.id,
      holdingId: buy.holdingId,
      type: "Split",
      date: new Date("2024-03-04"),
      numerator: 2,
      denominator: 1,
    },
  });
  const cashAccount = await t.db.prisma.cashAccount.create({
    data: { portfolioId: portfolio.id, name: "Cash", currencyCode: "AUD" },
  });
  const cashTransaction = await t.db.prisma.cashTransaction.create({
    data: { cashAccountId: cashAccount.id, type: "Deposit", date: new Date("2024-01-02"), amount: "1000" },
  });
  const custom = await post(`/v1/portfolios/${portfolio.id}/holdings`, { symbol: "FARM", name: "The farm" });
  const price = await t.db.prisma.customPrice.create({
    data: { holdingId: custom.id, date: new Date("2024-06-30"), price: "250000" },
  });
  const client = await post("/v1/clients", { firstName: "Jo", lastName: "Citizen", permission: "Read" });
  const group = await post("/v1/custom-groups", { name: "Strategy", labels: ["Core", "Satellite"] });
  const model = await post(`/v1/portfolios/${portfolio.id}/allocation-models`, {
    name: "Growth",
    dimension: "assetClass",
    buckets: [{ label: "Shares", targetPct: 100 }],
  });
  const spareKey = await post("/v1/api-keys", { name: "Spare" });
  return {
    portfolioId: portfolio.id,
    holdingId: buy.holdingId,
    tradeId: buy.id,
    incomeId: income.id,
    corporateActionId: corporateAction.id,
    cashAccountId: cashAccount.id,
    cashTransactionId: cashTransaction.id,
    priceId: price.id,
    /** The custom investment the price belongs to (price routes take it as :holdingId). */
    customHoldingId: custom.id,
    clientId: client.id,
    groupId: group.id,
    publicId: model.publicId,
    /** The account's second key, not the one making the requests. */
    keyId: spareKey.id,
    accountId: account,
  };
}

/** A valid body for each write over the fixture, keyed by operationId. */
export const writeBodies = (ids: FixtureIds): Record<string, unknown> => ({
  createPortfolio: { name: "Mine" },
  updatePortfolio: { name: "Renamed" },
  createHolding: { symbol: "ART", name: "A painting" },
  updateHolding: { notes: "noted" },
  changeHoldingSymbol: { symbol: "CBA2", exchange: "ASX" },
  createTrade: {
    portfolioId: ids.portfolioId,
    holdingId: ids.holdingId,
    tradeType: "Buy",
    tradeDate: "2024-02-01",
    quantity: 1,
    price: 1,
  },
  updateTrade: {
    portfolioId: ids.portfolioId,
    holdingId: ids.holdingId,
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 100,
    price: 101,
  },
  // A day after createTrade's trade, so the import is never a duplicate of it.
  importTrades: [{ symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-02-02", quantity: 1, price: 1 }],
  createIncome: { holdingId: ids.holdingId, exDividendDate: "2024-02-14", paidDate: "2024-03-26", frankedAmount: 100 },
  updateIncome: { holdingId: ids.holdingId, exDividendDate: "2024-08-14", paidDate: "2024-09-26", frankedAmount: 216 },
  importIncome: [
    {
      holdingId: ids.holdingId,
      exDividendDate: "2024-02-15",
      paidDate: "2024-03-27",
      frankedAmount: 7,
      isConfirmed: true,
    },
  ],
  updateProRataDistributions: { financialYear: 2025, components: { nonPrimaryProductionIncome: 10 } },
  createCashAccount: { portfolioId: ids.portfolioId, name: "More cash", currencyCode: "AUD" },
  updateCashAccount: { name: "Renamed cash" },
  createCashTransaction: { cashAccountId: ids.cashAccountId, type: "Deposit", date: "2024-02-02", amount: 5 },
  updateCashTransaction: { cashAccountId: ids.cashAccountId, type: "Deposit", date: "2024-02-02", amount: 6 },
  addCustomPrice: { date: "2024-07-31", price: 1 },
  addCustomPrices: [{ date: "2024-08-31", price: 1 }],
  updateCustomPrice: { date: "2024-06-30", price: 2 },
  upsertMarketPrices: [{ symbol: "CBA", exchange: "ASX", date: "2024-06-28", close: 120 }],
  upsertFxRates: [{ base: "USD", quote: "AUD", date: "2024-06-28", rate: 1.5 }],
  refreshMarketData: { securities: [{ symbol: "CBA", exchange: "ASX" }] },
  createClient: { firstName: "Al", lastName: "Other" },
  createApiKey: { name: "Nightly import" },
  updateClient: { firstName: "Jo", lastName: "Citizen-Smith" },
  assignClientPortfolios: { portfolioIds: [ids.portfolioId], permission: "Read" },
  createCustomGroup: { name: "Another", labels: ["A"] },
  updateCustomGroup: { name: "Strategy", labels: ["Core", "Satellite", "Other"] },
  setCustomGroupAssignments: [{ holdingId: ids.holdingId, label: "Core" }],
  updateTaxSettings: { defaultMethod: "FIFO" },
  saveAllocationModel: { name: "Income", dimension: "assetClass", buckets: [{ label: "Bonds", targetPct: 100 }] },
  computeRebalance: { modelPublicId: ids.publicId, cashToInvest: 1000 },
  simulateSell: { holdingId: ids.holdingId, quantity: 10, price: 120, date: "2024-06-30" },
  taxPlannerWhatIf: {
    financialYear: 2024,
    asOf: "2024-06-30",
    marginalTaxRate: 37,
    sells: [{ holdingId: ids.holdingId, quantity: 10, price: 120 }],
  },
});

/** Writes that take no body at all. */
export const BODYLESS_WRITES = new Set([
  "confirmIncome",
  "createClientApiKey",
  "rotateApiKey",
  "activateAllocationModel",
  "applyCorporateAction",
  "dismissCorporateAction",
]);

/** The /v1 URL of a route with its path parameters filled from the fixture. */
export function fixtureUrl(path: string, ids: FixtureIds, table = "the table"): string {
  return (
    "/v1" +
    path.replace(/:(\w+)/g, (_m, name: string) => {
      if (!(name in ids)) throw new Error(`no fixture id for :${name} — add one to ${table}`);
      return String(ids[name]);
    })
  );
}
