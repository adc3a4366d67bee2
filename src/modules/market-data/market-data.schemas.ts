import { z } from "zod";
import { dateOutput } from "../../lib/dates";
import { exchange, symbol } from "../securities/securities.schemas";

/** The most securities one refresh request may name (an account's whole list is the default). */
export const MAX_REFRESH_SECURITIES = 1_000;

export const RefreshMarketDataInput = z
  .strictObject({
    securities: z
      .array(z.strictObject({ symbol, exchange }))
      .min(1, "must name at least 1 security (leave it out for all of the account's)")
      .max(MAX_REFRESH_SECURITIES, `must name at most ${MAX_REFRESH_SECURITIES} securities`)
      .optional()
      .describe("Securities of the account's holdings to refresh; absent: all of them"),
  })
  .meta({ id: "RefreshMarketDataInput" });
export type RefreshMarketDataInput = z.output<typeof RefreshMarketDataInput>;

export const RefreshMarketDataResponse = z
  .object({ runId: z.number().int().describe("The run started, or the one already running") })
  .meta({ id: "MarketDataRefreshStarted" });

const timestamp = z.string().meta({ format: "date-time" });

export const MarketDataRunResponse = z
  .object({
    runId: z.number().int(),
    trigger: z
      .string()
      .describe("What started it: schedule, start (the process started with no recent run) or request"),
    startedAt: timestamp,
    finishedAt: timestamp.nullable(),
    status: z.enum(["Running", "Succeeded", "Partial", "Failed"]),
    counts: z
      .object({
        securities: z.number().int().describe("Securities fetched and stored"),
        prices: z.number().int(),
        dividends: z.number().int(),
        splits: z.number().int(),
        fxRates: z.number().int(),
        incomeRecords: z.number().int().describe("Unconfirmed income records made or updated from dividends"),
        corporateActions: z.number().int().describe("Pending corporate actions offered from splits"),
        classified: z.number().int().describe("Holdings whose classification the provider filled"),
      })
      .describe("Rows written or updated by the run"),
    message: z.string().nullable().describe("What failed, when the run was Partial or Failed"),
  })
  .meta({ id: "MarketDataRun" });

export const MarketDataSecurityStatus = z
  .object({
    symbol: z.string(),
    exchange: z.string(),
    providerSymbol: z.string().nullable().describe("The provider's symbol (e.g. VAS.AX)"),
    lastPriceDate: dateOutput.nullable().describe("The latest close stored from the provider"),
    lastAttemptAt: timestamp.nullable(),
    lastError: z.string().nullable().describe("Why the last attempt failed; null after a success"),
  })
  .meta({ id: "MarketDataSecurityStatus" });

export const MarketDataExchangeRateStatus = z
  .object({
    base: z.string().describe("Currency the rate is of (ISO 4217)"),
    quote: z.string().describe("Units of this currency per unit of base"),
    lastRateDate: dateOutput.nullable().describe("The latest rate stored from the FX provider"),
    lastAttemptAt: timestamp.nullable(),
    lastError: z.string().nullable().describe("Why the last attempt failed; null after a success"),
  })
  .meta({ id: "MarketDataExchangeRateStatus" });

export const MarketDataStatusResponse = z
  .object({
    provider: z.string().describe("Prices, dividends and splits: yahoo, replay or none"),
    fxProvider: z.string().describe("Exchange rates: rba, yahoo, replay or none"),
    schedule: z.string().describe("Cron pattern in Australia/Sydney, or off"),
    lastRun: MarketDataRunResponse.nullable(),
    securities: z.array(MarketDataSecurityStatus).describe("The account's securities, by symbol"),
    exchangeRates: z
      .array(MarketDataExchangeRateStatus)
      .describe(
        "The FX provider's currency pairs the account's portfolios draw on (directly, inverted or crossed through AUD), by pair",
      ),
  })
  .meta({ id: "MarketDataStatus" });
