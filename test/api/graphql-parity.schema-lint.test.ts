import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/lib/paths";
import { schema } from "./graphql-parity.transports";

/**
 * (b) schema.graphql passes graphql-schema-linter's description rules.
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
