import { INCOME_LABELS } from "../../src/modules/tax/taxable-income";
import { MYTAX_LABELS } from "../../src/modules/tax/mytax";
import { spawnSync } from "node:child_process";
import { CASH_TRADE_TYPES } from "../../src/modules/ledger/cash-effects";
import fs from "node:fs";
import path from "node:path";
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
} from "graphql";
import type { Response } from "supertest";
import type { z } from "zod";
import { buildSchema } from "../../src/graphql/schema";
import { endpoints } from "../../src/http/router";
import { PROJECT_ROOT } from "../../src/lib/paths";
import { CASH_TRANSACTION_TYPES } from "../../src/modules/cash/cash.schemas";
import { TRADE_TYPES } from "../../src/modules/ledger";
import { CASH_TYPES } from "../../src/modules/transactions/transactions.schemas";
import { ledgerFingerprint, startTestApp, type TestApp } from "../support/app";
import { newPortfolio } from "../support/kit";

/**
 * REST and GraphQL are two adapters over one set of service functions (API.md §3, STYLE.md "one
 * word runs through a feature"). This suite holds them together:
 *  (a) the operation sets match under one naming rule;
 *  (b) schema.graphql passes graphql-schema-linter's description rules;
 *  (c) every value REST types as an enum is a GraphQL enum with exactly the same values;
 *  (d) trade import and the symbol-change list answer alike on both transports;
 *  (e) pro-rata components take the same JSON on both transports and answer alike.
 *
 * The naming rule: a REST operationId is the name of the service function it calls. A GraphQL
 * mutation has that same name. A GraphQL query field is the operationId without its leading
 * `get` or `list`, first letter lower-cased (getPortfolio → portfolio, listPortfolios →
 * portfolios, searchSecurities → searchSecurities). A list that belongs to a parent is a field of
 * the parent's type instead (RELATIONS below).
 */

const schema: GraphQLSchema = buildSchema();

/** REST list operations that GraphQL serves as a field of the parent type, not as a root query. */
const RELATIONS: Record<string, string> = {
  listHoldings: "Portfolio.holdings",
  listHoldingTrades: "Holding.trades",
  listHoldingIncome: "Holding.income",
  listCashMovements: "CashAccount.transactions",
  listPortfolioTransactions: "Portfolio.transactions",
  listClientPortfolios: "Client.portfolios",
  listCustomGroupAssignments: "CustomGroup.assignments",
};

/** Relation fields that reach an operation which also has its root field (a second way in). */
const ALSO_RELATIONS: Record<string, string> = {
  "Portfolio.allocationModels": "listAllocationModels",
  "Portfolio.performance": "getPerformance",
  "Portfolio.activeAllocationModel": "getActiveAllocationModel",
  "Portfolio.cashAccounts": "listCashAccounts",
};

/** REST operations GraphQL does not carry, each with its reason. */
const REST_ONLY: Record<string, string> = {
  uploadTradeAttachment:
    "a multipart/form-data file upload; the GraphQL server takes JSON only (no multipart request spec, CSRF prevention on)",
  getTradeAttachment:
    "a binary download with its own content type; GraphQL answers JSON (Trade.hasAttachment says whether there is one)",
  myTaxReportPdf: "a PDF download; GraphQL answers JSON (myTaxReport carries the same figures)",
};

/** POSTs that compute and write nothing whose GraphQL field is a query, each with its reason. */
const POST_QUERIES: Record<string, string> = {
  simulateSell: "REPORTS.md §5.5: a query, it writes nothing (a POST over REST for its body)",
};

/** The root type an operation's GraphQL field sits on. */
const rootOf = (e: { method: string; operationId: string }) =>
  e.method === "get" || e.operationId in POST_QUERIES ? "Query" : "Mutation";

/** GraphQL root fields REST does not carry, each with its reason. */
const GRAPHQL_ONLY: Record<string, string> = {};

/** The GraphQL root field an operation has under the naming rule. */
function graphqlName(operationId: string, method: string): string {
  if (method !== "get" || operationId in POST_QUERIES) return operationId;
  const bare = operationId.replace(/^(get|list)(?=[A-Z])/, "");
  return bare[0].toLowerCase() + bare.slice(1);
}

