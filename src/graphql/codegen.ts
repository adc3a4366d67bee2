/**
 * Generates the GraphQL resolver types from schema.graphql (GraphQL Code Generator's typescript
 * and typescript-resolvers plugins, called through @graphql-codegen/core: its CLI package pulls
 * dependencies the registry does not serve), and the web app's operations (src/web/operations.graphql)
 * typed from the same schema (typescript-operations). Runs on `npm test` and by hand with `npm run codegen`.
 */
import fs from "node:fs";
import path from "node:path";
import { codegen } from "@graphql-codegen/core";
import * as typescript from "@graphql-codegen/typescript";
import * as typescriptOperations from "@graphql-codegen/typescript-operations";
import * as typescriptResolvers from "@graphql-codegen/typescript-resolvers";
import { buildSchema, parse, printSchema, type DocumentNode, type GraphQLSchema } from "graphql";
import { operationTexts } from "./operation-texts";

const root = path.resolve(__dirname, "../..");
const out = path.join(root, "generated/graphql/resolvers.ts");
const webOperations = path.join(root, "src/web/operations.graphql");
const webOut = path.join(root, "generated/graphql/web-operations.ts");
const HEADER = "/* eslint-disable */\n// Generated from schema.graphql by src/graphql/codegen.ts. Do not edit.\n";

async function main() {
  const schema = buildSchema(fs.readFileSync(path.join(root, "schema.graphql"), "utf8"));
  const output = await codegen({
    filename: out,
    schema: parse(printSchema(schema)),
    documents: [],
    plugins: [{ typescript: {} }, { typescriptResolvers: {} }],
    pluginMap: { typescript, typescriptResolvers },
    config: {
      // No index signature on the resolver maps: a resolver for a field schema.graphql lacks is a
      // type error, not only a refusal when the schema is built at start.
      useIndexSignature: false,
      enumsAsTypes: true,
      contextType: "../../src/graphql/loaders#GraphQLContext",
      scalars: {
        // Integer ids leave the services as numbers; GraphQL serialises them as strings.
        ID: { input: "string", output: "string | number" },
        Decimal: { input: "string | number", output: "string | number | import('decimal.js').Decimal" },
        DateTime: { input: "string", output: "Date | string" },
        Date: { input: "string", output: "string | Date" },
        // The same JSON object as REST's components (name → amount); the service validates it.
        IncomeComponents: { input: "Record<string, unknown>", output: "Record<string, unknown>" },
        TaxLabels: { input: "never", output: "Record<string, unknown>" },
      },
      mappers: {
        Portfolio: "../../src/modules/portfolios/portfolios.service#PortfolioView",
        AllocationModel: "../../src/modules/allocation-models/allocation-models.service#AllocationModelParent",
        RebalanceResult: "../../src/modules/rebalancing/rebalancing.service#RebalanceView",
        Bucket: "../../src/modules/allocation-models/allocation-models.service#BucketParent",
        Holding: "../../src/modules/holdings/holdings.service#HoldingView",
        Trade: "../../src/modules/trades/trades.service#TradeView",
        Income: "../../src/modules/income/income.service#IncomeView",
        Client: "../../src/modules/clients/clients.service#ClientView",
        CustomGroup: "../../src/modules/custom-groups/custom-groups.service#CustomGroupView",
        CustomGroupAssignment: "../../src/modules/custom-groups/custom-groups.service#CustomGroupAssignmentView",
        TaxSettings: "../../src/modules/tax-settings/tax-settings.service#TaxSettingsView",
        CashAccount: "../../src/modules/cash/cash.service#CashAccountView",
        // Views whose type strings are GraphQL enums: the service's values are those enums' values
        // (test/api/graphql-parity.test.ts checks the sets), so they pass through unchanged.
        CashMovement: "../../src/modules/cash/cash.service#CashMovementView",
        PortfolioTransaction: "../../src/modules/transactions/transactions.service#PortfolioTransactionView",
      },
    },
  });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, HEADER + output);
  await generateWebOperations(schema);
}

/**
 * The web app's operations: their result and variable types (as the browser receives them: decimals
 * and dates are strings), and each operation's text, typed by them (src/web/api.ts sends it).
 */
async function generateWebOperations(schema: GraphQLSchema) {
  const document = parse(fs.readFileSync(webOperations, "utf8"));
  const types = await codegen({
    filename: webOut,
    schema: parse(printSchema(schema)),
    documents: [{ location: webOperations, document }],
    // typescript-operations 6 writes the enums and inputs the operations use by itself.
    plugins: [{ typescriptOperations: {} }],
    pluginMap: { typescriptOperations },
    config: {
      enumsAsTypes: true,
      scalars: {
        ID: "string",
        Decimal: "string",
        Date: "string",
        DateTime: "string",
        IncomeComponents: "Record<string, string>",
        TaxLabels: "Record<string, string>",
      },
    },
  });
  fs.mkdirSync(path.dirname(webOut), { recursive: true });
  fs.writeFileSync(webOut, HEADER + types + operationTexts(document));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
