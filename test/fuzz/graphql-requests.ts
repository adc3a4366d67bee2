/**
 * The requests the GraphQL fuzz (graphql.fuzz.test.ts) sends, straight from the schema: valid
 * arguments per field over the write fixture, mutated field by field (sent as variables or written
 * inline as literals), plus broken request bodies. Importing it registers no hook: the suite hands
 * its fixture over, `graphqlRequests(() => ids, () => customHoldingId)`.
 */
import fc from "fast-check";
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from "graphql";
import { unstorableText } from "../../src/lib/validation";
import { writeBodies, type FixtureIds } from "../scenarios/write-fixture";
import {
  anyText,
  DEEP_JSON_TEXTS,
  HOSTILE_JSON_TEXTS,
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  mutatedBody,
  RawJson,
  RawNumber,
  toJsonText,
} from "./hostile";

/**
 * A delete with a valid id would succeed and take the fixture with it: only hostile ids are sent.
 * So too for revoking or rotating an API key, where a small id such as 1 may be the fuzz's own key.
 */
const HOSTILE_IDS_ONLY = new Set(["revokeApiKey", "rotateApiKey"]);
export const isDelete = (field: GraphQLField<unknown, unknown>) =>
  field.name.startsWith("delete") || HOSTILE_IDS_ONLY.has(field.name);
export const hostileId: fc.Arbitrary<unknown> = fc.constantFrom(
  ...HOSTILE_STRINGS.filter((s) => !/^\d+$/.test(s)),
  ...HOSTILE_NUMBERS.filter((n) => !(Number.isInteger(n) && (n as number) > 0 && (n as number) < 2 ** 31)),
);

/** Every input field name reachable from the field's arguments. */
export function inputKeys(field: GraphQLField<unknown, unknown>): string[] {
  const keys = new Set<string>(field.args.map((a) => a.name));
  const visit = (type: GraphQLInputType, seen: Set<string>) => {
    const named = getNamedType(type);
    if (!isInputObjectType(named) || seen.has(named.name)) return;
    seen.add(named.name);
    for (const f of Object.values(named.getFields())) {
      keys.add(f.name);
      visit(f.type, seen);
    }
  };
  for (const a of field.args) visit(a.type, new Set());
  return [...keys];
}

/** A value written as a GraphQL literal, enum names bare where the type says enum. */
export function literal(value: unknown, type?: GraphQLInputType): string {
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value))
    return `[${value.map((v) => literal(v, inner && isListType(inner) ? inner.ofType : undefined)).join(", ")}]`;
  if (value && typeof value === "object") {
    const fields = inner && isInputObjectType(inner) ? inner.getFields() : {};
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${literal(v, fields[k]?.type)}`)
      .join(", ")}}`;
  }
  if (inner && isListType(inner)) return literal(value, inner.ofType);
  if (typeof value === "string" && inner && isEnumType(inner) && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value)) return value;
  if (typeof value === "number" && !Number.isFinite(value)) return "null";
  return JSON.stringify(value) ?? "null";
}

export const INT32 = [0, -1, 1, 1899, 1900, 2025, 2201, 9999, 2147483647, -2147483648];

/**
 * Hostile values the field's type still admits, so GraphQL's coercion lets them through to the
 * service: any text for String, ID, Date and Decimal, edge integers for Int, every enum value.
 */
export function typedHostile(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return typedHostile(type.ofType, depth);
  const nullable = (arb: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(type))
    return nullable(fc.array(typedHostile(type.ofType, depth + 1), { maxLength: depth > 1 ? 1 : 3 }));
  if (isEnumType(type)) return nullable(fc.constantFrom(...type.getValues().map((v) => v.name)));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    if (depth > 2) return fc.constant(null);
    const record = Object.fromEntries(fields.map((f) => [f.name, typedHostile(f.type, depth + 1)]));
    return nullable(
      fc.record(record, { requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name) }),
    );
  }
  const text = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), anyText(10));
  switch (type.name) {
    case "Int":
      return nullable(fc.oneof(fc.constantFrom(...INT32), fc.integer()));
    case "Float":
      return nullable(fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "Boolean":
      return nullable(fc.boolean());
    case "ID":
      return nullable(fc.oneof(text, fc.constantFrom(...INT32)));
    case "Decimal":
      return nullable(fc.oneof(text, fc.constantFrom(...HOSTILE_NUMBERS)));
    default:
      return nullable(text);
  }
}

