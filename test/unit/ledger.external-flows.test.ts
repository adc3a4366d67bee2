import { allFlows, holdingFlows, portfolioFlows, type FlowIncome, type FlowTrade } from "../../src/modules/ledger";

/**
 * External flows (docs/rules.md §10), every trade type, with and without a synced cash account.
 * Amounts by hand: Buy 100 × 2.5 + 9.95 = 259.95 in; Sell 40 × 110.5 − 9.95 = 4,410.05 out;
 * OpeningBalance 1,000 × 10 = 10,000 in; TransferIn 100 × 11 = 1,100 in; TransferOut 50 × 12 =
 * 600 out; ReturnOfCapital 333 × 0.01234567 = 4.11110811 → 4.1111 out (4 dp, half-up); income
 * 70 franked + 30 unfranked − 5 withheld = 95 out on its paid date; reinvested income: none.
 */
const trade = (tradeType: string, quantity: string, price: string, brokerage = "0"): FlowTrade => ({
  holdingId: 1,
  tradeType,
  date: "2024-01-02",
  quantity,
  price,
  brokerage,
  currencyCode: "AUD",
});
const trades: FlowTrade[] = [
  trade("Buy", "100", "2.5", "9.95"),
  trade("Sell", "-40", "110.5", "9.95"),
  trade("OpeningBalance", "1000", "10"),
  trade("TransferIn", "100", "11"),
  trade("TransferOut", "50", "12"),
  trade("ReturnOfCapital", "333", "0.01234567"),
  trade("Split", "100", "0"),
  trade("Consolidation", "10", "0"),
  trade("Bonus", "10", "0"),
  trade("CostBaseIncrease", "100", "0.2"),
  trade("CostBaseDecrease", "100", "0.1"),
  trade("Cancellation", "10", "0"),
];
const income = (isReinvested: boolean): FlowIncome => ({
  holdingId: 1,
  paidDate: "2024-03-01",
  frankedAmount: "70",
  unfrankedAmount: "30",
  foreignIncome: "0",
  withholdingTax: "5",
  foreignTaxPaid: "0",
  isReinvested,
  currencyCode: "AUD",
});
const shown = (flows: { direction: string; amount: { toFixed(): string }; date: string }[]) =>
  flows.map((f) => `${f.date} ${f.direction} ${f.amount.toFixed()}`);

describe("external flows", () => {
  const none = new Set<string>();
  const aud = new Set(["AUD"]);

  it("no synced cash account: every trade that moves money or units across, and income paid", () => {
    const flows = portfolioFlows({
      trades,
      income: [income(false), income(true)],
      cashTransactions: [],
      tradeSyncedCurrencies: none,
      incomeSyncedCurrencies: none,
    });
    expect(shown(flows)).toEqual([
      "2024-01-02 in 259.95",
      "2024-01-02 out 4410.05",
      "2024-01-02 in 10000",
      "2024-01-02 in 1100",
      "2024-01-02 out 600",
      "2024-01-02 out 4.1111",
      "2024-03-01 out 95",
    ]);
  });

  it("a synced account: money settles inside, only units crossing the boundary and deposits are flows", () => {
    const flows = portfolioFlows({
      trades,
      income: [income(false)],
      cashTransactions: [
        { type: "Deposit", date: "2024-01-01", amount: "5000", currencyCode: "AUD" },
        { type: "Withdrawal", date: "2024-02-01", amount: "100", currencyCode: "AUD" },
        { type: "InterestPayment", date: "2024-02-01", amount: "3", currencyCode: "AUD" },
        { type: "Fee", date: "2024-02-01", amount: "1", currencyCode: "AUD" },
      ],
      tradeSyncedCurrencies: aud,
      incomeSyncedCurrencies: aud,
    });
    expect(shown(flows)).toEqual([
      "2024-01-01 in 5000",
      "2024-02-01 out 100",
      "2024-01-02 in 10000",
      "2024-01-02 in 1100",
      "2024-01-02 out 600",
    ]);
  });

  it("a synced account in another currency settles nothing of these AUD trades", () => {
    const usd = new Set(["USD"]);
    expect(
      portfolioFlows({
        trades,
        income: [],
        cashTransactions: [],
        tradeSyncedCurrencies: usd,
        incomeSyncedCurrencies: usd,
      }),
    ).toHaveLength(6);
  });

  it("a holding's flows ignore the cash accounts; DRP income is no flow", () => {
    expect(shown(holdingFlows(1, trades, [income(false), income(true)]))).toEqual([
      "2024-01-02 in 259.95",
      "2024-01-02 out 4410.05",
      "2024-01-02 in 10000",
      "2024-01-02 in 1100",
      "2024-01-02 out 600",
      "2024-01-02 out 4.1111",
      "2024-03-01 out 95",
    ]);
    expect(holdingFlows(2, trades, [income(false)])).toEqual([]);
    const both = allFlows({
      trades,
      income: [],
      cashTransactions: [],
      tradeSyncedCurrencies: aud,
      incomeSyncedCurrencies: aud,
    });
    expect([both.portfolio.length, both.byHolding.get(1)?.length]).toEqual([3, 6]);
  });
});
