import { Prisma } from "../../../generated/prisma/client";
import type { PrismaClient } from "../../db";
import { addDays, fromDate } from "../../lib/dates";
import type { CurrencyPair, FxProvider, SecurityRef } from "./providers/provider";

/**
 * What a refresh fetches (docs/data.md §1.3): every (symbol, exchange) with a trade in any
 * portfolio, from 7 days before its first trade (nothing stored yet: the full history) or from 7
 * days before its last stored price (a provider may revise recent days), to today; and every
 * currency pair a portfolio needs, likewise.
 */

/**
 * Every currency a portfolio uses, one row per (portfolio_id, code): those of its holdings,
 * trades, income and cash accounts. The refresh fetches the pairs they need; the status shows them.
 */
export const CURRENCIES_IN_USE = Prisma.sql`
  SELECT portfolio_id, currency_code AS code FROM holding
  UNION SELECT portfolio_id, currency_code FROM trade
  UNION SELECT portfolio_id, currency_code FROM income
  UNION SELECT portfolio_id, currency_code FROM cash_account`;

/** Days fetched again before the last stored point. */
export const REVISION_DAYS = 7;
/** How far back a security with no trade is fetched (one named in a request, e.g. for a rebalance). */
const UNTRADED_HISTORY_DAYS = 366;

export interface SecurityTarget extends SecurityRef {
  /** The holdings' currency: the provider's must match it, or nothing of it is stored. */
  currencyCode: string;
  from: string;
}

export interface FxTarget {
  pair: CurrencyPair;
  from: string;
}

function startFrom(firstUse: string | null, lastStored: string | null, today: string): string {
  if (lastStored) return addDays(lastStored, -REVISION_DAYS);
  return firstUse ? addDays(firstUse, -REVISION_DAYS) : addDays(today, -UNTRADED_HISTORY_DAYS);
}

/**
 * The securities to refresh: all that any portfolio trades, or, for one account's request, the
 * account's (`accountId`), narrowed to `only` when given. Custom investments have no market.
 */
export async function securityTargets(
  db: PrismaClient,
  today: string,
  scope: { accountId?: number; only?: SecurityRef[] } = {},
): Promise<SecurityTarget[]> {
  const account = scope.accountId ?? null;
  const only = scope.only ?? null;
  const rows = await db.$queryRaw<
    { symbol: string; exchange: string; currency_code: string; first_trade: Date | null; last_price: Date | null }[]
  >`
    WITH wanted AS (
      SELECT h.symbol, h.exchange, min(h.currency_code) AS currency_code, min(t.trade_date) AS first_trade
      FROM holding h JOIN portfolio p ON p.id = h.portfolio_id LEFT JOIN trade t ON t.holding_id = h.id
      WHERE h.holding_type NOT IN ('Custom', 'Cash')
        AND (${account}::int IS NULL OR p.account_id = ${account}::int)
      GROUP BY h.symbol, h.exchange
      HAVING min(t.trade_date) IS NOT NULL OR ${account}::int IS NOT NULL
    )
    SELECT w.symbol, w.exchange, w.currency_code::text AS currency_code, w.first_trade, s.last_price_date AS last_price
    FROM wanted w LEFT JOIN market_data_security s ON s.symbol = w.symbol AND s.exchange = w.exchange
    ORDER BY w.symbol, w.exchange`;
  const asked = only && new Set(only.map((s) => `${s.symbol}|${s.exchange}`));
  return rows
    .filter((r) => !asked || asked.has(`${r.symbol}|${r.exchange}`))
    .map((r) => ({
      symbol: r.symbol,
      exchange: r.exchange,
      currencyCode: r.currency_code,
      from: startFrom(r.first_trade && fromDate(r.first_trade), r.last_price && fromDate(r.last_price), today),
    }));
}

/** The status row of a currency pair: symbol `AUDUSD`, exchange `FX`. */
export const fxStatusKey = (pair: CurrencyPair): SecurityRef => ({
  symbol: `${pair.base}${pair.quote}`,
  exchange: "FX",
});

/**
 * The pairs every portfolio needs (its base against each currency it holds, trades, is paid or
 * keeps cash in), as the FX provider can answer them: the pair itself, its inverse, or both legs
 * of a cross through AUD (the FX rule derives inverses and crosses, docs/rules.md §8).
 */
export async function fxTargets(db: PrismaClient, fx: FxProvider, today: string): Promise<FxTarget[]> {
  const rows = await db.$queryRaw<{ base: string; quote: string; first_trade: Date | null }[]>`
    WITH used AS (${CURRENCIES_IN_USE})
    SELECT p.base_currency_code::text AS base, u.code::text AS quote, min(t.first_trade) AS first_trade
    FROM used u JOIN portfolio p ON p.id = u.portfolio_id
    JOIN LATERAL (SELECT min(trade_date) AS first_trade FROM trade WHERE portfolio_id = p.id) t ON true
    WHERE u.code <> p.base_currency_code AND t.first_trade IS NOT NULL
    GROUP BY p.base_currency_code, u.code`;
  const firstUse = new Map<string, { pair: CurrencyPair; first: string }>();
  const need = (pair: CurrencyPair, first: string) => {
    const key = `${pair.base}/${pair.quote}`;
    const seen = firstUse.get(key);
    if (!seen || first < seen.first) firstUse.set(key, { pair, first });
  };
  for (const r of rows) {
    const first = fromDate(r.first_trade as Date);
    const direct = { base: r.base, quote: r.quote };
    const inverse = { base: r.quote, quote: r.base };
    if (fx.supports(direct)) need(direct, first);
    else if (fx.supports(inverse)) need(inverse, first);
    else
      for (const leg of [r.base, r.quote].filter((c) => c !== "AUD").map((c) => ({ base: "AUD", quote: c })))
        if (fx.supports(leg)) need(leg, first);
  }
  if (firstUse.size === 0) return [];
  const keys = [...firstUse.values()].map(({ pair }) => fxStatusKey(pair));
  const stored = await db.$queryRaw<{ symbol: string; last_price: Date | null }[]>`
    SELECT symbol, last_price_date AS last_price FROM market_data_security
    WHERE exchange = 'FX' AND symbol = ANY(${keys.map((k) => k.symbol)}::text[])`;
  const last = new Map(stored.map((s) => [s.symbol, s.last_price && fromDate(s.last_price)]));
  return [...firstUse.values()].map(({ pair, first }) => ({
    pair,
    from: startFrom(first, last.get(fxStatusKey(pair).symbol) ?? null, today),
  }));
}
