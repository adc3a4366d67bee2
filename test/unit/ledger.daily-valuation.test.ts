import { Decimal } from "../../src/lib/money";
import {
  dailyValuation,
  foldParcels,
  FxTable,
  HoldingPrices,
  tradeEvent,
  type ValuationInput,
} from "../../src/modules/ledger";

/**
 * The daily valuation engine (docs/rules.md §7–10) on one small portfolio whose every figure is derived
 * by hand below: an AUD holding bought from a synced AUD cash account, a USD holding bought
 * without a synced account (an external flow), a dividend receivable from its ex-date to the day
 * before it is paid, and a deposit.
 *
 *   2024-01-01  deposit 10,000 AUD into the cash account (syncTrades, syncIncome).
 *   2024-01-02  buy 100 CBA @ 100 + 10 brokerage from the account: cash −10,010 (trade date).
 *   2024-01-03  buy 10 AAPL @ 150 USD + 0 brokerage, no USD account: inflow 1,500 USD.
 *   2024-01-03  CBA dividend ex-date, paid 2024-01-05: 70 franked + 30 unfranked = net 100 AUD.
 *   Prices: CBA market 101 on 01-03, 102 on 01-05. AAPL only its trade price (150).
 *   USD/AUD: 1.5 from 01-01, 1.6 from 01-04.
 */
const trades = [
  {
    id: 1,
    holdingId: 1,
    tradeType: "Buy" as const,
    tradeDate: "2024-01-02",
    quantity: "100",
    price: "100",
    brokerage: "10",
    exchangeRate: "1",
    acquisitionDate: null,
    currencyCode: "AUD",
  },
  {
    id: 2,
    holdingId: 2,
    tradeType: "Buy" as const,
    tradeDate: "2024-01-03",
    quantity: "10",
    price: "150",
    brokerage: "0",
    exchangeRate: "1.5",
    acquisitionDate: null,
    currencyCode: "USD",
  },
];
const flowTrade = (t: (typeof trades)[number]) => ({
  holdingId: t.holdingId,
  tradeType: t.tradeType,
  date: t.tradeDate,
  quantity: t.quantity,
  price: t.price,
  brokerage: t.brokerage,
  currencyCode: t.currencyCode,
});
const priceTrades = (holdingId: number) =>
  trades
    .filter((t) => t.holdingId === holdingId)
    .map((t) => ({
      date: t.tradeDate,
      seq: t.id,
      tradeType: t.tradeType,
      price: t.price,
      currencyCode: t.currencyCode,
    }));

const input: ValuationInput = {
  from: "2024-01-01",
  to: "2024-01-06",
  baseCurrencyCode: "AUD",
  holdings: [
    {
      id: 1,
      currencyCode: "AUD",
      timeline: foldParcels([tradeEvent(trades[0])]).timeline,
      prices: new HoldingPrices({
        currencyCode: "AUD",
        custom: [],
        market: [
          { date: "2024-01-03", price: "101" },
          { date: "2024-01-05", price: "102" },
        ],
        trades: priceTrades(1),
      }),
    },
    {
      id: 2,
      currencyCode: "USD",
      timeline: foldParcels([tradeEvent(trades[1])]).timeline,
      prices: new HoldingPrices({ currencyCode: "USD", custom: [], market: [], trades: priceTrades(2) }),
    },
  ],
  trades: trades.map(flowTrade),
  income: [
    {
      holdingId: 1,
      exDividendDate: "2024-01-03",
      paidDate: "2024-01-05",
      frankedAmount: "70",
      unfrankedAmount: "30",
      foreignIncome: "0",
      withholdingTax: "0",
      foreignTaxPaid: "0",
      isReinvested: false,
      currencyCode: "AUD",
    },
  ],
  cashAccounts: [
    {
      id: 9,
      currencyCode: "AUD",
      syncTrades: true,
      syncIncome: true,
      transactions: [{ type: "Deposit", date: "2024-01-01", amount: "10000", currencyCode: "AUD" }],
    },
  ],
  fx: new FxTable([
    { base: "USD", quote: "AUD", date: "2024-01-01", rate: "1.5" },
    { base: "USD", quote: "AUD", date: "2024-01-04", rate: "1.6" },
  ]),
};

