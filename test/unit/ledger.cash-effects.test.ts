import { Decimal } from "../../src/lib/money";
import {
  CASH_TRADE_TYPES,
  incomeAmounts,
  incomeCashEffect,
  movesCash,
  roundMoney,
  tradeCashEffect,
} from "../../src/modules/ledger/cash-effects";
import { TRADE_TYPES } from "../../src/modules/ledger";

/**
 * The cash effect of a trade and of an income record (docs/rules.md §9.1), the one rule both cash
 * ledgers read: + money in, − money out, in the record's currency; the value |units| × price is
 * rounded to 4 decimals half-up (money columns are DECIMAL(19,4)) before brokerage is applied.
 */

const cash = (tradeType: string, quantity: string, price: string, brokerage = "0") =>
  tradeCashEffect({ tradeType, quantity, price, brokerage }).toFixed();

describe("tradeCashEffect over every trade type", () => {
  // [type, quantity, price, brokerage, expected, how the figure is derived and its source]
  const table: [string, string, string, string, string, string][] = [
    [
      "Buy",
      "100",
      "2.5",
      "9.95",
      "-259.95",
      "−(100 × 2.5 + 9.95): DOMAIN §3 Buy in (units × price + brokerage), paid out of cash",
    ],
    ["Sell", "100", "3", "9.95", "290.05", "100 × 3 − 9.95: DOMAIN §3 Sell (units × price − brokerage), received"],
    [
      "Sell",
      "-100",
      "3",
      "9.95",
      "290.05",
      "a Sell entered with negative units means the same (trades.schemas OUTGOING)",
    ],
    [
      "ReturnOfCapital",
      "1000",
      "0.125",
      "0",
      "125",
      "1000 × 0.125 paid back: DOMAIN §3 ReturnOfCapital (the cash paid)",
    ],
    [
      "ReturnOfCapital",
      "1000",
      "0.125",
      "5",
      "125",
      "brokerage is no part of a capital return (the parcel fold ignores it too)",
    ],
    [
      "OpeningBalance",
      "500",
      "10",
      "0",
      "0",
      "units arrive, not money: DOMAIN §3 counts it a flow at units × price because no cash moves",
    ],
    [
      "TransferIn",
      "500",
      "10",
      "0",
      "0",
      "units arrive from another portfolio or broker, not money (DOMAIN §3 flow in at units × price)",
    ],
    ["TransferOut", "500", "10", "0", "0", "units leave, not money (DOMAIN §3 flow out at units × price)"],
    ["Split", "100", "0", "0", "0", "units change by a ratio, cost base stays (DOMAIN §1); §3: not a flow"],
    ["Consolidation", "50", "0", "0", "0", "units change by a ratio (DOMAIN §1); §3: not a flow"],
    ["Bonus", "10", "0", "0", "0", "units at zero cost (DOMAIN §1); §3: not a flow"],
    ["CostBaseIncrease", "100", "0.2", "0", "0", "cost base adjustment only (DOMAIN §1); §3: not a flow"],
    ["CostBaseDecrease", "100", "0.2", "0", "0", "cost base adjustment only (DOMAIN §1, AMIT); §3: not a flow"],
    ["Cancellation", "100", "0", "0", "0", "units disposed of for nothing (DOMAIN §1); §3: not a flow"],
  ];
  test.each(table)("%s %s @ %s, brokerage %s → %s (%s)", (type, q, p, b, expected) => {
    expect(cash(type, q, p, b)).toBe(expected);
  });

  test("the table covers every trade type the ledger knows", () => {
    expect(new Set(table.map((r) => r[0]))).toEqual(new Set(TRADE_TYPES));
  });

  test("exactly Buy, Sell and ReturnOfCapital move cash", () => {
    expect([...CASH_TRADE_TYPES].sort()).toEqual(["Buy", "ReturnOfCapital", "Sell"]);
    expect(TRADE_TYPES.filter(movesCash).sort()).toEqual(["Buy", "ReturnOfCapital", "Sell"]);
  });

  test("an unknown type moves no cash", () => {
    expect(cash("Nonsense", "1", "1", "1")).toBe("0");
  });
});

