import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectOk } from "../support/outcomes";
import { type Line, type Params, type Transport, portfolioTransactionsApi } from "./portfolio-transactions.transports";

/**
 * The ledger itself: every line with its sign and description, newest first, filtered and paged.
 *
 * A portfolio's transactions (docs/conventions.md §6: GET /v1/portfolios/{p}/transactions; GraphQL
 * Portfolio.transactions): one ledger of trades, income and cash transactions, newest first, the
 * same day ordered as transactions.service.ts documents it (income, then trades, then cash; within
 * each, the newest entry first), with `from`, `to`, `type`, `limit` and `offset`. Both transports
 * run the same scenarios through the `Transport` adapters of ./portfolio-transactions.transports.ts.
 *
 * Cash accounts and cash transactions are written straight to the database (the cash API is not
 * what is under test here); trades and income go through REST.
 */

// The tests only read the ledger (the empty portfolio is one more portfolio, not in it): it is
// written once, for both transports.
const t = useTestApp({ reset: "none" });
let key: string;
let seeded: { portfolioId: number; ledger: Line[] };
const { rest, graphql, seedLedger } = portfolioTransactionsApi(t);

beforeAll(async () => {
  key = await t.newAccount();
  seeded = await seedLedger(key);
});

const between = (from?: string, to?: string) => (l: Line) => (!from || l.date >= from) && (!to || l.date <= to);

// =============================================================================================

describe.each([rest, graphql])("portfolio transactions over $name", (tr) => {
  it("lists trades, income and cash transactions of the portfolio in one ledger, newest first, with the documented signs", async () => {
    const { portfolioId, ledger } = seeded;
    expect(expectOk(await tr.list(key, portfolioId))).toEqual(ledger);
  });

  it("an empty portfolio has an empty ledger", async () => {
    const p = await newPortfolio(t, key, { name: `Empty, over ${tr.name}` });
    expect(expectOk(await tr.list(key, p))).toEqual([]);
  });

  it("describes each line readably", async () => {
    const { portfolioId } = seeded;
    const lines = expectOk(await tr.list(key, portfolioId))!;
    expect(lines.find((l) => l.kind === "Cash" && l.type === "Deposit")!.description).toContain("Everyday");
    expect(lines.find((l) => l.kind === "Income" && l.type === "Reinvested")!.description).toContain("BHP.ASX");
    for (const l of lines) expect(l.description.length).toBeGreaterThan(0);
  });

  describe("filters", () => {
    const CASES: [string, Params, (l: Line) => boolean][] = [
      ["from and to (both inclusive)", { from: "2024-03-01", to: "2024-04-01" }, between("2024-03-01", "2024-04-01")],
      ["from alone", { from: "2024-04-15" }, between("2024-04-15")],
      ["to alone", { to: "2024-01-10" }, between(undefined, "2024-01-10")],
      ["a single day", { from: "2024-03-01", to: "2024-03-01" }, between("2024-03-01", "2024-03-01")],
      ["type=Trade: every trade", { type: "Trade" }, (l) => l.kind === "Trade"],
      ["type=Income: paid and reinvested income", { type: "Income" }, (l) => l.kind === "Income"],
      ["type=Cash: every cash transaction", { type: "Cash" }, (l) => l.kind === "Cash"],
      ["type=Buy", { type: "Buy" }, (l) => l.kind === "Trade" && l.type === "Buy"],
      ["type=Sell", { type: "Sell" }, (l) => l.kind === "Trade" && l.type === "Sell"],
      ["type=Split", { type: "Split" }, (l) => l.kind === "Trade" && l.type === "Split"],
      ["type=Deposit", { type: "Deposit" }, (l) => l.kind === "Cash" && l.type === "Deposit"],
      ["type=Fee", { type: "Fee" }, (l) => l.kind === "Cash" && l.type === "Fee"],
      ["type=Withdrawal", { type: "Withdrawal" }, (l) => l.kind === "Cash" && l.type === "Withdrawal"],
      [
        "type=Buy with from and to",
        { type: "Buy", from: "2024-02-01", to: "2024-03-01" },
        (l) => l.type === "Buy" && between("2024-02-01", "2024-03-01")(l),
      ],
      ["type=Cash with from", { type: "Cash", from: "2024-03-01" }, (l) => l.kind === "Cash" && l.date >= "2024-03-01"],
      ["a type with nothing in it (TransferIn)", { type: "TransferIn" }, () => false],
      ["a period with nothing in it", { from: "2023-01-01", to: "2023-12-31" }, () => false],
    ];

    it.each(CASES)("%s", async (_label, params, keep) => {
      const { portfolioId, ledger } = seeded;
      const expected = ledger.filter(keep);
      expect(expectOk(await tr.list(key, portfolioId, params))).toEqual(expected);
    });
  });

  describe("paging", () => {
    it("pages of every size, read in turn, give back the unpaged list exactly", async () => {
      const { portfolioId, ledger } = seeded;
      for (const limit of [1, 2, 3, 4, 5, 13, 14]) {
        const pages: Line[] = [];
        for (let offset = 0; offset <= ledger.length; offset += limit) {
          const page = expectOk(await tr.list(key, portfolioId, { limit, offset }))!;
          expect(page.length).toBe(Math.min(limit, Math.max(0, ledger.length - offset)));
          pages.push(...page);
        }
        expect(pages).toEqual(ledger);
      }
    });

    it("pages a filtered list consistently with the filtered unpaged list", async () => {
      const { portfolioId, ledger } = seeded;
      const trades = ledger.filter((l) => l.kind === "Trade");
      expect(expectOk(await tr.list(key, portfolioId, { type: "Trade", limit: 2, offset: 1 }))).toEqual(
        trades.slice(1, 3),
      );
      const march = ledger.filter(between("2024-03-01", "2024-05-01"));
      expect(expectOk(await tr.list(key, portfolioId, { from: "2024-03-01", limit: 3, offset: 4 }))).toEqual(
        march.slice(4, 7),
      );
      const cashLines = ledger.filter((l) => l.kind === "Cash");
      expect(expectOk(await tr.list(key, portfolioId, { type: "Cash", limit: 2, offset: 2 }))).toEqual(
        cashLines.slice(2, 4),
      );
    });

    it("an offset past the end gives an empty page; limit 5000 is accepted", async () => {
      const { portfolioId, ledger } = seeded;
      expect(expectOk(await tr.list(key, portfolioId, { offset: ledger.length }))).toEqual([]);
      expect(expectOk(await tr.list(key, portfolioId, { offset: 1000 }))).toEqual([]);
      expect(expectOk(await tr.list(key, portfolioId, { limit: 5000 }))).toEqual(ledger);
    });
  });
});