export type Path = (string | number)[];

/** Every place in the valid arguments, and every optional field they leave out, with its type. */
export function typedPositions(
  field: GraphQLField<unknown, unknown>,
  valid: Record<string, unknown>,
): { path: Path; type: GraphQLInputType }[] {
  const out: { path: Path; type: GraphQLInputType }[] = [];
  const visit = (value: unknown, type: GraphQLInputType, path: Path) => {
    out.push({ path, type });
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner) && Array.isArray(value)) value.forEach((v, i) => visit(v, inner.ofType, [...path, i]));
    if (isInputObjectType(inner) && value && typeof value === "object") {
      for (const f of Object.values(inner.getFields())) {
        if (f.name in value) visit((value as Record<string, unknown>)[f.name], f.type, [...path, f.name]);
        else out.push({ path: [...path, f.name], type: f.type });
      }
    }
  };
  for (const a of field.args) visit(valid[a.name], a.type, [a.name]);
  return out;
}

export function setAt(root: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  let parent: unknown = root;
  for (const part of path.slice(0, -1)) {
    if (!parent || typeof parent !== "object") return root;
    parent = (parent as Record<string | number, unknown>)[part];
  }
  if (parent && typeof parent === "object") (parent as Record<string | number, unknown>)[path[path.length - 1]] = value;
  return root;
}

/** The valid arguments with one to three places replaced by values their type admits. */
export function typedMutations(
  field: GraphQLField<unknown, unknown>,
  valid: Record<string, unknown>,
): fc.Arbitrary<{ body: unknown }> {
  const positions = typedPositions(field, valid);
  const one = fc
    .constantFrom(...positions)
    .chain(({ path, type }) => typedHostile(type).map((value) => ({ path, value })));
  return fc.array(one, { minLength: 1, maxLength: 3 }).map((changes) => ({
    body: changes.reduce(
      (args, c) => setAt(args, c.path, c.value),
      JSON.parse(JSON.stringify(valid)) as Record<string, unknown>,
    ),
  }));
}

export interface GqlRequest {
  what: string;
  /** Why the request must be refused (text no column can store, variables nested too deep...). */
  mustRefuse?: string;
  body: string;
  headers?: Record<string, string>;
}

/** Idempotency-Keys of the deep requests: each one new, so none is ever a replay. */
export let deepKeys = 0;

export function operation(
  kind: "mutation" | "query",
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
  inline: boolean,
): GqlRequest {
  const mustRefuse =
    unstorableText(field.args.map((a) => args[a.name])).length > 0 ? "text no column can store" : undefined;
  const selection = isObjectType(getNamedType(field.type)) ? " { __typename }" : "";
  const given = field.args.filter((a) => a.name in args);
  if (inline) {
    const list = given.map((a) => `${a.name}: ${literal(args[a.name], a.type)}`).join(", ");
    // Unknown argument names are written too: the schema must refuse them with a code.
    const extra = Object.keys(args)
      .filter((k) => !field.args.some((a) => a.name === k))
      .map((k) => `${/^[_A-Za-z][_0-9A-Za-z]*$/.test(k) ? k : "x"}: ${literal(args[k])}`);
    const all = [list, ...extra].filter(Boolean).join(", ");
    const query = `${kind} { ${field.name}${all ? `(${all})` : ""}${selection} }`;
    return { what: `inline ${query.slice(0, 400)}`, body: toJsonText({ query }), mustRefuse };
  }
  const defs = field.args.map((a: GraphQLArgument) => `$${a.name}: ${String(a.type)}`).join(", ");
  const uses = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
  const query = `${kind}${defs ? `(${defs})` : ""} { ${field.name}${uses ? `(${uses})` : ""}${selection} }`;
  const body = toJsonText({ query, variables: args });
  return { what: `variables ${body.slice(0, 400)}`, body, mustRefuse };
}

