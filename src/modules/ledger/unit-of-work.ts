import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { businessRule, type DomainError } from "../../lib/domain-errors";
import { scopedPortfolio, type ScopedPortfolio } from "./portfolio-access";
import type { LedgerEvent } from "./events";
import type { FoldResult } from "./fold";
import { foldHolding, loadLedger, type Ledger } from "./load";
import { lockPortfolio, write } from "./write";
import { ParcelError } from "./parcel-selection";

/**
 * The one unit of work for a write to a portfolio's ledger (trades, imports, income, tax settings,
 * ticker changes, holding deletes): write.ts's discipline (one transaction, the portfolio locked
 * first), the portfolio read again under its lock, the ledger loaded and folded with the change,
 * and a broken ledger rule (ParcelError) answered as the write's DomainError. Nothing is written
 * unless every fold passes, since the work writes only after it has folded.
 */

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
  return write(ctx, async (tx) => {
    await lockPortfolio(tx, ctx, portfolioId);
    let portfolio = await scopedPortfolio(ctx, portfolioId, tx);
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
  });
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
