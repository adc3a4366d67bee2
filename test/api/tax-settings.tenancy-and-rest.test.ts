import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectAbsent, expectError, expectInvalid } from "../support/outcomes";
import { defaults, taxSettingsApi } from "./tax-settings.transports";

/**
 * Who may read and change the settings (another account, Read and ReadWrite client keys), and what
 * REST alone answers (bad portfolio ids, a body copied from GET).
 *
 * Tax settings (docs/reports.md §5, docs/rules.md §3): over REST and over GraphQL on the same scenarios. They
 * follow the portfolio's scope (another account's portfolio: NOT_FOUND; a client key reads them,
 * and changes them with ReadWrite only), lists are replaced as a whole, and a change of parcel
 * methods that would break a recorded manual parcel pick is refused with nothing written.
 */

const t = useTestApp();
let key: string;
const { rest, graphql } = taxSettingsApi(t);

beforeEach(async () => {
  key = await t.newAccount();
});

describe.each([rest, graphql])("tax settings over $name", (tr) => {
  describe("tenant isolation and client keys", () => {
    it("hides another account's portfolio exactly like a missing one, changing nothing", async () => {
      const other = await t.newAccount();
      const mine = await newPortfolio(t, key);
      const before = await ledgerSnapshot(t.db);
      expect((await tr.list(other)).data).toEqual([]);
      expectAbsent(await tr.get(other, mine));
      expectAbsent(await tr.get(key, 999999));
      expectError(await tr.update(other, mine, { defaultMethod: "LIFO" }), "NOT_FOUND", 404);
      expectError(await tr.update(key, 999999, { defaultMethod: "LIFO" }), "NOT_FOUND", 404);
      expectInvalid(await tr.update(key, "abc", { defaultMethod: "LIFO" }), "portfolioId");
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a client key with Read reads its portfolios' settings only, and may change none (FORBIDDEN)", async () => {
      const hers = await newPortfolio(t, key, { name: "Hers" });
      const notHers = await newPortfolio(t, key, { name: "Not hers" });
      const login = await t.newClientKey(key, "Read", [hers]);
      const before = await ledgerSnapshot(t.db);
      expect((await tr.list(login)).data).toEqual([defaults(hers)]);
      expect((await tr.get(login, hers)).data).toEqual(defaults(hers));
      expectAbsent(await tr.get(login, notHers));
      expectError(await tr.update(login, hers, { defaultMethod: "LIFO" }), "FORBIDDEN", 403);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });

    it("a client key with ReadWrite changes its portfolios' settings, and another portfolio's answers NOT_FOUND", async () => {
      const hers = await newPortfolio(t, key, { name: "Hers" });
      const notHers = await newPortfolio(t, key, { name: "Not hers" });
      const login = await t.newClientKey(key, "ReadWrite", [hers]);
      const o = await tr.update(login, hers, { defaultMethod: "LIFO" });
      expect(o.code).toBeUndefined();
      expect(o.data).toEqual({ ...defaults(hers), defaultMethod: "LIFO" });
      const before = await ledgerSnapshot(t.db);
      expectError(await tr.update(login, notHers, { defaultMethod: "LIFO" }), "NOT_FOUND", 404);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    });
  });
});

describe("REST specifics", () => {
  it("bad portfolio ids: abc → 400 naming portfolioId, 999999 → 404, on GET and PUT", async () => {
    const before = await ledgerSnapshot(t.db);
    for (const [id, status] of [
      ["abc", 400],
      ["999999", 404],
    ] as const) {
      for (const res of [
        await t.http.get(`/v1/portfolios/${id}/tax-settings`).set("authorization", key),
        await t.http.put(`/v1/portfolios/${id}/tax-settings`).set("authorization", key).send({ defaultMethod: "LIFO" }),
      ]) {
        expect(res.status).toBe(status);
        if (status === 400) expect(res.body.errors).toEqual([{ path: "portfolioId", message: expect.any(String) }]);
      }
    }
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("PUT ignores the read-only portfolioId of a body copied from GET", async () => {
    const p = await newPortfolio(t, key);
    const got = (await t.http.get(`/v1/portfolios/${p}/tax-settings`).set("authorization", key)).body;
    const res = await t.http
      .put(`/v1/portfolios/${p}/tax-settings`)
      .set("authorization", key)
      .send({ ...got, defaultMethod: "LIFO" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...got, defaultMethod: "LIFO" });
  });
});
