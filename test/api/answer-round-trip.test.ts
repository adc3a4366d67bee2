import { useTestApp } from "../support/app";
import { seedWriteFixture, type FixtureIds } from "../scenarios/write-fixture";

/**
 * Strict inputs refuse unknown fields (docs/conventions.md §7.1), but the fields of a resource's own answer are
 * not unknown: a client that GETs a resource, edits one field and sends the whole answer back
 * must be understood. The read-only fields (`id`, `dateCreated`, `balance`, `value`…) are accepted
 * and ignored; a typo beside them is still refused by name, and nothing is written.
 */

const t = useTestApp();
let key: string;
let ids: FixtureIds;

beforeEach(async () => {
  key = await t.newAccount();
  ids = await seedWriteFixture(t, key);
});

/** [resource, its GET path, how its update is sent, the field edited and its new value] */
const CASES: [string, (i: FixtureIds) => string, "put" | "post-model", string, unknown][] = [
  ["portfolio", (i) => `/v1/portfolios/${i.portfolioId}`, "put", "name", "Renamed"],
  ["holding", (i) => `/v1/holdings/${i.holdingId}`, "put", "notes", "Long term"],
  ["trade", (i) => `/v1/trades/${i.tradeId}`, "put", "notes", "Edited"],
  ["income", (i) => `/v1/income/${i.incomeId}`, "put", "notes", "Interim"],
  ["cash account", (i) => `/v1/cash-accounts/${i.cashAccountId}`, "put", "name", "Everyday"],
  ["cash transaction", (i) => `/v1/cash-transactions/${i.cashTransactionId}`, "put", "notes", "Opening deposit"],
  ["custom price", (i) => `/v1/prices/${i.priceId}`, "put", "price", 260000],
  ["client", (i) => `/v1/clients/${i.clientId}`, "put", "lastName", "Citizen-Smith"],
  ["custom group", (i) => `/v1/custom-groups/${i.groupId}`, "put", "name", "Sleeves"],
  ["allocation model", (i) => `/v1/allocation-models/${i.publicId}`, "post-model", "name", "Growth 2"],
];

function send(how: "put" | "post-model", path: string, body: Record<string, unknown>) {
  const req = how === "put" ? t.http.put(path) : t.http.post(`/v1/portfolios/${ids.portfolioId}/allocation-models`);
  return req.set("authorization", key).send(body);
}

describe.each(CASES)("%s: GET, edit, send back", (_name, pathOf, how, field, value) => {
  it("is understood: the edit lands, the read-only fields are ignored", async () => {
    const path = pathOf(ids);
    const answer = (await t.http.get(path).set("authorization", key).expect(200)).body as Record<string, unknown>;
    const res = await send(how, path, { ...answer, [field]: value });
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 200, errors: undefined });
    const after = (await t.http.get(path).set("authorization", key).expect(200)).body;
    expect(after[field]).toEqual(value);
    // Nothing else moved: the answer is the old one with the one edit.
    expect({ ...after, [field]: answer[field] }).toEqual(answer);
  });

  it("still refuses a field that is in neither the body nor the answer, by name, writing nothing", async () => {
    const path = pathOf(ids);
    const answer = (await t.http.get(path).set("authorization", key).expect(200)).body as Record<string, unknown>;
    const res = await send(how, path, { ...answer, [field]: value, brokrage: 1 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: "brokrage", message: expect.stringContaining("not a known field") }]);
    expect((await t.http.get(path).set("authorization", key).expect(200)).body).toEqual(answer);
  });
});
