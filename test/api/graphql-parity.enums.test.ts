import { INCOME_LABELS } from "../../src/modules/tax/taxable-income";
import { CASH_TRADE_TYPES } from "../../src/modules/ledger/cash-effects";
import { CASH_TRANSACTION_TYPES } from "../../src/modules/cash/cash.schemas";
import { TRADE_TYPES } from "../../src/modules/ledger";
import { CASH_TYPES } from "../../src/modules/transactions/transactions.schemas";
import { MYTAX_LABELS } from "../../src/modules/tax/mytax";
import { getNamedType, isEnumType, isInputObjectType, isObjectType, type GraphQLField } from "graphql";
import type { z } from "zod";
import { endpoints } from "../../src/http/router";
import { IMPORT_FORMATS } from "../../src/modules/trades/trades-import.rows";
import { schema } from "./graphql-parity.transports";

/**
 * (c) Every value REST types as an enum is a GraphQL enum with exactly the same values.
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
 * the parent's type instead (RELATIONS in graphql-parity.operation-sets.test.ts).
 */

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
  // Broker format names carry hyphens (commsec-summary), which no GraphQL name may: a String there.
  { values: [...IMPORT_FORMATS], reason: "import formats (commsec-summary…): TradeImportInput.format" },
  {
    values: IMPORT_FORMATS.filter((f) => f !== "auto"),
    reason: "the format an import was read as: TradeImportResult.format",
  },
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
    ["ApiKey.kind", "listApiKeys", "response", "kind"],
    ["NewApiKey.kind", "createApiKey", "response", "kind"],
    ["TaxSettings.defaultMethod", "getPortfolioTaxSettings", "response", "defaultMethod"],
    ["TaxSettingsInput.defaultMethod", "updateTaxSettings", "body", "defaultMethod"],
    ["RebalanceInput.mode", "computeRebalance", "body", "mode"],
    ["RebalanceInput.band", "computeRebalance", "body", "band"],
    ["DriftEntry.status", "computeRebalance", "response", "driftReport.entries.status"],
    ["RebalanceLeg.side", "computeRebalance", "response", "legs.side"],
    ["RebalanceWarning.code", "computeRebalance", "response", "warnings.code"],
    ["TaxPlannerWarning.code", "taxPlanner", "response", "warnings.code"],
    ["TaxPlannerSellInput.method", "taxPlannerWhatIf", "body", "sells.method"],
    ["IncomeForecastPayment.basis", "incomeForecast", "response", "payments.basis"],
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
