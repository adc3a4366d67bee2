import { newPortfolio, newTrade, postCreated } from "../factories";
import type { TestApp } from "../support/app";
import { utcDate } from "../support/kit";

/** Today (UTC) as YYYY-MM-DD: a trade on it is not settled yet. */
const TODAY = new Date().toISOString().slice(0, 10);

/**
 * The cash ledger story: an AUD broker account syncing trades (T+2) and income, with cash on the
 * same days as a settlement, trades and income that must not move it (another currency, not
 * settled, not a Buy or Sell, reinvested, not yet paid), and a deposit dated in the future. Written
 * over REST (the income straight to the database); the ledger it must show is storyLedger in
 * test/api/cash.transports.ts.
 */
export async function cashLedgerStory(t: TestApp, key: string) {
  const portfolioId = await newPortfolio(t, key, { name: "Cash book" });
  const account = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
    portfolioId,
    name: "Broker cash",
    currencyCode: "AUD",
    syncTrades: true,
    syncIncome: true,
  });
  const tx = (type: string, date: string, amount: string | number, notes: string) =>
    postCreated<{ id: number }>(t, key, "/v1/cash-transactions", {
      cashAccountId: account.id,
      type,
      date,
      amount,
      notes,
    });
  const cba = (body: Record<string, unknown>) =>
    newTrade(t, key, { portfolioId, symbol: "CBA", exchange: "ASX", brokerage: 0, ...body });
  const income = async (holdingId: number, fields: Record<string, unknown>) =>
    (
      await t.db.prisma.income.create({
        data: {
          portfolioId,
          holdingId,
          exDividendDate: new Date("2024-02-20T00:00:00Z"),
          paidDate: new Date("2024-03-05T00:00:00Z"),
          currencyCode: "AUD",
          ...fields,
        },
      })
    ).id;

  const deposit = await tx("Deposit", "2024-01-08", 20000, "Opening deposit");
  const withdrawal = await tx("Withdrawal", "2024-03-05", "500", "To savings");
  const fee = await tx("Fee", "2024-01-08", "9.95", "Account fee");
  const future = await tx("Deposit", "2199-01-01", 1000, "Scheduled");
  // Thursday + 2 business days = Monday 2024-01-08.
  const buy = await cba({ tradeType: "Buy", tradeDate: "2024-01-04", quantity: 100, price: 100, brokerage: 10 });
  // Friday + 2 business days = Tuesday 2024-03-05.
  const sell = await cba({
    tradeType: "Sell",
    tradeDate: "2024-03-01",
    quantity: 40,
    price: "110.5",
    brokerage: "9.95",
  });
  await cba({ tradeType: "Split", tradeDate: "2024-04-02", quantity: 60 });
  const usd = await cba({
    symbol: "AAPL",
    exchange: "NASDAQ",
    tradeType: "Buy",
    tradeDate: "2024-02-01",
    quantity: 10,
    price: 150,
    brokerage: 5,
    exchangeRate: "1.5",
  });
  await cba({ tradeType: "Buy", tradeDate: TODAY, quantity: 1, price: 120 });
  const dividend = await income(buy.holdingId, {
    frankedAmount: "70",
    unfrankedAmount: "30",
    foreignIncome: "5",
    withholdingTax: "2",
  });
  await income(buy.holdingId, { frankedAmount: "50", isReinvested: true, paidDate: utcDate("2024-02-01") });
  await income(buy.holdingId, { frankedAmount: "80", paidDate: utcDate("2199-12-31") });
  const usdIncome = await income(usd.holdingId, {
    unfrankedAmount: "12",
    withholdingTax: "1.8",
    currencyCode: "USD",
    paidDate: utcDate("2024-02-15"),
  });
  return { portfolioId, account, deposit, withdrawal, fee, future, buy, sell, usd, dividend, usdIncome };
}

export type CashLedgerStory = Awaited<ReturnType<typeof cashLedgerStory>>;
