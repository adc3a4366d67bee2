import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { notFound } from "../../lib/domain-errors";
import type { ScopedPortfolio } from "../ledger/portfolio-access";
import { findSecurities, securityKey, unlistedSecurityCurrency } from "../securities/securities.service";
import { HOLDING_SELECT, type HoldingRow, type HoldingTypeName } from "./holding-view";

/** What a trade says of the holding it goes to when it names a symbol rather than a holding id. */
export interface NewHoldingRef {
  symbol: string;
  exchange: string;
  name?: string;
  holdingType?: HoldingTypeName;
  currencyCode?: string;
}

/**
 * The holding a trade goes to: by id (it must be in the trade's portfolio), or by symbol and
 * exchange, created on the first trade from the master list (or as an account security when the
 * master does not know it). Returns it locked for the rest of the transaction. The caller holds
 * the portfolio's lock already (ledger/unit-of-work.ts): portfolio first, then holding.
 */
export async function holdingForTrade(
  tx: Prisma.TransactionClient,
  _ctx: Context,
  portfolio: ScopedPortfolio,
  ref: { holdingId?: number } & Partial<NewHoldingRef>,
): Promise<HoldingRow> {
  if (ref.holdingId !== undefined) {
    const rows = await tx.$queryRaw<
      { id: number }[]
    >`SELECT id FROM holding WHERE id = ${ref.holdingId} AND portfolio_id = ${portfolio.id} FOR UPDATE`;
    if (rows.length === 0) throw notFound(`Holding ${ref.holdingId} of portfolio ${portfolio.id}`);
    return tx.holding.findUniqueOrThrow({ where: { id: ref.holdingId }, select: HOLDING_SELECT });
  }
  const wanted = { ...ref, symbol: ref.symbol!, exchange: ref.exchange! };
  const rows = await tx.$queryRaw<
    { id: number }[]
  >`SELECT id FROM holding WHERE portfolio_id = ${portfolio.id} AND symbol = ${wanted.symbol} AND exchange = ${wanted.exchange} FOR UPDATE`;
  if (rows.length > 0) return tx.holding.findUniqueOrThrow({ where: { id: rows[0].id }, select: HOLDING_SELECT });
  return (await holdingsForTrades(tx, portfolio, [wanted])).get(securityKey(wanted))!;
}

/**
 * The holdings of these symbols, created where the portfolio has none yet (in the order given, so
 * their ids follow it), as holdingForTrade creates one: the security the account sees (its own,
 * then the master list's) gives the name, currency and type, and a symbol no list knows becomes
 * an account security first. A fixed number of statements whatever the count, so a bulk import's
 * fifty new holdings cost what one does. Two writers creating one symbol at once: INSERT … ON
 * CONFLICT DO NOTHING waits for the other and yields to it, and the SELECT … FOR UPDATE after it
 * finds (and locks) the winner's row. Returns them locked, by securityKey.
 */
export async function holdingsForTrades(
  tx: Prisma.TransactionClient,
  portfolio: ScopedPortfolio,
  refs: readonly NewHoldingRef[],
): Promise<Map<string, HoldingRow>> {
  const byKey = new Map<string, HoldingRow>();
  if (refs.length === 0) return byKey;
  let securities = await findSecurities(tx, portfolio.accountId, refs);
  const unknown = refs.filter((r) => !securities.has(securityKey(r)) && r.exchange !== "CUSTOM");
  if (unknown.length) {
    await tx.$executeRaw`
      INSERT INTO security (account_id, symbol, exchange, name, currency_code, security_type)
      SELECT ${portfolio.accountId}, u.symbol, u.exchange, u.name, u.currency_code, u.security_type::"HoldingType"
      FROM unnest(
        ${unknown.map((r) => r.symbol)}::text[], ${unknown.map((r) => r.exchange)}::text[],
        ${unknown.map((r) => r.name ?? r.symbol)}::text[],
        ${unknown.map((r) => unlistedSecurityCurrency(r.exchange, r.currencyCode, portfolio.baseCurrencyCode))}::text[],
        ${unknown.map((r) => r.holdingType ?? "Stock")}::text[]
      ) AS u(symbol, exchange, name, currency_code, security_type)
      -- In key order, not the file's: securities are the account's, shared by its portfolios, and
      -- two imports naming X, Y and Y, X would otherwise each wait on the other's new row.
      ORDER BY u.symbol, u.exchange
      ON CONFLICT (account_id, symbol, exchange) WHERE account_id IS NOT NULL DO NOTHING`;
    securities = await findSecurities(tx, portfolio.accountId, refs);
  }
  const column = <T>(f: (r: NewHoldingRef, security: ReturnType<typeof securities.get>) => T) =>
    refs.map((r) => f(r, securities.get(securityKey(r))));
  await tx.$executeRaw`
    INSERT INTO holding (portfolio_id, symbol, exchange, name, currency_code, holding_type, user_classified, updated_at)
    SELECT ${portfolio.id}, h.symbol, h.exchange, h.name, h.currency_code, h.holding_type::"HoldingType",
           -- A type the trade names is the user's; the master list's or the default is the provider's to refresh.
           CASE WHEN h.named THEN ARRAY['holdingType'] ELSE ARRAY[]::text[] END, now()
    FROM unnest(
      ${column((r) => r.symbol)}::text[], ${column((r) => r.exchange)}::text[],
      ${column((r, s) => r.name ?? s?.name ?? r.symbol)}::text[],
      ${column((r, s) => s?.currencyCode ?? r.currencyCode ?? portfolio.baseCurrencyCode)}::text[],
      ${column((r, s) => r.holdingType ?? s?.securityType ?? (r.exchange === "CUSTOM" ? "Custom" : "Stock"))}::text[],
      ${column((r) => r.holdingType !== undefined)}::boolean[]
    ) WITH ORDINALITY AS h(symbol, exchange, name, currency_code, holding_type, named, n)
    ORDER BY h.n
    ON CONFLICT (portfolio_id, symbol, exchange) DO NOTHING`;
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM holding
    WHERE portfolio_id = ${portfolio.id}
      AND (symbol, exchange) IN (SELECT * FROM unnest(${column((r) => r.symbol)}::text[], ${column((r) => r.exchange)}::text[]))
    ORDER BY id
    FOR UPDATE`;
  const rows = await tx.holding.findMany({ where: { id: { in: locked.map((l) => l.id) } }, select: HOLDING_SELECT });
  for (const row of rows) byKey.set(securityKey(row), row);
  return byKey;
}
