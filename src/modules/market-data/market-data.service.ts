import type { Context } from "../../context";
import { fromDate } from "../../lib/dates";
import { invalidInput, parseInput } from "../../lib/validation";
import { securityKey, securityTable } from "../ledger/market-data";
import { assertCanWrite, portfolioScopeSql, portfolioWhere } from "../ledger/portfolio-access";
import { RefreshMarketDataInput } from "./market-data.schemas";
import { CURRENCIES_IN_USE } from "./refresh-targets";

/**
 * Market data as an API caller sees it (docs/data.md §1.3): start a refresh, read how it went.
 * A refresh answers at once (202) with its run's id; the run goes on in the background and its
 * failures are a state the status reports, never an error of this call.
 */

/** Starts a refresh of the account's securities (or those named); answers the run's id. */
export async function refreshMarketData(ctx: Context, input: unknown = {}): Promise<{ runId: number }> {
  assertCanWrite(ctx);
  const { securities } = parseInput(RefreshMarketDataInput, input ?? {});
  if (securities) {
    // Joined by key, as every read of named securities is (securityTable): an OR of up to 1,000
    // pairs had the database compare each of the account's holdings with every pair.
    const held = await ctx.db.$queryRaw<{ symbol: string; exchange: string }[]>`
      SELECT DISTINCT h.symbol, h.exchange
      FROM ${securityTable(securities, "w")}
      JOIN holding h ON h.symbol = w.symbol AND h.exchange = w.exchange
      JOIN portfolio p ON p.id = h.portfolio_id
      WHERE p.account_id = ${ctx.account.id}`;
    const known = new Set(held.map(securityKey));
    const unknown = securities.flatMap((s, i) =>
      known.has(securityKey(s))
        ? []
        : [{ path: `securities[${i}]`, message: `no holding of this account is ${s.symbol} on ${s.exchange}` }],
    );
    if (unknown.length) throw invalidInput("The refresh request", unknown);
  }
  return ctx.marketData.refresh({ trigger: "request", accountId: ctx.account.id, securities });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** How the refresh is set up, its last run, and the state of each of the caller's securities. */
export async function marketDataStatus(ctx: Context) {
  const [run, held, exchangeRates] = await Promise.all([
    ctx.db.marketDataRun.findFirst({ orderBy: { id: "desc" } }),
    ctx.db.holding.findMany({
      where: { portfolio: portfolioWhere(ctx), holdingType: { notIn: ["Custom", "Cash"] } },
      distinct: ["symbol", "exchange"],
      orderBy: [{ symbol: "asc" }, { exchange: "asc" }],
      select: { symbol: true, exchange: true },
    }),
    exchangeRateStatus(ctx),
  ]);
  const states = held.length
    ? await ctx.db.$queryRaw<
        {
          symbol: string;
          exchange: string;
          providerSymbol: string | null;
          lastPriceDate: Date | null;
          lastAttemptAt: Date | null;
          lastError: string | null;
        }[]
      >`
        SELECT m.symbol, m.exchange, m.provider_symbol AS "providerSymbol", m.last_price_date AS "lastPriceDate",
               m.last_attempt_at AS "lastAttemptAt", m.last_error AS "lastError"
        FROM ${securityTable(held, "w")} JOIN market_data_security m ON m.symbol = w.symbol AND m.exchange = w.exchange`
    : [];
  const state = new Map(states.map((s) => [securityKey(s), s]));
  const counts = (run?.counts ?? {}) as Record<string, number>;
  return {
    provider: ctx.marketData.provider,
    fxProvider: ctx.marketData.fxProvider,
    schedule: ctx.marketData.schedule,
    lastRun: run && {
      runId: run.id,
      trigger: run.trigger,
      startedAt: run.startedAt.toISOString(),
      finishedAt: iso(run.finishedAt),
      status: run.status,
      counts: {
        securities: counts.securities ?? 0,
        prices: counts.prices ?? 0,
        dividends: counts.dividends ?? 0,
        splits: counts.splits ?? 0,
        fxRates: counts.fxRates ?? 0,
        incomeRecords: counts.incomeRecords ?? 0,
        corporateActions: counts.corporateActions ?? 0,
        classified: counts.classified ?? 0,
      },
      message: run.message,
    },
    securities: held.map(({ symbol, exchange }) => {
      const s = state.get(securityKey({ symbol, exchange }));
      return {
        symbol,
        exchange,
        providerSymbol: s?.providerSymbol ?? null,
        lastPriceDate: s?.lastPriceDate ? fromDate(s.lastPriceDate) : null,
        lastAttemptAt: iso(s?.lastAttemptAt ?? null),
        lastError: s?.lastError ?? null,
      };
    }),
    exchangeRates,
  };
}

/**
 * The state of the provider's currency pairs the caller's portfolios draw on: the pairs stored
 * (exchange FX, symbol base + quote, refresh-targets.ts `fxStatusKey`) whose two currencies are
 * among those of the caller's portfolios (their bases and every currency they hold, trade, are paid
 * or keep cash in; a client key's portfolios only, as for the securities) and AUD, through which
 * the FX rule crosses. Other accounts' and clients' currencies stay theirs.
 */
async function exchangeRateStatus(ctx: Context) {
  const rows = await ctx.db.$queryRaw<
    { pair: string; last_price_date: Date | null; last_attempt_at: Date | null; last_error: string | null }[]
  >`
    WITH mine AS (
      SELECT id, base_currency_code::text AS base FROM portfolio
      WHERE ${portfolioScopeSql(ctx, "portfolio")}
    ),
    currencies AS (
      SELECT 'AUD' AS code
      UNION SELECT base FROM mine
      UNION SELECT code::text FROM (${CURRENCIES_IN_USE}) used WHERE portfolio_id IN (SELECT id FROM mine)
    )
    SELECT s.symbol AS pair, s.last_price_date, s.last_attempt_at, s.last_error
    FROM market_data_security s
    WHERE s.exchange = 'FX' AND length(s.symbol) = 6
      AND substr(s.symbol, 1, 3) IN (SELECT code FROM currencies) AND substr(s.symbol, 4, 3) IN (SELECT code FROM currencies)
    ORDER BY s.symbol`;
  return rows.map((r) => ({
    base: r.pair.slice(0, 3),
    quote: r.pair.slice(3),
    lastRateDate: r.last_price_date ? fromDate(r.last_price_date) : null,
    lastAttemptAt: iso(r.last_attempt_at),
    lastError: r.last_error,
  }));
}
