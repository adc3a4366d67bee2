import { ledgerFingerprint, useTestApp } from "../support/app";
import { expectError, expectOk } from "../support/outcomes";
import { gqlSimInput, taxReportsApi } from "./tax-hostile.transports";

/**
 * Tenancy on all seven tax operations (docs/conventions.md §2.3–2.4): another account's portfolio or holding answers
 * as a missing one, over REST and GraphQL, and a client key sees only its own client's portfolios.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { gql, basic } = taxReportsApi(t, () => key);

describe("tenancy", () => {
  const SEVEN = [
    "capital-gains",
    "unrealised-capital-gains",
    "taxable-income",
    "ato-mytax",
    "ato-mytax/pdf",
    "capital-gains/pdf",
    "simulate-sell",
  ] as const;
  const call = (k: string, p: number | string, op: (typeof SEVEN)[number], holdingId: number) =>
    op === "simulate-sell"
      ? t.http
          .post(`/v1/portfolios/${p}/simulate-sell`)
          .set("authorization", k)
          .send({ holdingId, quantity: 10, price: 15, date: "2025-03-01" })
      : t.http
          .get(`/v1/portfolios/${p}/reports/${op}`)
          .query(op === "unrealised-capital-gains" ? { date: "2025-03-01" } : { financialYear: 2025 })
          .set("authorization", k);
  /** The problem with the portfolio's id written as "<id>", to compare a foreign one with a missing one. */
  const masked = (text: string, id: number) =>
    JSON.stringify({ ...JSON.parse(text), requestId: undefined })
      .split(String(id))
      .join("<id>");

  it("another account's portfolio answers 404 on all seven operations, with the body a missing id gets", async () => {
    const mine = await basic();
    const intruder = await t.newAccount("intruder");
    const theirs = await basic(intruder);
    const missing = 987654;
    const before = await ledgerFingerprint(t.db);
    for (const op of SEVEN) {
      const foreign = await call(intruder, mine.p, op, mine.holdingId);
      const absent = await call(intruder, missing, op, theirs.holdingId);
      expect({ op, status: foreign.status, type: foreign.headers["content-type"] }).toEqual({
        op,
        status: 404,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
      expect({ op, body: masked(foreign.text, mine.p) }).toEqual({ op, body: masked(absent.text, missing) });
    }
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });

  it("GraphQL: another account's portfolio is NOT_FOUND on all five fields", async () => {
    const mine = await basic();
    const intruder = await t.newAccount("intruder");
    expectError(await gql.capitalGains(intruder, mine.p, 2025), "NOT_FOUND");
    expectError(await gql.unrealised(intruder, mine.p, "2025-03-01"), "NOT_FOUND");
    expectError(await gql.income(intruder, mine.p, 2025), "NOT_FOUND");
    expectError(await gql.myTax(intruder, mine.p, 2025), "NOT_FOUND");
    expectError(
      await gql.simulate(
        intruder,
        mine.p,
        gqlSimInput({ holdingId: mine.holdingId, quantity: "1", price: "1", date: "2025-03-01" }),
      ),
      "NOT_FOUND",
    );
  });

  it("simulate sell in my portfolio naming another account's holding: 404, the same body as a missing holding", async () => {
    const mine = await basic();
    const stranger = await t.newAccount("stranger");
    const theirs = await basic(stranger);
    const missing = 987654;
    const foreign = await t.http
      .post(`/v1/portfolios/${mine.p}/simulate-sell`)
      .set("authorization", key)
      .send({ holdingId: theirs.holdingId, quantity: 1, price: 1, date: "2025-03-01" });
    const absent = await t.http
      .post(`/v1/portfolios/${mine.p}/simulate-sell`)
      .set("authorization", key)
      .send({ holdingId: missing, quantity: 1, price: 1, date: "2025-03-01" });
    expect(foreign.status).toBe(404);
    expect(masked(foreign.text, theirs.holdingId)).toBe(masked(absent.text, missing));
    // A holding of my other portfolio is not this portfolio's either.
    const other = await basic();
    expect(
      (
        await t.http
          .post(`/v1/portfolios/${mine.p}/simulate-sell`)
          .set("authorization", key)
          .send({ holdingId: other.holdingId, quantity: 1, price: 1, date: "2025-03-01" })
      ).status,
    ).toBe(404);
  });

  it("a client key for another client's portfolio: 404 on all seven; a Read client key: all seven allowed, nothing written", async () => {
    const a = await basic();
    const b = await basic();
    const keyA = await t.newClientKey(key, "Read", [a.p]);
    for (const op of SEVEN) {
      const res = await call(keyA, b.p, op, b.holdingId);
      expect({ op, status: res.status }).toEqual({ op, status: 404 });
    }
    const before = await ledgerFingerprint(t.db);
    for (const op of SEVEN) {
      const res = await call(keyA, a.p, op, a.holdingId);
      expect({ op, status: res.status, text: res.status === 200 ? "" : res.text }).toEqual({
        op,
        status: 200,
        text: "",
      });
    }
    expect(
      expectOk(
        await gql.simulate(
          keyA,
          a.p,
          gqlSimInput({ holdingId: a.holdingId, quantity: "10", price: "15", date: "2025-03-01" }),
        ),
      ),
    ).toMatchObject({ quantity: "10" });
    expect(await ledgerFingerprint(t.db)).toBe(before);
  });
});