const fieldAt = (coordinate: string): GraphQLField<unknown, unknown> | undefined => {
  const [typeName, fieldName] = coordinate.split(".");
  const type = schema.getType(typeName);
  return type && isObjectType(type) ? type.getFields()[fieldName] : undefined;
};

/** Every function the service modules export, by name. */
function serviceFunctions(): Set<string> {
  const names = new Set<string>();
  const modules = path.join(PROJECT_ROOT, "src/modules");
  for (const dir of fs.readdirSync(modules)) {
    for (const file of fs.readdirSync(path.join(modules, dir)).filter((f) => f.endsWith(".service.ts"))) {
      const exported = require(path.join(modules, dir, file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) if (typeof value === "function") names.add(name);
    }
  }
  return names;
}

describe("(a) the operation sets of REST and GraphQL", () => {
  const query = schema.getQueryType()!.getFields();
  const mutation = schema.getMutationType()!.getFields();

  it("every REST operationId is the name of an exported service function", () => {
    const functions = serviceFunctions();
    expect(endpoints.map((e) => e.operationId).filter((id) => !functions.has(id))).toEqual([]);
  });

  it("operationIds are unique", () => {
    const ids = endpoints.map((e) => e.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("every REST operation has its GraphQL field under the rule (or its relation field)", () => {
    const missing: string[] = [];
    for (const e of endpoints) {
      if (e.operationId in REST_ONLY) continue;
      const relation = RELATIONS[e.operationId];
      if (relation) {
        if (!fieldAt(relation)) missing.push(`${e.operationId} → ${relation}`);
        continue;
      }
      const name = graphqlName(e.operationId, e.method);
      const root = rootOf(e) === "Query" ? query : mutation;
      if (!root[name]) missing.push(`${e.method.toUpperCase()} /v1${e.path} ${e.operationId} → ${rootOf(e)}.${name}`);
    }
    expect(missing).toEqual([]);
  });

  it("every GraphQL root field is a REST operation under the rule; deprecated ones point at one that is", () => {
    const expected = new Set(
      endpoints
        .filter((e) => !(e.operationId in RELATIONS))
        .map((e) => `${rootOf(e)}.${graphqlName(e.operationId, e.method)}`),
    );
    const stray: string[] = [];
    for (const [rootName, fields] of [
      ["Query", query],
      ["Mutation", mutation],
    ] as const) {
      for (const f of Object.values(fields)) {
        const coordinate = `${rootName}.${f.name}`;
        if (f.name in GRAPHQL_ONLY) continue;
        if (f.deprecationReason) {
          // A renamed field stays for old clients; its reason names the field that replaced it.
          const replacement = /`(\w+)`/.exec(f.deprecationReason)?.[1];
          if (!replacement || !fields[replacement] || !expected.has(`${rootName}.${replacement}`))
            stray.push(`${coordinate} (deprecated without a live replacement)`);
          continue;
        }
        if (!expected.has(coordinate)) stray.push(coordinate);
      }
    }
    expect(stray).toEqual([]);
  });

  it("the relation tables name real fields and real operations", () => {
    const ids = new Set(endpoints.map((e) => e.operationId));
    expect(Object.keys(RELATIONS).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.values(ALSO_RELATIONS).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.keys(ALSO_RELATIONS).filter((c) => !fieldAt(c))).toEqual([]);
    expect(Object.keys(REST_ONLY).filter((id) => !ids.has(id))).toEqual([]);
  });

  it("every field with arguments outside Query and Mutation is a declared relation", () => {
    const declared = new Set([...Object.values(RELATIONS), ...Object.keys(ALSO_RELATIONS)]);
    const undeclared: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        !isObjectType(type) ||
        type.name.startsWith("__") ||
        type === schema.getQueryType() ||
        type === schema.getMutationType()
      )
        continue;
      for (const f of Object.values(type.getFields()))
        if (f.args.length > 0 && !declared.has(`${type.name}.${f.name}`)) undeclared.push(`${type.name}.${f.name}`);
    }
    expect(undeclared).toEqual([]);
  });
});

describe("(b) graphql-schema-linter", () => {
  const DESCRIPTION_RULES = [
    "arguments-have-descriptions",
    "enum-values-have-descriptions",
    "fields-have-descriptions",
    "types-have-descriptions",
  ];
  const cli = path.join(PROJECT_ROOT, "node_modules/graphql-schema-linter/lib/cli.js");
  const lint = (args: string[]) => {
    const run = spawnSync(process.execPath, [cli, "--format", "json", ...args], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
    });
    // The CLI exits 1 when it finds errors; anything else (a crash, a bad option) has no report.
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: run.status === 1 ? 1 : 0, stderr: "" });
    return (
      JSON.parse(run.stdout) as { errors: { message: string; rule: string; location: { line: number } }[] }
    ).errors.map((e) => `${e.location.line}: ${e.message} (${e.rule})`);
  };

  it("the project's configuration enables every description rule", () => {
    const config = fs.readFileSync(path.join(PROJECT_ROOT, ".graphql-schema-linterrc"), "utf8");
    for (const rule of DESCRIPTION_RULES) expect(config).toMatch(new RegExp(`^\\s*- ${rule}$`, "m"));
  });

  it("the description rules find nothing in schema.graphql", () => {
    expect(lint(["--rules", DESCRIPTION_RULES.join(","), "schema.graphql"])).toEqual([]);
  });

  it("the project's configuration finds nothing", () => {
    expect(lint([])).toEqual([]);
  });
});

