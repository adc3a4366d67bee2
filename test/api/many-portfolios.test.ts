import { useTestApp } from "../support/app";
import { newPortfolio, newRoundTrip } from "../factories";

/**
 * An adviser's book of more portfolios than one statement has bind parameters: 32,800, past
 * PostgreSQL's 32,767. Prisma spends one on each id of an `in` list and, reading nested lists
 * (a portfolio's tax settings, its active model's buckets), one on each parent row. The reads of
 * the whole book (tax settings, the tax planner's and the drift overviews) answered 500; they now
 * read in slices of 10,000 (src/lib/id-slices.ts). The last portfolio, past every slice boundary,
 * carries the figures each answer must show.
 */
const t = useTestApp({ reset: "none" });
const MORE = 32_799;
let key: string;
let first: number;
let last: number;

beforeAll(async () => {
  await t.db.reset();
  key = await t.newAccount();
  first = await newPortfolio(t, key, { name: "First" });
  await t.db.sql(
    `INSERT INTO portfolio (account_id, name, base_currency_code, tax_residency, entity_type, financial_year_end, default_method, updated_at)
     SELECT account_id, 'P' || g, base_currency_code, tax_residency, entity_type, financial_year_end, default_method, now()
     FROM portfolio, generate_series(1, ${MORE}) g WHERE id = $1`,
    [first],
  );
  [{ id: last }] = await t.db.sql<{ id: number }>(`SELECT max(id) AS id FROM portfolio`);
  await t.db.sql(
    `INSERT INTO allocation_model (public_id, portfolio_id, name, dimension, is_active, updated_at)
     SELECT 'model-' || id, id, 'Growth', 'assetClass', true, now() FROM portfolio`,
  );
  // The last portfolio's year (FY2027): 100 BHP bought at 10 on 1 July 2026, sold at 12 on
  // 3 August: a gain of 100 × (12 − 10) = 200, held under 12 months, so not discounted. A loss
  // of 75 entered for FY2026 goes unused there and carries into FY2027 (docs/rules.md §5).
  await newRoundTrip(t, key, last, "BHP", ["2026-07-01", 100, 10], ["2026-08-03", 100, 12]);
  const settings = await t.http
    .put(`/v1/portfolios/${last}/tax-settings`)
    .set("authorization", key)
    .send({ carriedForwardLosses: [{ financialYear: 2026, amount: 75 }] });
  expect(settings.status).toBe(200);
}, 120_000);

it("lists the tax settings of every portfolio, the last one's losses included (REST and GraphQL)", async () => {
  const rest = await t.http.get("/v1/tax-settings").set("authorization", key);
  expect(rest.status).toBe(200);
  expect(rest.body).toHaveLength(MORE + 1);
  expect(rest.body.at(-1)).toMatchObject({
    portfolioId: last,
    carriedForwardLosses: [{ financialYear: 2026, amount: 75 }],
  });
  const gql = await t.gql(key, `{ taxSettings { portfolioId carriedForwardLosses { financialYear amount } } }`);
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.taxSettings).toHaveLength(MORE + 1);
  expect(gql.body.data.taxSettings.at(-1)).toEqual({
    portfolioId: String(last),
    carriedForwardLosses: [{ financialYear: 2026, amount: "75" }],
  });
}, 60_000);

it("the tax planner's overview has a row for every portfolio, the last one's gain first (REST and GraphQL)", async () => {
  // Largest realised net capital gain first: the last portfolio's 200 − 75 carried in = 125, then
  // the others' 0 by id.
  const rest = await t.http
    .get("/v1/tax-planner")
    .query({ financialYear: 2027, asOf: "2026-09-30" })
    .set("authorization", key);
  expect(rest.status).toBe(200);
  expect(rest.body).toHaveLength(MORE + 1);
  expect(rest.body[0]).toMatchObject({ portfolioId: last, realisedNetCapitalGain: 125 });
  expect(rest.body[1]).toMatchObject({ portfolioId: first, realisedNetCapitalGain: 0 });
  const gql = await t.gql(
    key,
    `{ taxPlannerOverview(financialYear: 2027, asOf: "2026-09-30") { portfolioId realisedNetCapitalGain } }`,
  );
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.taxPlannerOverview).toHaveLength(MORE + 1);
  expect(gql.body.data.taxPlannerOverview[0]).toEqual({ portfolioId: String(last), realisedNetCapitalGain: "125" });
}, 120_000);

it("the drift overview has a row for every portfolio with an active model (REST and GraphQL)", async () => {
  const rest = await t.http.get("/v1/drift").set("authorization", key);
  expect(rest.status).toBe(200);
  expect(rest.body).toHaveLength(MORE + 1);
  expect(rest.body.map((r: { portfolioId: number }) => r.portfolioId)).toContain(last);
  expect(rest.body.find((r: { portfolioId: number }) => r.portfolioId === last)).toMatchObject({
    modelPublicId: `model-${last}`,
    modelName: "Growth",
  });
  const gql = await t.gql(key, `{ driftOverview { portfolioId modelPublicId } }`);
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.driftOverview).toHaveLength(MORE + 1);
  expect(gql.body.data.driftOverview).toContainEqual({ portfolioId: String(last), modelPublicId: `model-${last}` });
}, 120_000);
