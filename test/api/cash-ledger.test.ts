import { settlementDate } from "../../src/modules/ledger/cash-effects";
import { expectInvalid, expectOk } from "../support/outcomes";
import { TODAY, storyLedger, cashApi } from "./cash.transports";
import { useTestApp } from "../support/app";
import { cashLedgerStory } from "../scenarios/cash-ledger-story";

/**
 * The cash ledger: settlement dates, the running balance over cash transactions and synced trades and income, and Portfolio.cashAccounts over GraphQL.
 * (Split from cash.test.ts by story; the transports and setup functions are in ./cash.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { newPortfolio, newTrade, rest, graphql, newAccount, newTx, newIncome } = cashApi(t);

describe("settlementDate", () => {
  it.each([
    ["2024-01-04", 2, "2024-01-08"], // Thursday → Monday
    ["2024-03-01", 1, "2024-03-04"], // Friday → Monday
    ["2024-03-01", 0, "2024-03-01"],
    ["2024-03-02", 0, "2024-03-02"], // a Saturday trade with T+0 settles that day
    ["2024-03-02", 1, "2024-03-04"], // Saturday → Monday
    ["2024-03-01", 5, "2024-03-08"],
    ["2024-03-01", 10, "2024-03-15"],
  ])("%s + %i business days = %s", (date, days, expected) => {
    expect(settlementDate(date, days)).toBe(expected);
  });
});

describe.each([rest, graphql])("cash accounts over $name", (tr) => {
  describe("ledger", () => {
    it("runs a balance over cash, settled trades and paid income in the account's currency, oldest first", async () => {
      const s = await cashLedgerStory(t, key);
      const o = await tr.ledger(key, s.account.id);
      expect(expectOk(o)).toEqual(storyLedger(s));
      if (tr.name === "REST") {
        // Money is written as JSON numbers, exactly.
        expect(o.res!.text).toContain('"amount":4410.05,');
        expect(o.res!.text).toContain('"balance":13890.1}');
      }
      // The account's balance is as of today: the future deposit is not in it yet.
      expect(expectOk(await tr.getAccount(key, s.account.id))!.balance).toBe("13993.1");
      expect(expectOk(await tr.listAccounts(key, s.portfolioId))![0].balance).toBe("13993.1");
    });

    it("pages and filters by date with the true running balance", async () => {
      const s = await cashLedgerStory(t, key);
      const all = storyLedger(s);
      expect(expectOk(await tr.ledger(key, s.account.id, { limit: 2, offset: 2 }))).toEqual(all.slice(2, 4));
      expect(expectOk(await tr.ledger(key, s.account.id, { offset: 6 }))).toEqual(all.slice(6));
      expect(expectOk(await tr.ledger(key, s.account.id, { offset: 7 }))).toEqual([]);
      expect(expectOk(await tr.ledger(key, s.account.id, { from: "2024-03-01" }))).toEqual(all.slice(3));
      expect(expectOk(await tr.ledger(key, s.account.id, { to: "2024-01-31" }))).toEqual(all.slice(0, 3));
      expect(
        expectOk(await tr.ledger(key, s.account.id, { from: "2024-03-05", to: "2024-03-05", limit: 1, offset: 1 })),
      ).toEqual(all.slice(4, 5));
    });

    it("leaves trades or income out when their sync is off, and counts only the account's currency", async () => {
      const s = await cashLedgerStory(t, key);
      expectOk(await tr.updateAccount(key, s.account.id, { syncTrades: false }));
      expect(expectOk(await tr.ledger(key, s.account.id)).map((m) => m.source)).toEqual([
        "Cash",
        "Cash",
        "Cash",
        "Income",
        "Cash",
      ]);
      expect(expectOk(await tr.getAccount(key, s.account.id))!.balance).toBe("19593.05");
      const none = expectOk(await tr.updateAccount(key, s.account.id, { syncIncome: false }));
      expect(none.balance).toBe("19490.05");

      const usd = expectOk(
        await tr.createAccount(key, {
          portfolioId: s.portfolioId,
          name: "USD",
          currencyCode: "USD",
          syncTrades: true,
          syncIncome: true,
        }),
      );
      expect(usd.balance).toBe("-1494.8");
      expect(expectOk(await tr.ledger(key, usd.id))).toEqual([
        {
          id: null,
          source: "Trade",
          sourceId: s.usd.id,
          type: "Buy",
          date: "2024-02-05",
          amount: "-1505",
          description: "Buy 10 AAPL.NASDAQ @ 150",
          balance: "-1505",
        },
        {
          id: null,
          source: "Income",
          sourceId: s.usdIncome,
          type: "Income",
          date: "2024-02-15",
          amount: "10.2",
          description: "Dividend AAPL.NASDAQ",
          balance: "-1494.8",
        },
      ]);
    });

    it("settles trades after the account's settlement days, skipping weekends", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId, { syncTrades: true, settlementDays: 0 });
      await newTrade(key, portfolioId, {
        tradeType: "Buy",
        tradeDate: "2024-03-01",
        quantity: 3,
        price: "33.3333",
        brokerage: "0.0001",
      });
      const dates = async () => expectOk(await tr.ledger(key, a.id)).map((m) => [m.date, m.amount]);
      // 3 × 33.3333 = 99.9999, plus brokerage.
      expect(await dates()).toEqual([["2024-03-01", "-100"]]);
      expectOk(await tr.updateAccount(key, a.id, { settlementDays: 1 }));
      expect(await dates()).toEqual([["2024-03-04", "-100"]]);
      expectOk(await tr.updateAccount(key, a.id, { settlementDays: 10 }));
      expect(await dates()).toEqual([["2024-03-15", "-100"]]);
    });

    it("only counts a trade once it has settled on or before today", async () => {
      const portfolioId = await newPortfolio(key);
      const a = await newAccount(key, portfolioId, { syncTrades: true, settlementDays: 0 });
      await newTrade(key, portfolioId, { tradeType: "Buy", tradeDate: TODAY, quantity: 1, price: 10 });
      expect(expectOk(await tr.getAccount(key, a.id))!.balance).toBe("-10");
      const later = expectOk(await tr.updateAccount(key, a.id, { settlementDays: 1 }));
      expect(later.balance).toBe("0");
      expect(expectOk(await tr.ledger(key, a.id))).toEqual([]);
    });

    it.each([
      ["limit 0", { limit: 0 }, "limit"],
      ["limit 5001", { limit: 5001 }, "limit"],
      ["offset -1", { offset: -1 }, "offset"],
      ["from 2024-13-01", { from: "2024-13-01" }, "from"],
      ["to before from", { from: "2024-02-01", to: "2024-01-01" }, "to"],
    ])("rejects %s", async (_label, query, path) => {
      const a = await newAccount(key, await newPortfolio(key));
      expectInvalid(await tr.ledger(key, a.id, query), path);
    });

    it("takes up to 5000 rows a page", async () => {
      const a = await newAccount(key, await newPortfolio(key));
      expect(expectOk(await tr.ledger(key, a.id, { limit: 5000 }))).toEqual([]);
    });
  });
});

describe("Portfolio.cashAccounts (GraphQL)", () => {
  it("answers each portfolio's accounts with balances and ledgers", async () => {
    const s = await cashLedgerStory(t, key);
    const empty = await newPortfolio(key, { name: "Empty" });
    const res = await t.gql(
      key,
      `{ portfolios { id cashAccounts { id name balance transactions(limit: 2) { type amount balance } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.portfolios).toEqual([
      {
        id: String(s.portfolioId),
        cashAccounts: [
          {
            id: String(s.account.id),
            name: "Broker cash",
            balance: "13993.1",
            transactions: [
              { type: "Deposit", amount: "20000", balance: "20000" },
              { type: "Fee", amount: "-9.95", balance: "19990.05" },
            ],
          },
        ],
      },
      { id: String(empty), cashAccounts: [] },
    ]);
  });

  it("costs the same number of statements for 1 portfolio as for 10", async () => {
    const seed = async (k: string, portfolios: number) => {
      for (let p = 0; p < portfolios; p++) {
        const portfolioId = await newPortfolio(k, { name: `P${p}` });
        const a = await newAccount(k, portfolioId, { syncTrades: true, syncIncome: true });
        await newAccount(k, portfolioId, { name: "Second", currencyCode: "USD", syncTrades: true });
        await newTx(k, a.id, "Deposit", "2024-01-02", 1000);
        const buy = await newTrade(k, portfolioId, {
          tradeType: "Buy",
          tradeDate: "2024-01-02",
          quantity: 1,
          price: 100,
        });
        await newIncome(portfolioId, buy.holdingId, { frankedAmount: "7" });
      }
    };
    const small = await t.newAccount("small");
    const large = await t.newAccount("large");
    await seed(small, 1);
    await seed(large, 10);
    const statements = async (k: string) => {
      const before = t.db.statementCount;
      const res = await t.gql(k, "{ portfolios { id cashAccounts { id balance } } }");
      expect(res.body.errors).toBeUndefined();
      return { count: t.db.statementCount - before, portfolios: res.body.data.portfolios };
    };
    const one = await statements(small);
    const many = await statements(large);
    expect(many.portfolios).toHaveLength(10);
    for (const p of many.portfolios)
      expect(p.cashAccounts.map((a: { balance: string }) => a.balance)).toEqual(["907", "0"]);
    expect(one.count).toBe(many.count);
  });
});