// (c) -----------------------------------------------------------------------------------------

type Zod = z.ZodType & { _zod: { def: Record<string, unknown> } };
const isZod = (v: unknown): v is Zod => typeof v === "object" && v !== null && "_zod" in v;

/** Every z.enum reachable from a schema, with where it was found. */
function zodEnums(
  root: unknown,
  where: string,
  out: { where: string; values: string[] }[] = [],
  seen = new Set<unknown>(),
): { where: string; values: string[] }[] {
  if (!isZod(root) || seen.has(root)) return out;
  seen.add(root);
  const def = root._zod.def;
  if (def.type === "enum")
    out.push({ where, values: Object.values(def.entries as Record<string, string>).map(String) });
  if (def.type === "object") {
    for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) zodEnums(v, `${where}.${k}`, out, seen);
    return out;
  }
  if (def.type === "lazy") zodEnums((def.getter as () => unknown)(), where, out, seen);
  for (const v of Object.values(def)) {
    if (isZod(v)) zodEnums(v, where, out, seen);
    else if (Array.isArray(v)) for (const x of v) zodEnums(x, where, out, seen);
  }
  return out;
}

const sorted = (values: readonly string[]) => [...values].sort();
const enumValues = (name: string) => {
  const type = schema.getType(name);
  if (!type || !isEnumType(type)) throw new Error(`${name} is not a GraphQL enum`);
  return sorted(type.getValues().map((v) => v.name));
};

/** REST enums GraphQL types otherwise, each with its reason. */
const NOT_GRAPHQL_ENUMS: { values: string[]; reason: string }[] = [
  { values: ["false", "true"], reason: "a boolean in a query string (includeClosed, dryRun): GraphQL's Boolean" },
  // myTax labels start with a digit, which no GraphQL name may: the TaxLabels scalar (label → amount) and MyTaxLabel.label (a String) carry them.
  { values: [...INCOME_LABELS], reason: "myTax income labels (10L…20O): TaxLabels keys" },
  { values: MYTAX_LABELS.map((l) => l.label), reason: "myTax labels (10L…20O, 18A, 18V): MyTaxLabel.label" },
];

/**
 * Field by field: where REST has a z.enum, the GraphQL field or argument is that enum. The REST
 * side is read from the route's own schema, so a value added on either side alone fails here.
 */
function restEnum(operationId: string, part: "query" | "body" | "response", fieldPath: string): string[] {
  const e = endpoints.find((x) => x.operationId === operationId);
  if (!e) throw new Error(`no REST operation ${operationId}`);
  const found = zodEnums(e[part], part).filter((x) => x.where === `${part}.${fieldPath}`);
  if (found.length !== 1) throw new Error(`${operationId} ${part}.${fieldPath}: ${found.length} enums`);
  return sorted(found[0].values);
}

