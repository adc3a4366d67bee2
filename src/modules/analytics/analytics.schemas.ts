import { z } from "zod";
import { dateInput, dateOutput } from "../../lib/dates";
import { booleanFlag, idSchema } from "../../lib/validation";
import { customGroupIdOf } from "../allocation-models/allocation-models.schemas";
import { exchange, symbol } from "../securities/securities.schemas";
import { INTERVALS } from "./intervals";

/** The analytics operations' inputs and answers (docs/reports.md §1–3). */
export const TimeseriesQuery = z
  .strictObject({
    from: dateInput.optional().describe("First day (inclusive); default the portfolio's first event"),
    to: dateInput.optional().describe("Last day (inclusive); default today (UTC)"),
    interval: z
      .enum(INTERVALS)
      .optional()
      .describe(
        "day (default up to 400 days), week (Sundays) or month (month ends; default beyond 400 days); from and to are always points",
      ),
  })
  .meta({ id: "TimeseriesQuery" });
export type TimeseriesQuery = z.infer<typeof TimeseriesQuery>;

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
        exchangeRate: z
          .number()
          .nullable()
          .describe("Base-currency units per unit of the holding's currency; null without one"),
        marketValue: money.describe("Base currency; 0 without a price or rate"),
        costBase: money.describe("The open parcels' cost base, base currency"),
        netInvested: money.describe(
          "The holding's inflows − outflows (buys in; sales, capital returns and income out) up to this date",
        ),
        cumulativeReturnPercent: z
          .number()
          .describe("The holding's time-weighted return from `from` to this date, percent"),
      })
      .meta({ id: "HoldingTimeseriesPoint" }),
  )
  .describe("One point per interval, the first on from and the last on to");

/** performance's groupBy: the allocation dimensions, industry, or a custom group (docs/reports.md §2). */
export const GROUP_BY = ["holding", "assetClass", "sector", "industry", "currency", "exchange", "holdingType"] as const;
const groupBy = z
  .string()
  .refine(
    (g) => (GROUP_BY as readonly string[]).includes(g) || (customGroupIdOf(g) ?? Infinity) <= 2147483647,
    `must be one of ${GROUP_BY.join(", ")} or customGroup:{id}`,
  );

export const PerformanceQuery = z
  .strictObject({
    from: dateInput.optional().describe("First day (inclusive); default the portfolio's first event"),
    to: dateInput.optional().describe("Last day (inclusive); default today (UTC)"),
    groupBy: groupBy
      .default("holding")
      .describe(
        `How holdings are grouped: ${GROUP_BY.join(", ")} or customGroup:{id}; groups are listed unless holding`,
      ),
    showLocalCurrency: booleanFlag
      .default(false)
      .describe("Each holding's values in its own currency (portfolio totals stay in the base currency)"),
    includeClosed: booleanFlag
      .default(true)
      .describe("List holdings sold out by `to` (their return always counts in the portfolio's)"),
    annualise: booleanFlag
      .default(true)
      .describe("totalReturn as annualised Modified Dietz when the period has 365 days or more"),
  })
  .meta({ id: "PerformanceQuery" });
export type PerformanceQuery = z.infer<typeof PerformanceQuery>;

const percent = z.number().nullable();

export const ReturnSummary = z
  .object({
    totalReturnValue: money.describe("EMV − BMV − net flows = capital + dividend + currency"),
    totalReturnPercent: percent.describe("Over the Modified Dietz denominator; null when nothing was invested"),
    capitalGainValue: money,
    capitalGainPercent: percent,
    dividendReturnValue: money.describe("Net income with an ex-date in the period (and cash interest less fees)"),
    dividendReturnPercent: percent,
    currencyGainValue: money,
    currencyGainPercent: percent,
    isAnnualized: z
      .boolean()
      .describe("annualise and the period has 365 days or more: the percentages are annualised (× 365 / days)"),
  })
  .meta({ id: "ReturnSummary" });

