import fs from "node:fs";
import path from "node:path";
import { useTestApp } from "../support/app";
import { UUID } from "../support/kit";

const t = useTestApp({ reset: "none" });
let key: string;

beforeAll(async () => {
  key = await t.newAccount();
});

describe("GET /v1/sources (seed 4.1)", () => {
  it("answers 200 application/json with every source as {id: uuid, name}", async () => {
    const res = await t.http.get("/v1/sources").set("authorization", key);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body.length).toBeGreaterThanOrEqual(25);
    for (const s of res.body) {
      expect(Object.keys(s).sort()).toEqual(["id", "name"]);
      expect(s.id).toMatch(UUID);
    }
    const names = res.body.map((s: { name: string }) => s.name);
    for (const broker of [
      "CommSec",
      "CMC Markets Invest",
      "SelfWealth",
      "Stake",
      "Pearler",
      "nabtrade",
      "Interactive Brokers",
      "Superhero",
      "Bell Direct",
      "Westpac Share Trading",
      "ANZ Share Investing",
      "Saxo Markets",
      "eToro",
      "Moomoo",
      "Tiger Brokers",
      "CSV Import",
      "Manual Entry",
    ]) {
      expect(names).toContain(broker);
    }
    expect(new Set(res.body.map((s: { id: string }) => s.id)).size).toBe(res.body.length);
  });

  it("serves the ids fixed in the migration, so they are the same on every install", async () => {
    const dir = path.join(__dirname, "../../prisma/migrations");
    const seeded = fs
      .readdirSync(dir)
      .filter((d) => d.endsWith("_seed_sources"))
      .map((d) => fs.readFileSync(path.join(dir, d, "migration.sql"), "utf8"))
      .join("\n");
    const res = await t.http.get("/v1/sources").set("authorization", key);
    for (const s of res.body) expect(seeded).toContain(`('${s.id}', '${s.name.replace(/'/g, "''")}')`);
  });

  it("answers 401 problem+json without a key, or with an unknown one", async () => {
    for (const req of [t.http.get("/v1/sources"), t.http.get("/v1/sources").set("authorization", "pfk_not-a-key")]) {
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 401, code: "UNAUTHENTICATED", title: "Unauthenticated" });
    }
  });

  it("is the same list over GraphQL", async () => {
    const rest = await t.http.get("/v1/sources").set("authorization", key);
    const res = await t.gql(key, "{ sources { id name } }");
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.sources).toEqual(rest.body);
  });
});
