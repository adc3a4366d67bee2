/**
 * Generates the GraphQL resolver types from schema.graphql (GraphQL Code Generator's typescript
 * and typescript-resolvers plugins, called through @graphql-codegen/core: its CLI package pulls
 * dependencies the registry does not serve). Runs on `npm test` and by hand with `npm run codegen`.
 */
import fs from "node:fs";
import path from "node:path";
import { codegen } from "@graphql-codegen/core";
import * as typescript from "@graphql-codegen/typescript";
import * as typescriptResolvers from "@graphql-codegen/typescript-resolvers";
import { buildSchema, parse, printSchema } from "graphql";

const root = path.resolve(__dirname, "../..");
const out = path.join(root, "generated/graphql/resolvers.ts");

async function main() {
  const schema = buildSchema(fs.readFileSync(path.join(root, "schema.graphql"), "utf8"));
  const output = await codegen({
    filename: out,
    schema: parse(printSchema(schema)),
    documents: [],
    plugins: [{ typescript: {} }, { typescriptResolvers: {} }],
    pluginMap: { typescript, typescriptResolvers },
    config: {
      useIndexSignature: true,
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
        AllocationModel: "../../src/modules/allocation-models/allocation-models.service#AllocationModelView",
        RebalanceResult: "../../src/modules/rebalancing/rebalancing.service#RebalanceView",
        Bucket: "../../src/modules/allocation-models/allocation-models.service#BucketView",
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
  fs.writeFileSync(
    out,
    "/* eslint-disable */\n// Generated from schema.graphql by src/graphql/codegen.ts. Do not edit.\n" + output,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
