import { expectError, expectOk } from "../support/outcomes";
import { expectHidden, tradeRoutes, type World } from "./trades.routes";
import { useTestApp } from "../support/app";
import { tradesApi } from "./trades.transports";

/**
 * Tenancy and permissions on every trade route, over REST and GraphQL.
 * (Split from trades.test.ts by story; the route table and its world are in ./trades.routes.ts.)
 */

// The refusals and the Read key's reads change nothing (each proves it, `unchanged`): they share
// one world, built once. A ReadWrite key's action changes its portfolio, so each builds its own
// world, under an owner of its own.
const t = useTestApp({ reset: "none" });
let key: string;
let shared: World;
beforeAll(async () => {
  key = await t.newAccount();
  shared = await world();
});
const { unchanged } = tradesApi(t, () => key);
const { GRAPHQL_ROUTES, REST_ROUTES, world } = tradeRoutes(t, () => key);

describe("tenancy and permissions", () => {
  describe.each([
    ...REST_ROUTES.map((r) => ({ transport: "REST", ...r })),
    ...GRAPHQL_ROUTES.map((r) => ({ transport: "GraphQL", ...r })),
  ])("$transport $name", (route) => {
    it("hides another account's ids (404 / null / NOT_FOUND) and changes nothing", async () => {
      const w = shared;
      await unchanged(async () => expectHidden(route, await route.call(w.other, w.writable)));
    });

    it(
      route.write
        ? "refuses a Read client key with 403 FORBIDDEN, writing nothing"
        : "lets a Read client key read its own portfolio",
      async () => {
        const w = shared;
        if (route.write) {
          await unchanged(async () => expectError(await route.call(w.readKey, w.readable), "FORBIDDEN"));
        } else {
          const o = await route.call(w.readKey, w.readable);
          expect(expectOk(o, route.ok)).not.toBeNull();
          // ...but not a portfolio of the account that is not assigned to it.
          expectHidden(route, await route.call(w.readKey, w.unassigned));
        }
      },
    );

    it("lets a ReadWrite client key act on its own portfolio, and answers 404 on one not assigned to it", async () => {
      key = await t.newAccount();
      const w = await world();
      await unchanged(async () => expectHidden(route, await route.call(w.writeKey, w.unassigned)));
      const o = await route.call(w.writeKey, w.writable);
      expect(expectOk(o, route.ok)).not.toBeNull();
    });
  });
});
