import fs from "node:fs";
import path from "node:path";
import { buildClientSchema, buildSchema as buildSdl, getIntrospectionQuery, printSchema } from "graphql";
import { buildSchema } from "../../src/graphql/schema";
import { useTestApp } from "../support/app";

/**
 * schema.graphql is the contract (README, "GraphQL names and values"): the schema the server
 * serves, descriptions included, is that file and nothing else. Both sides go through
 * printSchema(buildSchema(...)) so only meaning is compared, not layout.
 */
const committed = printSchema(buildSdl(fs.readFileSync(path.join(__dirname, "../../schema.graphql"), "utf8")));

const t = useTestApp({ reset: "none" });

describe("the served SDL is the committed schema.graphql", () => {
  it("the executable schema prints as the file", () => {
    expect(printSchema(buildSchema())).toBe(committed);
  });

  it("introspection over HTTP (no key) prints as the file, every description included", async () => {
    const res = await t.gql(
      undefined,
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, schemaDescription: true }),
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(printSchema(buildClientSchema(res.body.data))).toBe(committed);
  });
});