describe("rounding: the value is rounded to 4 dp half-up before brokerage", () => {
  test.each([
    // 3 × 0.33333333 = 0.99999999 → 1.0000; + 0 brokerage
    ["Buy", "3", "0.33333333", "0", "-1"],
    // 7 × 1.23456789 = 8.64197523 → 8.6420; + 9.95 = 18.592
    ["Buy", "7", "1.23456789", "9.95", "-18.592"],
    // 0.5 × 0.00025 = 0.000125 → 0.0001 (the 5th decimal is 2: down)
    ["Sell", "0.5", "0.00025", "0", "0.0001"],
    // 1 × 0.00005 = 0.00005 → 0.0001 (exactly half: up)
    ["Sell", "1", "0.00005", "0", "0.0001"],
    // 1 × 0.00004999 → 0.0000
    ["Sell", "1", "0.00004999", "0", "0"],
    // 12.5 × 3.33333333 = 41.666666625 → 41.6667; − 1.5 = 40.1667
    ["Sell", "12.5", "3.33333333", "1.5", "40.1667"],
    // ReturnOfCapital 333 × 0.01234567 = 4.11110811 → 4.1111
    ["ReturnOfCapital", "333", "0.01234567", "0", "4.1111"],
  ])("%s %s @ %s brokerage %s → %s", (type, q, p, b, expected) => {
    expect(cash(type, q, p, b)).toBe(expected);
  });

  test("a Buy and a Sell of the same value net to − 2 × brokerage exactly", () => {
    const buy = tradeCashEffect({ tradeType: "Buy", quantity: "7", price: "1.23456789", brokerage: "9.95" });
    const sell = tradeCashEffect({ tradeType: "Sell", quantity: "7", price: "1.23456789", brokerage: "9.95" });
    expect(buy.plus(sell).toFixed()).toBe("-19.9");
  });

  test("roundMoney is half-up, also for negative amounts (away from zero)", () => {
    expect(roundMoney("1.00005").toFixed()).toBe("1.0001");
    expect(roundMoney("-1.00005").toFixed()).toBe("-1.0001");
    expect(roundMoney("1.00004999").toFixed()).toBe("1");
  });
});

describe("income: net = gross − withholding − foreign tax paid, on the paid date (DOMAIN §1)", () => {
  const zero = {
    frankedAmount: "0",
    unfrankedAmount: "0",
    foreignIncome: "0",
    withholdingTax: "0",
    foreignTaxPaid: "0",
  };

  test("DOMAIN §1 example: 700 franked → gross 700, net 700 (the 300 franking credit is not cash)", () => {
    const i = { ...zero, frankedAmount: "700" };
    const { grossAmount, netAmount } = incomeAmounts(i);
    expect([grossAmount.toFixed(), netAmount.toFixed()]).toEqual(["700", "700"]);
    expect(incomeCashEffect({ ...i, paidDate: "2025-03-20", isReinvested: false })).toEqual({
      date: "2025-03-20",
      amount: new Decimal(700),
    });
  });

  test("USD 1.5 gross foreign income with 0.225 foreign tax paid → 1.275 arrives", () => {
    const i = { ...zero, foreignIncome: "1.5", foreignTaxPaid: "0.225" };
    expect(incomeAmounts(i).grossAmount.toFixed()).toBe("1.5");
    expect(incomeCashEffect({ ...i, paidDate: "2025-04-01", isReinvested: false }).amount.toFixed()).toBe("1.275");
  });

  test("withholding tax comes off too: 60 unfranked + 40 franked, 28.5 withheld → 71.5", () => {
    const i = { ...zero, unfrankedAmount: "60", frankedAmount: "40", withholdingTax: "28.5" };
    expect(incomeCashEffect({ ...i, paidDate: "2025-05-01", isReinvested: false }).amount.toFixed()).toBe("71.5");
  });

  test("reinvested (DRP) income moves no cash: the units replace the receivable (DOMAIN §1, §3)", () => {
    const i = { ...zero, frankedAmount: "700" };
    expect(incomeCashEffect({ ...i, paidDate: "2025-03-20", isReinvested: true })).toEqual({
      date: "2025-03-20",
      amount: new Decimal(0),
    });
    // its gross and net are still what the tax figures read
    expect(incomeAmounts(i).netAmount.toFixed()).toBe("700");
  });
});
