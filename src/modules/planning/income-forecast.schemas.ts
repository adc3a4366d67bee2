import { z } from "zod";
import { dateInput, dateOutput } from "../../lib/dates";
import { queryInt } from "../../lib/validation";
import { FORECAST_BASES } from "./income-forecast";

/** The income forecast's input and answer (docs/reports.md §6.2). */
export const IncomeForecastQuery = z
  .strictObject({
    from: dateInput.optional().describe("The first day of the forecast; default today (UTC)"),
    months: queryInt({ min: 1, max: 24 })
      .optional()
      .describe("How many months the forecast covers, 1 to 24; default 12"),
  })
  .meta({ id: "IncomeForecastQuery" });
export type IncomeForecastQuery = z.infer<typeof IncomeForecastQuery>;

const money = z.number();

export const IncomeForecastResponse = z
  .object({
    portfolioId: z.number().int(),
    from: dateOutput,
    to: dateOutput.describe("The last day: the day before `from`, `months` months on"),
    currency: z.string().describe("The portfolio's base currency: every amount but the per-unit ones"),
    total: z
      .object({
        cash: money,
        frankingCredits: money,
        grossedUp: money.describe("cash + frankingCredits"),
      })
      .meta({ id: "IncomeForecastTotal" }),
    marketValue: money.describe("The holdings' market value at the start of `from` (the close of the day before)"),
    yieldPercent: z
      .number()
      .nullable()
      .describe("total.cash ÷ marketValue × 100, percent; null without a market value"),
    months: z
      .array(
        z
          .object({ month: z.string().describe("YYYY-MM"), cash: money, frankingCredits: money })
          .meta({ id: "IncomeForecastMonth" }),
      )
      .describe("Every month of the period, zeros included, by paid date"),
    payments: z
      .array(
        z
          .object({
            holdingId: z.number().int(),
            symbol: z.string(),
            exchange: z.string(),
            incomeId: z
              .number()
              .int()
              .nullable()
              .describe(
                "The income record repeated (or replaced by an announced dividend); null for an announced dividend without one",
              ),
            exDividendDate: dateOutput,
            paidDate: dateOutput,
            currencyCode: z.string().describe("The currency of the per-unit amounts"),
            perUnit: z.number().describe("Net cash per unit, in currencyCode"),
            frankingPerUnit: z.number().describe("Franking credits per unit, in currencyCode"),
            units: z.number().describe("Units held at the start of `from`"),
            exchangeRate: z.number().describe("Base-currency units per unit of currencyCode on `from`"),
            cash: money.describe("perUnit × units × exchangeRate"),
            frankingCredits: money.describe("frankingPerUnit × units × exchangeRate"),
            basis: z
              .enum(FORECAST_BASES)
              .describe(
                "Trailing: a record of the last twelve months repeated; Announced: a provider's announced dividend",
              ),
          })
          .meta({ id: "IncomeForecastPayment" }),
      )
      .describe("By paid date, then ex-date, holding and record"),
  })
  .meta({ id: "IncomeForecast" });