/** The requests over the suite's write fixture (built inside tests only). */
export function graphqlRequests(ids: () => FixtureIds, customHoldingId: () => number) {
  /** Arguments that succeed, per field, so a single mutation inside them reaches deep validation. */
  function validArgs(): Record<string, Record<string, unknown>> {
    const b = writeBodies(ids());
    const id = (name: string) => String(ids()[name]);
    return {
      createPortfolio: { input: b.createPortfolio },
      updatePortfolio: { id: id("portfolioId"), input: b.updatePortfolio },
      saveAllocationModel: { portfolioId: id("portfolioId"), input: b.saveAllocationModel },
      activateAllocationModel: { publicId: id("publicId") },
      computeRebalance: { portfolioId: id("portfolioId"), input: b.computeRebalance },
      driftOverview: {},
      capitalGainsReport: { portfolioId: id("portfolioId"), financialYear: 2024 },
      unrealisedCapitalGainsReport: { portfolioId: id("portfolioId"), date: "2024-06-30" },
      taxableIncomeReport: { portfolioId: id("portfolioId"), financialYear: 2025 },
      myTaxReport: { portfolioId: id("portfolioId"), financialYear: 2025 },
      taxPlanner: { portfolioId: id("portfolioId"), financialYear: 2024, asOf: "2024-06-30", marginalTaxRate: "37" },
      taxPlannerWhatIf: {
        portfolioId: id("portfolioId"),
        input: {
          ...(b.taxPlannerWhatIf as object),
          sells: [{ holdingId: id("holdingId"), quantity: "10", price: "120" }],
        },
      },
      taxPlannerOverview: { asOf: "2024-06-30" },
      incomeForecast: { portfolioId: id("portfolioId"), from: "2025-07-01", months: 6 },
      portfolioTimeseries: { portfolioId: id("portfolioId"), from: "2024-01-01", to: "2024-02-01" },
      holdingTimeseries: { holdingId: id("holdingId"), from: "2024-01-01", to: "2024-02-01" },
      performance: {
        portfolioId: id("portfolioId"),
        from: "2024-01-01",
        to: "2024-12-31",
        groupBy: "sector",
        showLocalCurrency: true,
        includeClosed: false,
        annualise: false,
      },
      benchmark: {
        portfolioId: id("portfolioId"),
        benchmarkPortfolioId: id("portfolioId"),
        from: "2024-01-01",
        to: "2024-06-30",
        interval: "month",
      },
      simulateSell: {
        portfolioId: id("portfolioId"),
        input: { ...(b.simulateSell as object), holdingId: id("holdingId") },
      },
      createTrade: { input: b.createTrade },
      updateTrade: { id: id("tradeId"), input: b.updateTrade },
      importTrades: { portfolioId: id("portfolioId"), input: { rows: b.importTrades } },
      createHolding: { portfolioId: id("portfolioId"), input: b.createHolding },
      updateHolding: { id: id("holdingId"), input: b.updateHolding },
      changeHoldingSymbol: { id: id("holdingId"), ...(b.changeHoldingSymbol as object) },
      createIncome: { input: b.createIncome },
      updateIncome: { id: id("incomeId"), input: b.updateIncome },
      confirmIncome: { id: id("incomeId") },
      importIncome: { portfolioId: id("portfolioId"), input: { rows: b.importIncome } },
      updateProRataDistributions: {
        holdingId: id("holdingId"),
        financialYear: 2025,
        components: { nonPrimaryProductionIncome: "10" },
      },
      createCashAccount: { input: b.createCashAccount },
      updateCashAccount: { id: id("cashAccountId"), input: b.updateCashAccount },
      createCashTransaction: { input: b.createCashTransaction },
      updateCashTransaction: { id: id("cashTransactionId"), input: b.updateCashTransaction },
      addCustomPrice: { holdingId: String(customHoldingId()), input: b.addCustomPrice },
      addCustomPrices: { holdingId: String(customHoldingId()), input: b.addCustomPrices },
      updateCustomPrice: { id: id("priceId"), input: b.updateCustomPrice },
      upsertMarketPrices: { input: b.upsertMarketPrices },
      upsertFxRates: { input: b.upsertFxRates },
      refreshMarketData: { input: b.refreshMarketData },
      applyCorporateAction: { id: id("corporateActionId") },
      dismissCorporateAction: { id: id("corporateActionId") },
      createClient: { input: b.createClient },
      updateClient: { id: id("clientId"), input: b.updateClient },
      assignClientPortfolios: { id: id("clientId"), ...(b.assignClientPortfolios as object) },
      createClientApiKey: { id: id("clientId") },
      revokeClientApiKeys: { id: id("clientId") },
      createApiKey: { input: b.createApiKey },
      createCustomGroup: { input: b.createCustomGroup },
      updateCustomGroup: { id: id("groupId"), input: b.updateCustomGroup },
      setCustomGroupAssignments: { id: id("groupId"), assignments: b.setCustomGroupAssignments },
      updateTaxSettings: { portfolioId: id("portfolioId"), input: b.updateTaxSettings },
      // Queries.
      marketDataStatus: {},
      corporateActions: { portfolioId: id("portfolioId"), status: "Pending" },
      portfolio: { id: id("portfolioId") },
      allocationModels: { portfolioId: id("portfolioId") },
      activeAllocationModel: { portfolioId: id("portfolioId") },
      allocationModel: { publicId: id("publicId") },
      searchSecurities: { q: "CBA", exchange: "ASX", limit: 5 },
      holding: { id: id("holdingId") },
      trade: { id: id("tradeId") },
      exportTrades: { portfolioId: id("portfolioId") },
      symbolChanges: { holdingId: id("holdingId") },
      income: { id: id("incomeId") },
      cashAccounts: { portfolioId: id("portfolioId") },
      cashAccount: { id: id("cashAccountId") },
      cashTransaction: { id: id("cashTransactionId") },
      customPrices: { holdingId: String(customHoldingId()) },
      customPrice: { id: id("priceId") },
      marketPrices: { symbol: "CBA", exchange: "ASX", from: "2024-01-01", to: "2024-12-31" },
      fxRates: { base: "USD", quote: "AUD", from: "2024-01-01", to: "2024-12-31" },
      client: { id: id("clientId") },
      customGroup: { id: id("groupId") },
      portfolioTaxSettings: { portfolioId: id("portfolioId") },
    };
  }

  function requests(kind: "mutation" | "query", field: GraphQLField<unknown, unknown>): fc.Arbitrary<GqlRequest> {
    const keys = inputKeys(field);
    const valid = validArgs()[field.name] ?? {};
    const base = isDelete(field)
      ? fc.record(Object.fromEntries(field.args.map((a) => [a.name, hostileId]))).map((args) => ({ body: args }))
      : fc.oneof(
          { weight: 3, arbitrary: typedMutations(field, valid) },
          { weight: 1, arbitrary: mutatedBody(valid, keys) },
        );
    const shaped = fc
      .tuple(base, fc.boolean())
      .map(([{ body }, inline]) =>
        operation(
          kind,
          field,
          (body && typeof body === "object" && !Array.isArray(body) ? body : { value: body }) as Record<
            string,
            unknown
          >,
          inline,
        ),
      );
    const good = operation(kind, field, valid, false);
    const broken = fc.constantFrom(
      ...HOSTILE_JSON_TEXTS.map((text) => ({ what: `raw ${JSON.stringify(text.slice(0, 60))}`, body: text })),
      { what: "variables as a string", body: JSON.stringify({ query: JSON.parse(good.body).query, variables: "{}" }) },
      { what: "variables as an array", body: JSON.stringify({ query: JSON.parse(good.body).query, variables: [1] }) },
      { what: "query as a number", body: JSON.stringify({ query: 1 }) },
      { what: "a batch", body: JSON.stringify([JSON.parse(good.body), JSON.parse(good.body)]) },
      { what: "an unknown operationName", body: JSON.stringify({ ...JSON.parse(good.body), operationName: "\u0000" }) },
      { what: "a NUL in the document", body: JSON.stringify({ query: `${kind} { ${field.name}(\u0000) }` }) },
    );
    // Variables nested past the depth limit, with an Idempotency-Key (a 500 once: its fingerprint
    // walked them recursively) and without; and a subscription, which the service does not run.
    const { query } = JSON.parse(good.body) as { query: string };
    const deep = fc.tuple(fc.constantFrom(...DEEP_JSON_TEXTS), fc.boolean()).map(([text, keyed]) => ({
      what: `variables nested past the limit (${text.length} chars), ${keyed ? "with" : "without"} an Idempotency-Key`,
      body: toJsonText({ query, variables: { ...valid, nested: new RawJson(text) } }),
      headers: keyed ? { "idempotency-key": `gql-deep-${++deepKeys}` } : undefined,
      mustRefuse: "variables nested past the depth limit",
    }));
    const subscription = fc.constant({
      what: "a subscription",
      body: JSON.stringify({ query: `subscription { ${field.name} }` }),
      mustRefuse: "a subscription",
    });
    return fc.oneof(
      { weight: 8, arbitrary: shaped },
      { weight: 1, arbitrary: broken },
      { weight: 1, arbitrary: deep },
      { weight: 1, arbitrary: subscription },
    );
  }
  return { validArgs, requests };
}
