import {
  dailyValuation,
  foldParcels,
  FxTable,
  HoldingPrices,
  tradeEvent,
  type TradeRow,
  type ValuationInput,
} from "../../src/modules/ledger";

/**
 * The engine's Float64 inner loop against its exact Decimal figures (docs/rules.md §7–10: one series,
 * exact money): ten years of daily prices and USD rates, 20 holdings (half in USD), 4,000 trades
 * with buys, sells and a split, a synced AUD cash account with deposits and fees, and quarterly
 * dividends. Every day's total, per-holding value, cash balance, receivable and flows agree to
 * the cent.
 */
const FROM = "2015-01-01";
const TO = "2024-12-31";
const HOLDINGS = 20;
const TRADES_PER_HOLDING = 200;

/** A deterministic pseudo-random sequence (mulberry32), so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function scenario(): ValuationInput {
  const rnd = random(42);
  const days: string[] = [];
  for (let d = new Date(FROM + "T00:00:00Z"); d.toISOString().slice(0, 10) <= TO; d.setUTCDate(d.getUTCDate() + 1))
    days.push(d.toISOString().slice(0, 10));
  const fxRows = days
    .filter((_, i) => i % 7 < 5)
    .map((date, i) => ({
      base: "USD",
      quote: "AUD",
      date,
      rate: (1.3 + 0.2 * Math.sin(i / 90) + rnd() * 0.01).toFixed(6),
    }));
  const trades: (TradeRow & { currencyCode: string })[] = [];
  let id = 0;
  const holdings = [];
  for (let h = 1; h <= HOLDINGS; h++) {
    const currencyCode = h % 2 ? "AUD" : "USD";
    const rows: (TradeRow & { currencyCode: string })[] = [];
    let held = 0;
    for (let j = 0; j < TRADES_PER_HOLDING; j++) {
      const date = days[Math.floor((j * (days.length - 1)) / TRADES_PER_HOLDING) + (h % 5)];
      const price = (5 + rnd() * 50).toFixed(4);
      const sell = held > 100 && rnd() < 0.35;
      const quantity = sell ? String(Math.floor(held / 3)) : (10 + Math.floor(rnd() * 200)).toFixed(0);
      const tradeType = j === 100 ? "Split" : sell ? "Sell" : "Buy";
      const row = {
        id: ++id,
        holdingId: h,
        tradeType,
        tradeDate: date,
        quantity: tradeType === "Split" ? String(held) : quantity,
        price,
        brokerage: "9.95",
        exchangeRate: currencyCode === "AUD" ? "1" : "1.4",
        acquisitionDate: null,
        currencyCode,
      } as const;
      held = tradeType === "Split" ? held * 2 : sell ? held - Number(quantity) : held + Number(quantity);
      rows.push(row);
    }
    trades.push(...rows);
    const market = days
      .filter((_, i) => i % 7 < 5 && i > 30)
      .map((date, i) => ({ date, price: (20 + 10 * Math.sin((i + h) / 50) + rnd()).toFixed(4) }));
    holdings.push({
      id: h,
      currencyCode,
      timeline: foldParcels(rows.map((r) => tradeEvent(r))).timeline,
      prices: new HoldingPrices({
        currencyCode,
        custom: [],
        market,
        trades: rows.map((r) => ({
          date: r.tradeDate,
          seq: r.id,
          tradeType: r.tradeType,
          price: r.price,
          currencyCode,
        })),
      }),
    });
  }
  const income = [];
  for (let h = 1; h <= HOLDINGS; h++) {
    for (let q = 60; q < days.length - 40; q += 91) {
      income.push({
        holdingId: h,
        exDividendDate: days[q],
        paidDate: days[q + 30],
        frankedAmount: (rnd() * 300).toFixed(2),
        unfrankedAmount: (rnd() * 100).toFixed(2),
        foreignIncome: "0",
        withholdingTax: "0",
        foreignTaxPaid: "0",
        isReinvested: false,
        currencyCode: h % 2 ? "AUD" : "USD",
      });
    }
  }
  const cash = days
    .filter((_, i) => i % 30 === 0)
    .map((date, i) => ({
      type: i % 4 === 3 ? "Fee" : "Deposit",
      date,
      amount: (i % 4 === 3 ? 12.5 : 5000 + i).toFixed(2),
      currencyCode: "AUD",
    }));
  return {
    from: FROM,
    to: TO,
    baseCurrencyCode: "AUD",
    holdings,
    trades: trades.map((t) => ({
      holdingId: t.holdingId,
      tradeType: t.tradeType,
      date: t.tradeDate,
      quantity: t.quantity,
      price: t.price,
      brokerage: t.brokerage,
      currencyCode: t.currencyCode,
    })),
    income,
    cashAccounts: [{ id: 1, currencyCode: "AUD", syncTrades: true, syncIncome: true, transactions: cash }],
    fx: new FxTable(fxRows, {
      base: "AUD",
      rates: trades.map((t) => ({ currencyCode: t.currencyCode, date: t.tradeDate, exchangeRate: t.exchangeRate })),
    }),
  };
}

describe("the daily valuation over ten years: Float64 series and exact figures agree to the cent", () => {
  const input = scenario();
  const v = dailyValuation(input);

  it("covers every calendar day", () => {
    expect(v.days).toHaveLength(3653);
    expect(v.days[0]).toBe(FROM);
    expect(v.days[v.days.length - 1]).toBe(TO);
  });

  it("every day, every figure", () => {
    let worst = 0;
    let checked = 0;
    const near = (float: number, exact: string | undefined) => {
      const diff = Math.abs(float - Number(exact ?? NaN));
      worst = Math.max(worst, diff);
      checked++;
      return diff < 0.005;
    };
    const misses: string[] = [];
    v.days.forEach((day, d) => {
      const e = v.exactOn(day);
      if (!near(v.total[d], e.totalInBaseCurrency.toFixed()))
        misses.push(`${day} total ${v.total[d]} vs ${e.totalInBaseCurrency.toFixed()}`);
      if (!near(v.incomeReceivable[d], e.incomeReceivableInBaseCurrency.toFixed())) misses.push(`${day} receivable`);
      if (!near(v.flowIn[d], e.inflowsInBaseCurrency.toFixed()))
        misses.push(`${day} inflows ${v.flowIn[d]} vs ${e.inflowsInBaseCurrency.toFixed()}`);
      if (!near(v.flowOut[d], e.outflowsInBaseCurrency.toFixed())) misses.push(`${day} outflows`);
      if (!near(v.cash[0].balance[d], e.cash[0].balance.toFixed())) misses.push(`${day} cash`);
      e.holdings.forEach((h, i) => {
        if (h.valueInBaseCurrency === null) {
          if (!Number.isNaN(v.holdings[i].value[d])) misses.push(`${day} holding ${h.id} valued in Float64 only`);
        } else if (!near(v.holdings[i].value[d], h.valueInBaseCurrency.toFixed()))
          misses.push(`${day} holding ${h.id} ${v.holdings[i].value[d]} vs ${h.valueInBaseCurrency.toFixed()}`);
        if (v.holdings[i].units[d] !== h.units.toNumber()) misses.push(`${day} holding ${h.id} units`);
      });
    });
    expect(misses.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(3653 * 20);
    // The series is not trivially zero: the portfolio is worth something most days.
    expect(v.total[v.total.length - 1]).toBeGreaterThan(10_000);
    expect(worst).toBeLessThan(0.005);
  });
});
