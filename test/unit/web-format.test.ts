import { decimal, money, negative, percent, unitPrice } from "../../src/web/format";
import { currentFinancialYear, rangeDates } from "../../src/web/periods";

/**
 * The web app's formatting (WEB.md: AUD, percentages to two decimals, d MMM yyyy) and its ranges:
 * figures are only formatted, never computed, so what is shown must be the API's value rounded
 * for display and nothing else.
 */
test("money: cents, the AUD symbol, another currency by its code; a sign on nothing shown is dropped", () => {
  expect(money("12345.675")).toBe("$12,345.68");
  expect(money("-1500")).toBe("-$1,500.00");
  expect(money("242.23", "USD")).toBe("USD $242.23");
  expect(money("-0.003")).toBe("$0.00");
  expect(money(null)).toBe("—");
});

test("unitPrice: a price or an amount per unit keeps up to 6 decimals, cents at least", () => {
  expect(unitPrice("0.035")).toBe("$0.035");
  expect(unitPrice("0.8542")).toBe("$0.8542");
  expect(unitPrice("81.28")).toBe("$81.28");
  expect(unitPrice("114.19000000")).toBe("$114.19");
  expect(unitPrice("467.694321", "USD")).toBe("USD $467.694321");
});

test("decimal: a figure whose currency the API does not name (a rebalance leg's price) has no symbol", () => {
  expect(decimal("467.694321")).toBe("467.694321");
  expect(decimal("1234.5")).toBe("1,234.50");
  expect(decimal("0.035")).toBe("0.035");
  expect(decimal("-0.0000001")).toBe("0.00");
  expect(decimal(null)).toBe("—");
});

test("percent: two decimals; -0.004 is 0.00%, not -0.00%; negative() colours only what shows a minus", () => {
  expect(percent(6.789)).toBe("6.79%");
  expect(percent("-10.4127")).toBe("-10.41%");
  expect(percent(-0.004)).toBe("0.00%");
  expect(percent(null)).toBe("—");
  expect([negative(-0.004), negative(-0.5), negative("-0.003"), negative("-12.5"), negative("0")]).toEqual([
    false,
    true,
    false,
    true,
    false,
  ]);
});

test("ranges: financial years turn on 1 July; ranges to today leave `to` to the API's today", () => {
  // 30 June 2026 is the last day of FY2026; 1 July 2026 the first of FY2027 (local dates).
  expect(currentFinancialYear(new Date(2026, 5, 30))).toBe(2026);
  expect(currentFinancialYear(new Date(2026, 6, 1))).toBe(2027);
  const may = new Date(2026, 4, 15);
  expect(rangeDates("fytd", may)).toEqual({ from: "2025-07-01" });
  expect(rangeDates("lastfy", may)).toEqual({ from: "2024-07-01", to: "2025-06-30" });
  expect(rangeDates("1y", may)).toEqual({ from: "2025-05-15" });
  expect(rangeDates("3y", may)).toEqual({ from: "2023-05-15" });
  expect(rangeDates("all", may)).toEqual({});
});