function graphqlEnumAt(coordinate: string): string {
  // Type.field, Type.field(argument) or Input.field
  const [, typeName, fieldName, argName] = /^(\w+)\.(\w+)(?:\((\w+)\))?$/.exec(coordinate)!;
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInputObjectType(type)) throw new Error(`${typeName} has no fields`);
  const field = type.getFields()[fieldName];
  const t = argName ? (field as GraphQLField<unknown, unknown>).args.find((a) => a.name === argName)!.type : field.type;
  const named = getNamedType(t);
  if (!isEnumType(named)) throw new Error(`${coordinate} is ${String(t)}, not an enum`);
  return named.name;
}

const FIELD_ENUMS: [coordinate: string, operationId: string, part: "query" | "body" | "response", fieldPath: string][] =
  [
    ["Holding.priceSource", "getHolding", "response", "priceSource"],
    ["DrpSetting.rounding", "getHolding", "response", "drp.rounding"],
    ["DrpInput.rounding", "updateHolding", "body", "drp.rounding"],
    ["Holding.holdingType", "getHolding", "response", "holdingType"],
    ["CreateHoldingInput.holdingType", "createHolding", "body", "holdingType"],
    ["Security.securityType", "searchSecurities", "response", "securityType"],
    ["Trade.tradeType", "getTrade", "response", "tradeType"],
    ["TradeInput.tradeType", "createTrade", "body", "tradeType"],
    ["TradeInput.holdingType", "createTrade", "body", "holdingType"],
    ["TradeImportInput.duplicates", "importTrades", "query", "duplicates"],
    ["PortfolioTransaction.kind", "listPortfolioTransactions", "response", "kind"],
    ["Portfolio.transactions(type)", "listPortfolioTransactions", "query", "type"],
    ["CashMovement.source", "listCashMovements", "response", "source"],
    ["CashTransaction.type", "getCashTransaction", "response", "type"],
    ["CashTransactionInput.type", "createCashTransaction", "body", "type"],
    ["Portfolio.entityType", "getPortfolio", "response", "entityType"],
    ["CreatePortfolioInput.entityType", "createPortfolio", "body", "entityType"],
    ["Client.permission", "getClient", "response", "permission"],
    ["TaxSettings.defaultMethod", "getPortfolioTaxSettings", "response", "defaultMethod"],
    ["TaxSettingsInput.defaultMethod", "updateTaxSettings", "body", "defaultMethod"],
    ["RebalanceInput.mode", "computeRebalance", "body", "mode"],
    ["RebalanceInput.band", "computeRebalance", "body", "band"],
    ["DriftEntry.status", "computeRebalance", "response", "driftReport.entries.status"],
    ["RebalanceLeg.side", "computeRebalance", "response", "legs.side"],
    ["RebalanceWarning.code", "computeRebalance", "response", "warnings.code"],
  ];