const returnMethods = {
  timeWeightedReturn: z
    .object({ cumulativePercent: z.number(), annualisedPercent: percent.describe("Null under 365 days") })
    .meta({ id: "TimeWeightedReturn" }),
  moneyWeightedReturn: z
    .object({ annualisedPercent: percent.describe("XIRR; null when no rate solves it") })
    .meta({ id: "MoneyWeightedReturn" }),
  modifiedDietz: z
    .object({
      cumulativePercent: percent.describe("Null when the denominator is not positive"),
      annualisedPercent: percent.describe("× 365 / days; null under 365 days"),
    })
    .meta({ id: "ModifiedDietzReturn" }),
};

export const PerformanceResponse = z
  .object({
    portfolioId: z.number().int(),
    portfolioName: z.string(),
    baseCurrencyCode: z.string(),
    from: dateOutput,
    to: dateOutput,
    generatedDate: z.string().meta({ format: "date-time" }),
    hasHoldings: z.boolean(),
    openingValue: money.describe("BMV: the value at the close of the day before from"),
    totalValue: money.describe("EMV: the value at the close of to"),
    netFlows: money.describe("External inflows − outflows in the period"),
    totalReturn: ReturnSummary,
    ...returnMethods,
    holdings: z.array(
      z
        .object({
          id: z.number().int(),
          symbol: z.string(),
          name: z.string(),
          exchange: z.string(),
          currencyCode: z.string(),
          quantity: z.number().describe("Units at the close of to"),
          currentPrice: z.number().nullable().describe("The price at to, in the holding's currency"),
          marketValue: money.describe("At to; in the holding's currency with showLocalCurrency"),
          holdingWeight: z.number().describe("Percent of totalValue"),
          totalReturn: ReturnSummary,
          groupedByValue: z.string().describe("The holding's value on groupBy (Unclassified when it has none)"),
        })
        .meta({ id: "PerformanceHolding" }),
    ),
    groups: z
      .array(
        z
          .object({
            label: z.string(),
            marketValue: money,
            weight: z.number().describe("Percent of totalValue"),
            totalReturn: ReturnSummary,
          })
          .meta({ id: "PerformanceGroup" }),
      )
      .optional()
      .describe("When groupBy is not holding; the cash accounts are a group (Cash, or their currency by currency)"),
  })
  .meta({ id: "PerformanceReport" });

export const BenchmarkQuery = z
  .strictObject({
    symbol: symbol.optional().describe("A security with imported prices (with exchange)"),
    exchange: exchange.optional().describe("The security's exchange"),
    benchmarkPortfolioId: idSchema.optional().describe("Or another portfolio of the same account"),
    from: dateInput.optional().describe("First day (inclusive); default the portfolio's first event"),
    to: dateInput.optional().describe("Last day (inclusive); default today (UTC)"),
    interval: z.enum(INTERVALS).optional().describe("The series' points: day (default up to 400 days), week or month"),
  })
  .meta({ id: "BenchmarkQuery" });
export type BenchmarkQuery = z.infer<typeof BenchmarkQuery>;

const scopeResult = z.object({ ...returnMethods, totalReturnValue: money }).meta({ id: "BenchmarkScopeResult" });

export const BenchmarkResponse = z
  .object({
    portfolioId: z.number().int(),
    from: dateOutput,
    to: dateOutput,
    benchmark: z
      .object({
        type: z.enum(["Security", "Portfolio"]),
        symbol: z.string().optional(),
        exchange: z.string().optional(),
        portfolioId: z.number().int().optional(),
        name: z.string(),
      })
      .meta({ id: "BenchmarkSubject" }),
    portfolio: scopeResult,
    benchmarkResult: scopeResult,
    excessReturn: z
      .object({
        timeWeightedPercent: z.number().describe("Portfolio − benchmark, cumulative TWR"),
        moneyWeightedPercent: percent.describe("Portfolio − benchmark, XIRR; null when either is"),
      })
      .meta({ id: "ExcessReturn" }),
    series: z.array(
      z
        .object({ date: dateOutput, portfolioCumulativePercent: z.number(), benchmarkCumulativePercent: z.number() })
        .meta({ id: "BenchmarkPoint" }),
    ),
  })
  .meta({ id: "BenchmarkReport" });
