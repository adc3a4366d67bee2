import { spawnSync } from "node:child_process";
import path from "node:path";
import { useTestApp } from "../support/app";

/**
 * The served OpenAPI document lints clean: Redocly's `recommended` ruleset (@redocly/openapi-core)
 * finds no problem of any severity (a tag without a description, no licence, an unused component,
 * an operation without a summary…). The linter is an ES module, which Jest's CommonJS runtime
 * cannot load, so it runs in a Node process of its own, the document on its stdin.
 */
const LINT = `
import { createConfig, lintFromString } from "@redocly/openapi-core";
let source = "";
for await (const chunk of process.stdin) source += chunk;
const config = await createConfig({ extends: ["recommended"] });
const problems = await lintFromString({ source, absoluteRef: "openapi.json", config });
process.stdout.write(JSON.stringify(problems.map((p) => ({
  severity: p.severity,
  rule: p.ruleId,
  message: p.message,
  at: p.location.map((l) => l.pointer).join(" "),
}))));
`;

interface Problem {
  severity: string;
  rule: string;
  message: string;
  at: string;
}

function lint(document: string): Problem[] {
  const run = spawnSync(process.execPath, ["--input-type=module", "--eval", LINT], {
    cwd: path.join(__dirname, "../.."),
    input: document,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`the linter failed (${run.status ?? run.signal}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Problem[];
}

const t = useTestApp({ reset: "none" });

it("GET /v1/openapi.json lints with no problem under Redocly's recommended rules", async () => {
  const served = await t.http.get("/v1/openapi.json").expect(200);
  expect(lint(served.text)).toEqual([]);
});

it("the linter does report problems (an undescribed tag, an unused component)", () => {
  const problems = lint(
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "t", version: "1", license: { name: "MIT", identifier: "MIT" } },
      servers: [{ url: "/" }],
      security: [],
      tags: [{ name: "T" }],
      paths: {},
      components: { responses: { Unused: { description: "never referred to" } } },
    }),
  );
  expect(problems.map((p) => p.rule)).toEqual(expect.arrayContaining(["tag-description", "no-unused-components"]));
});
