import fs from "node:fs";
import path from "node:path";
import { isObjectType, type GraphQLField } from "graphql";
import { endpoints } from "../../src/http/router";
import { PROJECT_ROOT } from "../../src/lib/paths";
import { schema } from "./graphql-parity.transports";

/**
 * (a) The operation sets of REST and GraphQL match under one naming rule.
 *
 * REST and GraphQL are two adapters over one set of service functions (docs/conventions.md §9.1, "one
 * name for one operation"). This suite holds them together:
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
  capitalGainsReportPdf: "a PDF download; GraphQL answers JSON (capitalGainsReport carries the same figures)",
};

/** POSTs that compute and write nothing whose GraphQL field is a query, each with its reason. */
const POST_QUERIES: Record<string, string> = {
  simulateSell: "REPORTS.md §5.5: a query, it writes nothing (a POST over REST for its body)",
  taxPlannerWhatIf: "REPORTS.md §6.1: a query, it writes nothing (a POST over REST for its body)",
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