describe("the daily valuation of a small portfolio", () => {
  const v = dailyValuation(input);
  const at = (date: string) => v.days.indexOf(date);

  it("has every calendar day of the period", () => {
    expect(v.days).toEqual(["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-06"]);
  });

  it("units, price, rate and value per holding", () => {
    const cba = v.holdings[0];
    const aapl = v.holdings[1];
    expect([...cba.units]).toEqual([0, 100, 100, 100, 100, 100]);
    // Before a market price, the last trade's price (100); then 101 from 01-03, 102 from 01-05.
    expect([...cba.price]).toEqual([NaN, 100, 101, 101, 102, 102]);
    expect([...cba.value]).toEqual([0, 10_000, 10_100, 10_100, 10_200, 10_200]);
    // 10 × 150 USD × 1.5 = 2,250 AUD; from 01-04 × 1.6 = 2,400.
    expect([...aapl.value]).toEqual([0, 0, 2_250, 2_400, 2_400, 2_400]);
  });

  it("cash moves on the trade date and on the paid date; income is receivable in between", () => {
    // 10,000 deposited; −10,010 on 01-02 (100 × 100 + 10); +100 dividend on 01-05.
    expect([...v.cash[0].balance]).toEqual([10_000, -10, -10, -10, 90, 90]);
    // Receivable from the ex-date (01-03) until the day before it is paid (01-04).
    expect([...v.incomeReceivable]).toEqual([0, 0, 100, 100, 0, 0]);
  });

  it("external flows: the deposit and the unsynced USD buy; the synced buy and dividend are not flows", () => {
    // 01-01 deposit 10,000; 01-03 AAPL buy 1,500 USD × 1.5 = 2,250 AUD in.
    expect([...v.flowIn]).toEqual([10_000, 0, 2_250, 0, 0, 0]);
    expect([...v.flowOut]).toEqual([0, 0, 0, 0, 0, 0]);
    // The holding's own flows: CBA in 10,010 on 01-02 and its dividend out 100 on 01-05.
    expect([...v.holdings[0].flowIn]).toEqual([0, 10_010, 0, 0, 0, 0]);
    expect([...v.holdings[0].flowOut]).toEqual([0, 0, 0, 0, 100, 0]);
  });

  it("total value = holdings + cash + receivable, and the exact figures agree", () => {
    // 01-01: 10,000 cash. 01-02: 10,000 CBA − 10 cash. 01-03: 10,100 + 2,250 − 10 + 100 receivable.
    // 01-04: 10,100 + 2,400 − 10 + 100. 01-05: 10,200 + 2,400 + 90.
    expect([...v.total]).toEqual([10_000, 9_990, 12_440, 12_590, 12_690, 12_690]);
    const exact = v.exactOn("2024-01-04");
    expect(exact.totalInBaseCurrency.toFixed(4)).toBe("12590.0000");
    expect(exact.holdings.map((h) => h.valueInBaseCurrency?.toFixed())).toEqual(["10100", "2400"]);
    expect(exact.holdings[1].rate?.toFixed()).toBe("1.6");
    expect(exact.cash[0].balance.toFixed()).toBe("-10");
    expect(exact.incomeReceivableInBaseCurrency.toFixed()).toBe("100");
    expect(v.exactOn("2024-01-03").inflowsInBaseCurrency.toFixed()).toBe("2250");
    expect(exact.unvalued).toEqual([]);
  });

  it("a holding with units and no price is unvalued, not zero", () => {
    const none = dailyValuation({
      ...input,
      holdings: [
        {
          ...input.holdings[1],
          prices: new HoldingPrices({ currencyCode: "USD", custom: [], market: [], trades: [] }),
        },
      ],
    });
    expect(Number.isNaN(none.holdings[0].value[3])).toBe(true);
    expect(none.exactOn("2024-01-04").unvalued).toEqual([2]);
    // Only the cash (−10) and the receivable (100) count: 90.
    expect(new Decimal(none.exactOn("2024-01-04").totalInBaseCurrency).toFixed()).toBe("90");
  });
});
