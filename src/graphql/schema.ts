import fs from "node:fs";
import path from "node:path";
import { makeExecutableSchema } from "@graphql-tools/schema";
import type { Resolvers } from "../../generated/graphql/resolvers";
import { PROJECT_ROOT } from "../lib/paths";
import { allocationModelResolvers } from "../modules/allocation-models/allocation-models.resolvers";
import { portfolioResolvers } from "../modules/portfolios/portfolios.resolvers";
import { sourceResolvers } from "../modules/sources/sources.resolvers";
import { DateTimeScalar, DecimalScalar } from "./scalars";

/** SDL-first: schema.graphql is the contract; each module contributes its resolvers. */
export function buildSchema() {
  const typeDefs = fs.readFileSync(path.join(PROJECT_ROOT, "schema.graphql"), "utf8");
  const resolvers: Resolvers[] = [
    { Decimal: DecimalScalar, DateTime: DateTimeScalar },
    sourceResolvers,
    portfolioResolvers,
    allocationModelResolvers,
  ];
  return makeExecutableSchema({ typeDefs, resolvers: resolvers as never, resolverValidationOptions: { requireResolversToMatchSchema: "error" } });
}
