/**
 * The income API over REST and GraphQL, for the test/api/income-*.test.ts suites: the `Transport` adapters,
 * the shapes both transports are normalised to, and the setup functions. Importing it registers no
 * hook: a suite calls useTestApp and hands its app over, `const { … } = incomeApi(t, () => holdingId)`.
 */
import type { TestApp } from "../support/app";
import {
  expectOk,
  gqlDecimal,
  gqlId,
  restCall,
  restDecimal,
  restId,
  withApp,
  type Json,
  type Outcome,
  type TransportName,
} from "../support/outcomes";

/**
 * Income (docs/rules.md §6.1–6.5 income rules, §6.6 pro-rata): every rule runs over REST (/v1) and
 * over GraphQL (createIncome, income(id), updateIncome, confirmIncome, deleteIncome,
 * updateProRataDistributions, holding { income }) on the same scenarios, through the `Transport`
 * adapters below, which normalise a record (decimals as their exact digits, ids as numbers,
 * components as name → amount) so both can be compared.
 * Setup (portfolios, trades, holdings' positions) goes through REST.
 */

// ---------------------------------------------------------------------------------------------
// An income record as both transports show it.
// ---------------------------------------------------------------------------------------------

export interface Income {
  id: number;
  holdingId: number;
  portfolioId: number;
  symbol: string;
  exchange: string;
  exDividendDate: string;
  paidDate: string;
  frankedAmount: string;
  unfrankedAmount: string;
  frankingCredits: string;
  foreignIncome: string;
  foreignTaxPaid: string;
  withholdingTax: string;
  grossAmount: string;
  netAmount: string;
  currencyCode: string;
  exchangeRate: string;
  isTrustIncome: boolean;
  isReinvested: boolean;
  drpQuantity: string | null;
  drpPrice: string | null;
  components: Record<string, string> | null;
  notes: string;
  isConfirmed: boolean;
  origin: "User" | "Provider";
  estimated: string[];
}

export const DECIMALS = [
  "frankedAmount",
  "unfrankedAmount",
  "frankingCredits",
  "foreignIncome",
  "foreignTaxPaid",
  "withholdingTax",
  "grossAmount",
  "netAmount",
  "exchangeRate",
] as const;
export const INCOME_KEYS = [
  "components",
  "currencyCode",
  "drpPrice",
  "drpQuantity",
  "estimated",
  "exDividendDate",
  "exchange",
  "exchangeRate",
  "foreignIncome",
  "foreignTaxPaid",
  "frankedAmount",
  "frankingCredits",
  "grossAmount",
  "holdingId",
  "id",
  "isConfirmed",
  "isReinvested",
  "isTrustIncome",
  "netAmount",
  "notes",
  "origin",
  "paidDate",
  "portfolioId",
  "symbol",
  "unfrankedAmount",
  "withholdingTax",
];

export function toIncome(raw: Json, transport: TransportName): Income {
  const decimal = transport === "REST" ? restDecimal : gqlDecimal;
  const id = transport === "REST" ? restId : gqlId;
  const nullable = (v: unknown) => (v === null ? null : decimal(v));
  let components: Record<string, string> | null = null;
  if (raw.components !== null) {
    components = Object.fromEntries(Object.entries(raw.components as Json).map(([k, v]) => [k, decimal(v)]));
  }
  const out = {
    id: id(raw.id),
    holdingId: id(raw.holdingId),
    portfolioId: id(raw.portfolioId),
    symbol: raw.symbol,
    exchange: raw.exchange,
    exDividendDate: raw.exDividendDate,
    paidDate: raw.paidDate,
    currencyCode: raw.currencyCode,
    isTrustIncome: raw.isTrustIncome,
    isReinvested: raw.isReinvested,
    drpQuantity: nullable(raw.drpQuantity),
    drpPrice: nullable(raw.drpPrice),
    components,
    notes: raw.notes,
    isConfirmed: raw.isConfirmed,
    origin: raw.origin,
    estimated: raw.estimated,
  } as Json;
  for (const f of DECIMALS) out[f] = decimal(raw[f]);
  return out as unknown as Income;
}

export interface Transport {
  name: TransportName;
  create(key: string, input: Json): Promise<Outcome<Income>>;
  /** REST GET /v1/income/{i} (404 when absent); GraphQL income(id) (null when absent). */
  get(key: string, id: number): Promise<Outcome<Income | null>>;
  update(key: string, id: number, input: Json): Promise<Outcome<Income>>;
  confirm(key: string, id: number): Promise<Outcome<Income>>;
  remove(key: string, id: number): Promise<Outcome<boolean>>;
  /** REST GET /v1/holdings/{h}/income (404 when absent); GraphQL holding(id) { income } (null when absent). */
  list(key: string, holdingId: number): Promise<Outcome<Income[] | null>>;
  proRata(key: string, holdingId: number, financialYear: number, components: Json): Promise<Outcome<Income[]>>;
}

// REST ------------------------------------------------------------------------------------------

export const restIncome = (b: unknown) => {
  expect(Object.keys(b as Json).sort()).toEqual(INCOME_KEYS);
  return toIncome(b as Json, "REST");
};

// GraphQL ---------------------------------------------------------------------------------------

