import { newPortfolio, newTrade } from "../factories";
import { expectAbsent, expectError, expectOk } from "../support/outcomes";
import { Q, gqlInput, incomeApi } from "./income.transports";
import { useTestApp } from "../support/app";
import { cbaHolding, bhpHolding } from "../scenarios/holdings";

/**
 * Who may see income: tenancy and client keys, and what each transport alone answers (no key, malformed ids, Holding.income).
 * (Split from income.test.ts by story; the transports and setup functions are in ./income.transports.ts.)
 */

const t = useTestApp();
let key: string;
let portfolioId: number;
/** CBA.ASX: 100 units bought at 100 on 2024-01-10 (cost base 10,000). */
let holdingId: number;
beforeEach(async () => {
  key = await t.newAccount();
  ({ portfolioId, holdingId } = await cbaHolding(t, key));
});
const { unchanged, TRANSPORTS, seedIncome, dividend } = incomeApi(t, () => holdingId);

describe.each(TRANSPORTS)("income over $name", (tr) => {
  describe("tenancy and client keys", () => {
    it("another account's income and holdings are absent: NOT_FOUND or null, and nothing is written", async () => {
      const mine = await seedIncome(key, dividend({ unfrankedAmount: 10 }));
      const intruder = await t.newAccount();
      await newPortfolio(t, intruder);
      await unchanged(async () => {
        expectAbsent(await tr.get(intruder, mine.id));
        expectAbsent(await tr.list(intruder, holdingId));
        expectError(await tr.create(intruder, dividend({ unfrankedAmount: 5 })), "NOT_FOUND");
        expectError(await tr.update(intruder, mine.id, dividend({ unfrankedAmount: 5 })), "NOT_FOUND");
        expectError(await tr.confirm(intruder, mine.id), "NOT_FOUND");
        expectError(await tr.remove(intruder, mine.id), "NOT_FOUND");
        expectError(await tr.proRata(intruder, holdingId, 2024, { nonPrimaryProductionIncome: 1 }), "NOT_FOUND");
      });
      expect(expectOk(await tr.get(key, mine.id))).toEqual(mine);
    });

    it("a Read client key reads its portfolio's income; every write answers FORBIDDEN and writes nothing", async () => {
      const r = await seedIncome(
        key,
        dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", unfrankedAmount: 10 }),
      );
      const reader = await t.newClientKey(key, "Read", [portfolioId]);
      expect(expectOk(await tr.get(reader, r.id))).toEqual(r);
      expect(expectOk(await tr.list(reader, holdingId))).toEqual([r]);
      await unchanged(async () => {
        expectError(await tr.create(reader, dividend({ unfrankedAmount: 5 })), "FORBIDDEN");
        expectError(await tr.update(reader, r.id, dividend({ unfrankedAmount: 5 })), "FORBIDDEN");
        expectError(await tr.confirm(reader, r.id), "FORBIDDEN");
        expectError(await tr.remove(reader, r.id), "FORBIDDEN");
        expectError(await tr.proRata(reader, holdingId, 2025, { nonPrimaryProductionIncome: 1 }), "FORBIDDEN");
      });
    });

    it("a ReadWrite client key writes on its portfolio; another portfolio of the account is absent to it", async () => {
      const otherPortfolio = await newPortfolio(t, key, { name: "Not assigned" });
      const otherHolding = (
        await newTrade(t, key, {
          portfolioId: otherPortfolio,
          symbol: "CBA",
          exchange: "ASX",
          tradeType: "Buy",
          tradeDate: "2024-01-10",
          quantity: 1,
          price: 100,
        })
      ).holdingId;
      const hidden = await seedIncome(key, {
        holdingId: otherHolding,
        exDividendDate: "2024-02-14",
        paidDate: "2024-03-28",
        unfrankedAmount: 1,
      });
      const writer = await t.newClientKey(key, "ReadWrite", [portfolioId]);

      const created = expectOk(
        await tr.create(writer, dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", frankedAmount: 700 })),
        201,
      );
      expect(created).toMatchObject({ holdingId, frankingCredits: "300", isConfirmed: false });
      expect(
        expectOk(
          await tr.update(
            writer,
            created.id,
            dividend({ exDividendDate: "2024-09-30", paidDate: "2024-10-15", frankedAmount: 70 }),
          ),
        ),
      ).toMatchObject({ frankingCredits: "30" });
      expect(expectOk(await tr.confirm(writer, created.id))).toMatchObject({ isConfirmed: true });
      expect(expectOk(await tr.proRata(writer, holdingId, 2025, { nonPrimaryProductionIncome: 1 }))).toEqual([
        expect.objectContaining({ id: created.id, components: { nonPrimaryProductionIncome: "1" } }),
      ]);
      expect(expectOk(await tr.remove(writer, created.id))).toBe(true);

      await unchanged(async () => {
        expectAbsent(await tr.get(writer, hidden.id));
        expectAbsent(await tr.list(writer, otherHolding));
        expectError(
          await tr.create(writer, {
            holdingId: otherHolding,
            exDividendDate: "2024-02-14",
            paidDate: "2024-03-28",
            unfrankedAmount: 1,
          }),
          "NOT_FOUND",
        );
        expectError(await tr.confirm(writer, hidden.id), "NOT_FOUND");
        expectError(await tr.remove(writer, hidden.id), "NOT_FOUND");
      });
    });
  });
});

describe("income over GraphQL only", () => {
  it("Holding.income lists the records of every holding of a portfolio", async () => {
    const bhp = await bhpHolding(t, key, portfolioId);
    const a = await seedIncome(key, dividend({ unfrankedAmount: 1 }));
    const b = await seedIncome(key, {
      holdingId: bhp,
      exDividendDate: "2024-02-14",
      paidDate: "2024-03-28",
      frankedAmount: 7,
    });
    const res = await t.gql(
      key,
      `query($p: ID!) { portfolio(id: $p) { holdings { symbol income { id netAmount frankingCredits } } } }`,
      { p: String(portfolioId) },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolio.holdings).toEqual([
      { symbol: "BHP", income: [{ id: String(b.id), netAmount: "7", frankingCredits: "3" }] },
      { symbol: "CBA", income: [{ id: String(a.id), netAmount: "1", frankingCredits: "0" }] },
    ]);
  });

  it("a request without a key answers 401 UNAUTHENTICATED", async () => {
    const res = await t.gql(undefined, Q.create, { input: gqlInput(dividend({ unfrankedAmount: 1 })) });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("income over REST only", () => {
  it("rejects a malformed income id with VALIDATION_FAILED on incomeId", async () => {
    const res = await t.http.get("/v1/income/abc").set("authorization", key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: "incomeId", message: expect.any(String) }]);
  });

  it("answers 401 without a key", async () => {
    expect((await t.http.post("/v1/income").send(dividend({ unfrankedAmount: 1 }))).status).toBe(401);
  });
});