describe("(c) enums", () => {
  it.each(FIELD_ENUMS)(
    "%s is the GraphQL enum of REST %s %s.%s, with the same values",
    (coordinate, operationId, part, fieldPath) => {
      expect(enumValues(graphqlEnumAt(coordinate))).toEqual(restEnum(operationId, part, fieldPath));
    },
  );

  it("every enum anywhere in REST's schemas has a GraphQL enum with exactly its values", () => {
    const graphqlSets = Object.values(schema.getTypeMap())
      .filter((t) => isEnumType(t) && !t.name.startsWith("__"))
      .map((t) => JSON.stringify(enumValues(t.name)));
    const missing: string[] = [];
    for (const e of endpoints) {
      for (const part of ["query", "body", "response"] as const) {
        for (const found of zodEnums(e[part], part)) {
          const values = JSON.stringify(sorted(found.values));
          if (NOT_GRAPHQL_ENUMS.some((x) => JSON.stringify(sorted(x.values)) === values)) continue;
          if (!graphqlSets.includes(values)) missing.push(`${e.operationId} ${found.where}: ${values}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("enums over values REST answers as plain strings hold exactly what the services produce", () => {
    // REST types these as strings (cash.schemas.ts, transactions.schemas.ts); their values are a
    // closed set the services write, so GraphQL names them.
    expect(enumValues("CashMovementType")).toEqual(sorted([...CASH_TRANSACTION_TYPES, ...CASH_TRADE_TYPES, "Income"]));
    expect(enumValues("PortfolioTransactionType")).toEqual(
      sorted([...TRADE_TYPES, "Income", "Reinvested", ...CASH_TYPES]),
    );
  });
});

// (d), (e): both transports over the real database ------------------------------------------

let t: TestApp;
let key: string;

type Json = Record<string, unknown>;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.reset();
  key = await t.newAccount();
});

/** A GraphQL answer: its data field, or the first error's code and field errors. */
async function gql(
  query: string,
  variables: Json,
  field: string,
): Promise<{ data?: unknown; code?: string; errors?: unknown }> {
  const res = await t.gql(key, query, variables);
  const errors = res.body.errors as { extensions?: { code?: string; errors?: unknown } }[] | undefined;
  if (errors?.length) return { code: errors[0].extensions?.code, errors: errors[0].extensions?.errors };
  expect(res.status).toBe(200);
  return { data: res.body.data[field] };
}

/** A REST answer in the same terms. */
const rest = (res: Response): { data?: unknown; code?: string; errors?: unknown } =>
  res.status < 300 ? { data: res.body } : { code: res.body.code, errors: res.body.errors };

/** A portfolio's holdings with their trades, without the ids that differ between portfolios. */
async function contents(p: number): Promise<Json[]> {
  const holdings = (await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key))
    .body as Json[];
  return Promise.all(
    holdings.map(async ({ id, portfolioId: _p, ...h }) => {
      const trades = (await t.http.get(`/v1/holdings/${id}/trades`).set("authorization", key)).body as Json[];
      return { ...h, trades: trades.map(({ id: _i, holdingId: _h, portfolioId: _pp, ...x }) => x) };
    }),
  );
}

const IMPORT = `mutation($p: ID!, $input: TradeImportInput!) {
  importTrades(portfolioId: $p, input: $input) { dryRun imported valid newHoldings { symbol exchange } tradeIds skipped { line duplicateOf } }
}`;

const importRest = (p: number, body: unknown, query = "", csv = false) => {
  const req = t.http.post(`/v1/portfolios/${p}/trades/import${query}`).set("authorization", key);
  return csv ? req.set("content-type", "text/csv").send(body as string) : req.send(body as object);
};

/** An import answer with its ids replaced by their count (ids differ between portfolios). */
const shape = (o: { data?: unknown; code?: string; errors?: unknown }) => {
  if (!o.data) return o;
  const r = o.data as Json & { tradeIds: unknown[]; skipped: Json[] };
  return { data: { ...r, tradeIds: r.tradeIds.length, skipped: r.skipped.map((s) => s.line) } };
};

const ROWS = [
  {
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10,
    price: 100,
    brokerage: 9.95,
  },
  {
    symbol: "NAB",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-11",
    quantity: "20",
    price: "30.5",
    notes: "from the statement",
  },
  { symbol: "CBA", exchange: "ASX", tradeType: "Sell", tradeDate: "2024-02-01", quantity: 4, price: 110 },
];

const CSV =
  "date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes\n2024-01-10,Buy,CBA,ASX,10,100,9.95,,,CommSec,first\n2024-03-01,Sell,CBA,ASX,5,120,0,,,,\n";

describe("(d) trade import and symbol changes over both transports", () => {
  it("the same JSON rows import alike: the same answer and the same trades", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const viaRest = rest(await importRest(a, ROWS));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: ROWS } }, "importTrades");
    expect(viaRest.data).toMatchObject({ dryRun: false, imported: 3, valid: 3 });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect((viaGraphql.data as { tradeIds: unknown[] }).tradeIds.every((id) => typeof id === "string")).toBe(true);
    expect(await contents(b)).toEqual(await contents(a));
  });

  it("the same CSV text imports alike", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const viaRest = rest(await importRest(a, CSV, "", true));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { csv: CSV } }, "importTrades");
    expect(viaRest.data).toMatchObject({ imported: 2 });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect(await contents(b)).toEqual(await contents(a));
  });

  it("a dry run answers alike and writes nothing on either", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const before = await ledgerFingerprint(t.db);
    const viaRest = rest(await importRest(a, ROWS, "?dryRun=true"));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: ROWS, dryRun: true } }, "importTrades");
    expect(viaRest.data).toMatchObject({ dryRun: true, imported: 0, valid: 3, tradeIds: [] });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("duplicates: skip leaves out the same rows on both", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    expect(rest(await importRest(a, ROWS)).data).toBeTruthy();
    expect((await gql(IMPORT, { p: String(b), input: { rows: ROWS } }, "importTrades")).data).toBeTruthy();
    const again = [
      ...ROWS,
      { symbol: "CBA", exchange: "ASX", tradeType: "Buy", tradeDate: "2024-03-01", quantity: 1, price: 1 },
    ];
    const viaRest = rest(await importRest(a, again, "?duplicates=skip"));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: again, duplicates: "skip" } }, "importTrades");
    expect(shape(viaRest)).toMatchObject({ data: { imported: 1, skipped: [1, 2, 3] } });
    expect(shape(viaGraphql)).toEqual(shape(viaRest));
    expect(await contents(b)).toEqual(await contents(a));
  });

  it("a refused import names the same rows with the same messages and writes nothing", async () => {
    const [a, b] = [await newPortfolio(t, key, { name: "Parity" }), await newPortfolio(t, key, { name: "Parity" })];
    const bad = [ROWS[0], { ...ROWS[1], quantity: "lots" }, { ...ROWS[2], price: "-1" }];
    const before = await ledgerFingerprint(t.db);
    const viaRest = rest(await importRest(a, bad));
    const viaGraphql = await gql(IMPORT, { p: String(b), input: { rows: bad } }, "importTrades");
    expect(viaRest.code).toBe("VALIDATION_FAILED");
    expect(viaGraphql).toEqual(viaRest);
    // Rows and CSV at once is no body REST could send either.
    expect((await gql(IMPORT, { p: String(b), input: { rows: ROWS, csv: CSV } }, "importTrades")).code).toBe(
      "VALIDATION_FAILED",
    );
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("the symbol-change list answers alike; an unknown or foreign holding is NOT_FOUND on both", async () => {
    const p = await newPortfolio(t, key, { name: "Parity" });
    const holdingId = (
      await t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p,
        symbol: "AAA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-10",
        quantity: 1,
        price: 1,
      })
    ).body.holdingId as number;
    const SYMBOL_CHANGES = `query($h: ID!) { symbolChanges(holdingId: $h) { fromSymbol fromExchange toSymbol toExchange changedAt } }`;
    expect(await gql(SYMBOL_CHANGES, { h: String(holdingId) }, "symbolChanges")).toEqual({ data: [] });
    expect(
      (
        await t.http
          .put(`/v1/holdings/${holdingId}/symbol`)
          .set("authorization", key)
          .send({ symbol: "BBB", exchange: "ASX" })
      ).status,
    ).toBe(200);
    const CHANGE = `mutation($h: ID!) { changeHoldingSymbol(id: $h, symbol: "CCC", exchange: "ASX") { symbol } }`;
    expect(await gql(CHANGE, { h: String(holdingId) }, "changeHoldingSymbol")).toEqual({ data: { symbol: "CCC" } });

    const viaRest = rest(await t.http.get(`/v1/holdings/${holdingId}/symbol-changes`).set("authorization", key));
    const viaGraphql = await gql(SYMBOL_CHANGES, { h: String(holdingId) }, "symbolChanges");
    expect(viaRest.data).toEqual([
      { fromSymbol: "AAA", fromExchange: "ASX", toSymbol: "BBB", toExchange: "ASX", changedAt: expect.any(String) },
      { fromSymbol: "BBB", fromExchange: "ASX", toSymbol: "CCC", toExchange: "ASX", changedAt: expect.any(String) },
    ]);
    expect(viaGraphql).toEqual(viaRest);

    const mine = key;
    key = await t.newAccount();
    for (const h of [holdingId, 999999]) {
      expect(rest(await t.http.get(`/v1/holdings/${h}/symbol-changes`).set("authorization", key)).code).toBe(
        "NOT_FOUND",
      );
      expect((await gql(SYMBOL_CHANGES, { h: String(h) }, "symbolChanges")).code).toBe("NOT_FOUND");
    }
    key = mine;
  });
});

describe("(e) pro-rata components: one JSON body for both transports", () => {
  const PRO_RATA = `mutation($holdingId: ID!, $financialYear: Int!, $components: IncomeComponents!) {
    updateProRataDistributions(holdingId: $holdingId, financialYear: $financialYear, components: $components) { id isTrustIncome components }
  }`;

  async function seed(): Promise<number> {
    const p = await newPortfolio(t, key, { name: "Parity" });
    const holdingId = (
      await t.http.post("/v1/trades").set("authorization", key).send({
        portfolioId: p,
        symbol: "VAS",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-10",
        quantity: 100,
        price: 90,
      })
    ).body.holdingId as number;
    for (const [exDividendDate, paidDate, unfrankedAmount] of [
      ["2024-09-30", "2024-10-15", 100],
      ["2025-03-31", "2025-04-15", 300],
    ] as const) {
      expect(
        (
          await t.http
            .post("/v1/income")
            .set("authorization", key)
            .send({ holdingId, exDividendDate, paidDate, unfrankedAmount })
        ).status,
      ).toBe(201);
    }
    return holdingId;
  }

  /** REST's answer in GraphQL's terms: ids and amounts as strings. */
  const asGraphql = (records: Json[]) =>
    records.map((r) => ({
      id: String(r.id),
      isTrustIncome: r.isTrustIncome,
      components:
        r.components === null
          ? null
          : Object.fromEntries(Object.entries(r.components as Json).map(([k, v]) => [k, String(v)])),
    }));

  it("the same body gives the same answer on both", async () => {
    const holdingId = await seed();
    const body = {
      financialYear: 2025,
      components: { discountedCapitalGains: 100, frankedDistributions: "33.3333", amitCostBaseDecrease: 4 },
    };
    const viaRest = await t.http
      .put(`/v1/holdings/${holdingId}/pro-rata-distributions`)
      .set("authorization", key)
      .send(body);
    expect(viaRest.status).toBe(200);
    const viaGraphql = await gql(PRO_RATA, { holdingId: String(holdingId), ...body }, "updateProRataDistributions");
    expect(viaGraphql.data).toEqual(asGraphql(viaRest.body));
    expect(viaGraphql.data).toEqual([
      expect.objectContaining({
        components: { discountedCapitalGains: "25", frankedDistributions: "8.3333", amitCostBaseDecrease: "1" },
      }),
      expect.objectContaining({
        components: { discountedCapitalGains: "75", frankedDistributions: "25", amitCostBaseDecrease: "3" },
      }),
    ]);
    // The income record reads back the same object on both.
    const id = (viaGraphql.data as Json[])[0].id as string;
    const readRest = (await t.http.get(`/v1/income/${id}`).set("authorization", key)).body as Json;
    const readGraphql = await gql(
      `query($id: ID!) { income(id: $id) { id isTrustIncome components } }`,
      { id },
      "income",
    );
    expect(readGraphql.data).toEqual(asGraphql([readRest])[0]);
  });

  it("a bad body is refused with the same code, paths and messages on both, writing nothing", async () => {
    const holdingId = await seed();
    const before = await ledgerFingerprint(t.db);
    for (const components of [
      { "discounted capital gains": 1 },
      {},
      { nonPrimaryProductionIncome: "1.00001" },
      { nonPrimaryProductionIncome: "x" },
    ]) {
      const body = { financialYear: 2025, components };
      const viaRest = rest(
        await t.http.put(`/v1/holdings/${holdingId}/pro-rata-distributions`).set("authorization", key).send(body),
      );
      const viaGraphql = await gql(PRO_RATA, { holdingId: String(holdingId), ...body }, "updateProRataDistributions");
      expect(viaRest.code).toBe("VALIDATION_FAILED");
      expect(viaGraphql).toEqual(viaRest);
    }
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("createIncome takes the components object REST takes", async () => {
    const holdingId = await seed();
    const input = {
      holdingId: String(holdingId),
      exDividendDate: "2025-06-30",
      paidDate: "2025-07-15",
      unfrankedAmount: 10,
      isTrustIncome: true,
      components: { nonPrimaryProductionIncome: "10" },
    };
    const viaGraphql = await gql(
      `mutation($input: IncomeInput!) { createIncome(input: $input) { id components } }`,
      { input },
      "createIncome",
    );
    const id = (viaGraphql.data as Json).id;
    expect(viaGraphql.data).toEqual({ id: expect.any(String), components: { nonPrimaryProductionIncome: "10" } });
    expect((await t.http.get(`/v1/income/${id}`).set("authorization", key)).body.components).toEqual({
      nonPrimaryProductionIncome: 10,
    });
  });
});
