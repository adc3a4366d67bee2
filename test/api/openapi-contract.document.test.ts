import { isWrite, type Endpoint } from "../../src/http/endpoint";
import { buildOpenApi } from "../../src/http/openapi";
import { endpoints } from "../../src/http/router";
import { useTestApp } from "../support/app";
import { OpenApiContract, structuralProblems, type OpenApiDocument } from "../support/openapi";
import { type FixtureIds } from "../scenarios/write-fixture";
import {
  csv,
  SUCCESS,
  BAD_QUERY,
  MISSING_REFERENCE,
  RULES,
  pathParams,
  contractDriver,
} from "./openapi-contract.cases";

/**
 * The document itself: valid OpenAPI 3.1 whose schemas compile, built from the endpoint table with a
 * case here for each operation, and documenting the README's statuses, Location, paging and CSV bodies.
 *
 * The OpenAPI document is the contract: every operation of the `endpoints` table is driven over
 * HTTP (a success and its errors), and every answer must have a status the document lists for that
 * operation, a documented content type, a body valid against the documented schema (ajv, strict,
 * JSON Schema 2020-12) and the documented headers. A route added without a case here fails.
 */

const t = useTestApp({ reset: "none" });
let doc: OpenApiDocument;
let contract: OpenApiContract;
/** One account's fixture for reads and refused requests (neither changes it). */
let shared: { key: string; readKey: string; ids: FixtureIds };

const { servedContract } = contractDriver(t, () => contract);

beforeAll(async () => {
  ({ doc, contract, shared } = await servedContract());
});

describe("the document", () => {
  it("is structurally valid OpenAPI 3.1", () => {
    expect(structuralProblems(doc)).toEqual([]);
  });

  it("compiles every schema it holds with ajv (JSON Schema 2020-12, strict: no unknown keyword or format)", () => {
    const failures: string[] = [];
    let count = 0;
    for (const [where, schema] of contract.schemas()) {
      count++;
      try {
        contract.validator(schema);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(endpoints.length);
  });

  it("is built from the endpoint table, one operation each", () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operations.sort()).toEqual(endpoints.map((e) => e.operationId).sort());
  });

  it("every operation of the table has a case here, and every case an operation", () => {
    expect(endpoints.filter((e) => !(e.operationId in SUCCESS)).map((e) => e.operationId)).toEqual([]);
    expect(Object.keys(SUCCESS).filter((id) => !endpoints.some((e) => e.operationId === id))).toEqual([]);
    for (const table of [BAD_QUERY, MISSING_REFERENCE, RULES])
      expect(Object.keys(table).filter((id) => !endpoints.some((e) => e.operationId === id))).toEqual([]);
    // Every query-taking operation has a refused query.
    expect(endpoints.filter((e) => e.query && !(e.operationId in BAD_QUERY)).map((e) => e.operationId)).toEqual([]);
  });

  it("documents, per the README: 403 on every write, 404 with a path id, 415 with a body, 429/500/503 everywhere, 507 on writes", () => {
    const missing: string[] = [];
    for (const e of endpoints) {
      const op = contract.operation(e.method, e.path)!;
      const statuses = Object.keys(op.responses as object).map(Number);
      const want = [
        400,
        401,
        429,
        500,
        503,
        ...(isWrite(e) ? [403] : []),
        ...(e.method !== "get" ? [409, 507] : []),
        ...(e.method === "post" ? [422] : []),
        ...(pathParams(e).length ? [404] : []),
        ...(op.requestBody ? [413, 415] : []),
        ...(e.errors ?? []),
      ];
      for (const s of want) if (!statuses.includes(s)) missing.push(`${e.operationId} ${s}`);
      if (
        e.method === "post" &&
        !((op.parameters ?? []) as unknown[]).some(
          (p) => contract.resolve<{ name: string }>(p).name === "Idempotency-Key",
        )
      )
        missing.push(`${e.operationId} Idempotency-Key`);
    }
    expect(missing).toEqual([]);
  });

  it("a create whose resource can be read back says where (Location); a list taking limit and offset is paged", () => {
    const gaps: string[] = [];
    for (const e of endpoints) {
      const readBack =
        e.status === 201 &&
        e.response &&
        endpoints.some((g) => g.method === "get" && g.response === e.response && /\/:\w+$/.test(g.path));
      if (readBack && !e.location) gaps.push(`${e.operationId}: 201 with a readable resource but no \`location\``);
      if (e.query && "limit" in e.query.shape && "offset" in e.query.shape && !e.paged)
        gaps.push(`${e.operationId}: takes limit and offset but is not \`paged\` (no X-Total-Count, Link)`);
    }
    expect(gaps).toEqual([]);
  });

  it("documents an Endpoint's CSV columns as a text/csv body beside JSON", () => {
    const bulk = endpoints.find((e) => e.operationId === "upsertFxRates")!;
    const local = buildOpenApi(
      [{ ...bulk, csv: { columns: ["base", "quote", "date", "rate"], required: ["base", "quote", "date", "rate"] } }],
      { version: "test" },
    );
    const content = (
      local.paths["/v1/fx-rates/bulk"].post as {
        requestBody: { content: Record<string, { schema: { type: string; description: string }; example: string }> };
      }
    ).requestBody.content;
    expect(Object.keys(content).sort()).toEqual(["application/json", "text/csv"]);
    expect(content["text/csv"].schema.type).toBe("string");
    expect(content["text/csv"].schema.description).toContain(
      "`base` (required), `quote` (required), `date` (required), `rate` (required)",
    );
    expect(content["text/csv"].example.split("\n")[0]).toBe("base,quote,date,rate");
  });
});