export const INCOME_FIELDS = `fragment I on Income {
  id holdingId portfolioId symbol exchange exDividendDate paidDate
  frankedAmount unfrankedAmount frankingCredits foreignIncome foreignTaxPaid withholdingTax grossAmount netAmount
  currencyCode exchangeRate isTrustIncome isReinvested drpQuantity drpPrice components notes isConfirmed origin estimated
}`;

export const Q = {
  create: `mutation($input: IncomeInput!) { createIncome(input: $input) { ...I } } ${INCOME_FIELDS}`,
  get: `query($id: ID!) { income(id: $id) { ...I } } ${INCOME_FIELDS}`,
  update: `mutation($id: ID!, $input: IncomeInput!) { updateIncome(id: $id, input: $input) { ...I } } ${INCOME_FIELDS}`,
  confirm: `mutation($id: ID!) { confirmIncome(id: $id) { ...I } } ${INCOME_FIELDS}`,
  remove: `mutation($id: ID!) { deleteIncome(id: $id) }`,
  list: `query($id: ID!) { holding(id: $id) { id income { ...I } } } ${INCOME_FIELDS}`,
  proRata: `mutation($h: ID!, $fy: Int!, $c: IncomeComponents!) { updateProRataDistributions(holdingId: $h, financialYear: $fy, components: $c) { ...I } } ${INCOME_FIELDS}`,
};

/** The REST body as an IncomeInput: ids as strings; components are the same JSON object. */
export function gqlInput(input: Json): Json {
  const out: Json = { ...input };
  if (typeof out.holdingId === "number") out.holdingId = String(out.holdingId);
  return out;
}

export const gqlIncome = (d: unknown) => toIncome(d as Json, "GraphQL");

/**
 * Both transports and the setup over the suite's app (read inside tests only); `holdingId()` is the
 * holding a `dividend` is recorded on.
 */
export function incomeApi(t: TestApp, holdingId: () => number) {
  const { gqlCall, unchanged, accountIdOf } = withApp(() => t);

  const rest: Transport = {
    name: "REST",
    create: (k, input) => restCall(t.http.post("/v1/income").set("authorization", k).send(input), 201, restIncome),
    get: (k, id) => restCall(t.http.get(`/v1/income/${id}`).set("authorization", k), 200, restIncome),
    update: (k, id, input) =>
      restCall(t.http.put(`/v1/income/${id}`).set("authorization", k).send(input), 200, restIncome),
    confirm: (k, id) => restCall(t.http.put(`/v1/income/${id}/confirm`).set("authorization", k), 200, restIncome),
    remove: (k, id) => restCall(t.http.delete(`/v1/income/${id}`).set("authorization", k), 204, () => true),
    list: (k, h) =>
      restCall(t.http.get(`/v1/holdings/${h}/income`).set("authorization", k), 200, (b) =>
        (b as Json[]).map(restIncome),
      ),
    proRata: (k, h, financialYear, components) =>
      restCall(
        t.http
          .put(`/v1/holdings/${h}/pro-rata-distributions`)
          .set("authorization", k)
          .send({ financialYear, components }),
        200,
        (b) => (b as Json[]).map(restIncome),
      ),
  };

  const graphql: Transport = {
    name: "GraphQL",
    create: (k, input) => gqlCall(k, Q.create, { input: gqlInput(input) }, "createIncome", gqlIncome),
    get: (k, id) => gqlCall(k, Q.get, { id: String(id) }, "income", (d) => (d === null ? null : gqlIncome(d))),
    update: (k, id, input) =>
      gqlCall(k, Q.update, { id: String(id), input: gqlInput(input) }, "updateIncome", gqlIncome),
    confirm: (k, id) => gqlCall(k, Q.confirm, { id: String(id) }, "confirmIncome", gqlIncome),
    remove: (k, id) => gqlCall(k, Q.remove, { id: String(id) }, "deleteIncome", (d) => d as boolean),
    list: (k, h) =>
      gqlCall(k, Q.list, { id: String(h) }, "holding", (d) =>
        d === null ? null : (d as { income: Json[] }).income.map(gqlIncome),
      ),
    proRata: (k, h, fy, c) =>
      gqlCall(k, Q.proRata, { h: String(h), fy, c }, "updateProRataDistributions", (d) => (d as Json[]).map(gqlIncome)),
  };

  const TRANSPORTS: Transport[] = [rest, graphql];

  // Setup (REST) ----------------------------------------------------------------------------------

  /** The holding's position as GET /v1/holdings/{h} answers it. */
  async function position(k: string, h: number): Promise<{ quantity: string; costBase: string }> {
    const res = await t.http.get(`/v1/holdings/${h}`).set("authorization", k);
    expect(res.status).toBe(200);
    return { quantity: restDecimal(res.body.quantity), costBase: restDecimal(res.body.costBase) };
  }

  /** An income record created over REST (not the transport under test). */
  async function seedIncome(k: string, input: Json): Promise<Income> {
    return expectOk(await rest.create(k, input), 201);
  }

  const dividend = (extra: Json = {}): Json => ({
    holdingId: holdingId(),
    exDividendDate: "2024-02-14",
    paidDate: "2024-03-28",
    ...extra,
  });
  return { gqlCall, unchanged, accountIdOf, rest, graphql, TRANSPORTS, position, seedIncome, dividend };
}
