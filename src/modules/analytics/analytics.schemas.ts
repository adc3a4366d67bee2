import { z } from "zod";
import { dateInput, dateOutput } from "../../lib/dates";
import { INTERVALS } from "./intervals";

/** The analytics operations' inputs and answers (REPORTS.md §1–3). */
export const TimeseriesQuery = z
  .strictObject({
    from: dateInput.optional().describe("First day (inclusive); default the portfolio's first event"),
    to: dateInput.optional().describe("Last day (inclusive); default today (UTC)"),
    interval: z.enum(INTERVALS).optional().describe("day (default up to 400 days), week (Sundays) or month (month ends; default beyond 400 days); from and to are always points"),
  })
  .meta({ id: "TimeseriesQuery" });

const money = z.number();

export const PortfolioTimeseriesResponse = z
  .array(
    z
      .object({
        date: dateOutput,
        marketValue: money.describe("Holdings, base currency (a holding without a price or rate counts 0)"),
        cashValue: money.describe("Cash accounts, base currency"),
        incomeReceivable: money.describe("Income from its ex-date to the day before it is paid, net, base currency"),
        totalValue: money.describe("marketValue + cashValue + incomeReceivable"),
        netInvested: money.describe("External inflows − outflows since the portfolio began, up to this date"),
        cumulativeReturnPercent: z.number().describe("Time-weighted return from `from` to this date, percent"),
      })
      .meta({ id: "TimeseriesPoint" }),
  )
  .describe("One point per interval, the first on from and the last on to");

export const HoldingTimeseriesResponse = z
  .array(
    z
      .object({
        date: dateOutput,
        quantity: z.number().describe("Units held at the close"),
        price: z.number().nullable().describe("The valuation price, in the holding's currency; null before it has one"),
        exchangeRate: z.number().nullable().describe("Base-currency units per unit of the holding's currency; null without one"),
        marketValue: money.describe("Base currency; 0 without a price or rate"),
        costBase: money.describe("The open parcels' cost base, base currency"),
        netInvested: money.describe("The holding's inflows − outflows (buys in; sales, capital returns and income out) up to this date"),
        cumulativeReturnPercent: z.number().describe("The holding's time-weighted return from `from` to this date, percent"),
      })
      .meta({ id: "HoldingTimeseriesPoint" }),
  )
  .describe("One point per interval, the first on from and the last on to");
