import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { businessRule, notFound, type DomainError } from "../../lib/errors";
import { scopedPortfolio, type ScopedPortfolio } from "../portfolios/scoped";
import type { LedgerEvent } from "./events";
import type { FoldResult } from "./fold";
import { foldHolding, loadLedger, type Ledger } from "./load";
import { ParcelError } from "./parcel-selection";

/**
 * The one unit of work for a write to a portfolio's ledger (trades, imports, income, tax settings,
 * ticker changes, holding deletes): one transaction with one option set, the portfolio locked and
 * read again under its lock, the ledger loaded and folded with the change, and a broken ledger
 * rule (ParcelError) answered as the write's DomainError. Nothing is written unless every fold
 * passes, since the work writes only after it has folded.
 */

/**
 * Ledger writes queue behind each other on their portfolio's row lock (lockPortfolioForLedger), so
 * they wait and run longer than other writes.
 */
export const LEDGER_TX_OPTIONS = { maxWait: 15_000, timeout: 60_000 };

/**
 * Locks the portfolio row and answers it as read under the lock. Every ledger write takes its
 * locks in one order: this portfolio row, then holding rows in id order, then the rows under
 * them. In one order, concurrent writes queue instead of deadlocking (PostgreSQL 40P01).
 * FOR NO KEY UPDATE excludes the portfolio's other writers but not the FOR KEY SHARE that
 * foreign-key checks take, so a cash account or a model added to the portfolio does not wait.
 */
export async function lockPortfolioForLedger(
  tx: Prisma.TransactionClient,
  ctx: Context,
  portfolioId: number,
): Promise<ScopedPortfolio> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT id FROM portfolio WHERE id = ${portfolioId} AND account_id = ${ctx.account.id} FOR NO KEY UPDATE`;
  if (rows.length === 0) throw notFound(`Portfolio ${portfolioId}`);
  return scopedPortfolio(ctx, portfolioId, tx);
}

/** Events that change a holding's ledger: one keyed as a stored event replaces it (null removes it); any other is added. */
export type LedgerChange = Map<string, LedgerEvent | null>;

/** How a broken ledger rule reads to the caller; by default a BUSINESS_RULE naming the event. */
export type ExplainBreach = (error: ParcelError, holdingId: number) => DomainError;

const explainDefault: ExplainBreach = (error) => businessRule(`${error.message} (${error.eventKey})`);

/** A ledger loaded under the write's lock, folded with changes. */
export interface WriteLedger {
  readonly ledger: Ledger;
  /** The holding folded with the change; a broken rule throws the write's DomainError. */
  fold(holdingId: number, change?: LedgerChange | LedgerEvent[]): FoldResult;
  /** The same, answering the broken rule instead of throwing it (an import collects every line's). */
  attempt(holdingId: number, change?: LedgerChange | LedgerEvent[]): FoldResult | ParcelError;
}

export interface LedgerUnit {
  readonly tx: Prisma.TransactionClient;
  /** The portfolio as read under its lock (again after `reload`). */
  readonly portfolio: ScopedPortfolio;
  /** Reads the portfolio again under the lock, after the work changed what the fold reads (its methods, its entity type). */
  reload(): Promise<ScopedPortfolio>;
  /** Locks every holding of the portfolio in id order (the lock order's second step); answers their ids. */
  lockHoldings(): Promise<number[]>;
  /** The ledger of these holdings (all of them when omitted), as committed so far in this transaction. */
  load(holdingIds?: number[]): Promise<WriteLedger>;
  /** One holding's ledger loaded and folded with the change: `load([holdingId]).fold(holdingId, change)`. */
  check(holdingId: number, change?: LedgerChange | LedgerEvent[]): Promise<FoldResult>;
}

/**
 * Runs `work` as a ledger write to the caller's portfolio `portfolioId`: NOT_FOUND when it is not
 * one of the caller's, the transaction rolled back when the work throws.
 */
export async function ledgerWrite<T>(
  ctx: Context,
  portfolioId: number,
  work: (unit: LedgerUnit) => Promise<T>,
  options: { explain?: ExplainBreach } = {},
): Promise<T> {
  const explain = options.explain ?? explainDefault;
  return ctx.db.$transaction(async (tx) => {
    let portfolio = await lockPortfolioForLedger(tx, ctx, portfolioId);
    const writeLedger = (ledger: Ledger): WriteLedger => {
      const attempt = (holdingId: number, change?: LedgerChange | LedgerEvent[]) => {
        try {
          return foldHolding(ledger, holdingId, asExtra(ledger, holdingId, change));
        } catch (error) {
          if (error instanceof ParcelError) return error;
          throw error;
        }
      };
      return {
        ledger,
        attempt,
        fold(holdingId, change) {
          const result = attempt(holdingId, change);
          if (result instanceof ParcelError) throw explain(result, holdingId);
          return result;
        },
      };
    };
    const unit: LedgerUnit = {
      tx,
      get portfolio() {
        return portfolio;
      },
      async reload() {
        portfolio = await scopedPortfolio(ctx, portfolio.id, tx);
        return portfolio;
      },
      async lockHoldings() {
        const rows = await tx.$queryRaw<
          { id: number }[]
        >`SELECT id FROM holding WHERE portfolio_id = ${portfolio.id} ORDER BY id FOR UPDATE`;
        return rows.map((r) => r.id);
      },
      async load(holdingIds) {
        return writeLedger(await loadLedger(tx, portfolio, holdingIds));
      },
      async check(holdingId, change) {
        return (await unit.load([holdingId])).fold(holdingId, change);
      },
    };
    return work(unit);
  }, LEDGER_TX_OPTIONS);
}

/** A change as foldHolding takes it: stored keys replaced (or removed), the rest added. */
function asExtra(ledger: Ledger, holdingId: number, change: LedgerChange | LedgerEvent[] | undefined) {
  if (!change) return {};
  if (Array.isArray(change)) return { add: change };
  const stored = new Set((ledger.eventsByHolding.get(holdingId) ?? []).map((e) => e.key));
  const replace = new Map<string, LedgerEvent | null>();
  const add: LedgerEvent[] = [];
  for (const [key, event] of change) {
    if (stored.has(key)) replace.set(key, event);
    else if (event) add.push(event);
  }
  return { replace, add };
}
