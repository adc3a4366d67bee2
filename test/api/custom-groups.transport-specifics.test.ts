import type request from "supertest";
import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { group, STRATEGY, customGroupsApi } from "./custom-groups.transports";

/**
 * What one transport alone answers: GraphQL's statement count, REST's bad bodies and ids.
 *
 * Custom groups (docs/conventions.md §2.3–2.4): every operation over REST and over GraphQL on the same
 * scenarios. Groups are account-wide: only the adviser changes them (a client key: FORBIDDEN), a
 * client key may read them, and another account's groups and holdings answer NOT_FOUND.
 */

const t = useTestApp();
let key: string;
const { newHolding, rest } = customGroupsApi(t);

beforeEach(async () => {
  key = await t.newAccount();
});

describe("GraphQL specifics", () => {
  it("customGroups { assignments } costs the same few statements for 1 group as for 10", async () => {
    const seed = async (k: string, groups: number) => {
      const p = await newPortfolio(t, k);
      const holdings = [await newHolding(k, p, "AAA"), await newHolding(k, p, "BBB"), await newHolding(k, p, "CCC")];
      for (let i = 0; i < groups; i++) {
        const g = (await rest.create(k, { name: `G${i}`, labels: ["A", "B"] })).data!;
        await rest.assign(
          k,
          g.id,
          holdings.map((h, j) => ({ holdingId: h, label: j % 2 ? "B" : "A" })),
        );
      }
    };
    const small = await t.newAccount();
    await seed(small, 1);
    await seed(key, 10);
    const statements = async (k: string) => {
      const before = t.db.statementCount;
      const res = await t.gql(k, `{ customGroups { id labels assignments { holdingId label } } }`);
      expect(res.body.errors).toBeUndefined();
      return { n: t.db.statementCount - before, groups: res.body.data.customGroups as { assignments: unknown[] }[] };
    };
    const one = await statements(small);
    const many = await statements(key);
    expect(many.groups).toHaveLength(10);
    for (const g of many.groups) expect(g.assignments).toHaveLength(3);
    // groups + one batch of assignments (the key's lookup is cached: both keys were used before)
    expect(many.n).toBe(2);
    expect(one.n).toBe(many.n);
  });
});

describe("REST specifics", () => {
  it("PUT assignments with a body that is not an array is 400", async () => {
    const g = (await rest.create(key, STRATEGY)).data!;
    const res = await t.http
      .put(`/v1/custom-groups/${g.id}/assignments`)
      .set("authorization", key)
      .send({ holdingId: 1, label: "Core" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors).toEqual([{ path: "(body)", message: expect.any(String) }]);
  });

  it("bad ids on every group path: abc → 400 naming groupId, 999999 → 404", async () => {
    const before = await ledgerSnapshot(t.db);
    const calls: [string, string, unknown?][] = [
      ["get", "/v1/custom-groups/{id}"],
      ["put", "/v1/custom-groups/{id}", { name: "X" }],
      ["delete", "/v1/custom-groups/{id}"],
      ["get", "/v1/custom-groups/{id}/assignments"],
      ["put", "/v1/custom-groups/{id}/assignments", []],
    ];
    for (const [method, path, body] of calls) {
      for (const [id, status] of [
        ["abc", 400],
        ["999999", 404],
      ] as const) {
        const req = (t.http as unknown as Record<string, (p: string) => request.Test>)
          [method](path.replace("{id}", id))
          .set("authorization", key);
        const res = await (body ? req.send(body as object) : req);
        expect({ method, path, id, status: res.status }).toEqual({ method, path, id, status });
        if (status === 400) expect(res.body.errors).toEqual([{ path: "groupId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });
});
