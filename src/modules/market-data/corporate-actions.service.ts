import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { addDays, fromDate } from "../../lib/dates";
import { businessRule, DomainError, notFound } from "../../lib/domain-errors";
import { parseId, parseInput } from "../../lib/validation";
import { assertCanWrite, portfolioWhere, scopedPortfolio } from "../ledger/portfolio-access";
import { ledgerWrite } from "../ledger/unit-of-work";
import { portfolioWrite } from "../ledger/write";
import { TradeInput } from "../trades/trades.schemas";
import { recordTrade } from "../trades/trades.service";
import { corporateActionTrade, type CorporateActionStatus, type CorporateActionType } from "./corporate-actions";
import { CorporateActionsQuery } from "./corporate-actions.schemas";

/**
 * The corporate actions offered from provider splits (corporate-actions.offer.ts), as their
 * portfolio's owner sees and settles them (docs/data.md §3): list them, apply one (it records the
 * ledger's Split or Consolidation trade), dismiss one. A pending action changes nothing until it is
 * applied; an applied or dismissed one is never offered again.
 */

export interface CorporateActionView {
  id: number;
  holdingId: number;
  symbol: string;
  exchange: string;
  type: CorporateActionType;
  date: string;
  numerator: number;
  denominator: number;
  status: CorporateActionStatus;
  tradeId: number | null;
}

const ACTION_SELECT = {
  id: true,
  portfolioId: true,
  holdingId: true,
  type: true,
  date: true,
  numerator: true,
  denominator: true,
  status: true,
  tradeId: true,
  holding: { select: { symbol: true, exchange: true } },
} as const satisfies Prisma.CorporateActionSelect;

type ActionRow = Prisma.CorporateActionGetPayload<{ select: typeof ACTION_SELECT }>;

function toView(row: ActionRow): CorporateActionView {
  return {
    id: row.id,
    holdingId: row.holdingId,
    symbol: row.holding.symbol,
    exchange: row.holding.exchange,
    type: row.type,
    date: fromDate(row.date),
    numerator: row.numerator,
    denominator: row.denominator,
    status: row.status,
    tradeId: row.tradeId,
  };
}

/** GET /v1/portfolios/{p}/corporate-actions: the portfolio's actions by date, optionally of one status. */
export async function listCorporateActions(
  ctx: Context,
  portfolioId: unknown,
  query: unknown = {},
): Promise<CorporateActionView[]> {
  const { status } = parseInput(CorporateActionsQuery, query ?? {}, "The query");
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const rows = await ctx.db.corporateAction.findMany({
    where: { portfolioId: portfolio.id, ...(status ? { status } : {}) },
    select: ACTION_SELECT,
    orderBy: [{ date: "asc" }, { id: "asc" }],
  });
  return rows.map(toView);
}

/** The caller's action `id` (its portfolio scoped as every read is), or NOT_FOUND. */
async function scopedAction(ctx: Context, id: number, db: Prisma.TransactionClient = ctx.db): Promise<ActionRow> {
  const row = await db.corporateAction.findFirst({
    where: { id, holding: { portfolio: portfolioWhere(ctx) } },
    select: ACTION_SELECT,
  });
  if (!row) throw notFound(`Corporate action ${id}`);
  return row;
}

const settled = (row: ActionRow, doing: string) =>
  new DomainError(
    "CONFLICT",
    `Corporate action ${row.id} is already ${row.status.toLowerCase()}${row.tradeId ? ` (trade ${row.tradeId})` : ""}; only a pending one can be ${doing}.`,
  );

/**
 * POST /v1/corporate-actions/{id}/apply: records the Split or Consolidation trade for the units
 * held at the start of the action's date (corporateActionTrade), through createTrade's own write,
 * and marks the action Applied in the same transaction. The portfolio's lock makes a second apply
 * wait and then find it applied (409).
 */
export async function applyCorporateAction(ctx: Context, actionId: unknown): Promise<CorporateActionView> {
  const id = parseId(actionId, "corporateActionId");
  assertCanWrite(ctx);
  const { portfolioId } = await scopedAction(ctx, id);
  return ledgerWrite(ctx, portfolioId, async (unit) => {
    const action = await scopedAction(ctx, id, unit.tx);
    if (action.status !== "Pending") throw settled(action, "applied");
    const date = fromDate(action.date);
    const fold = await unit.check(action.holdingId);
    const held = fold.timeline.on(addDays(date, -1)).units;
    const change = corporateActionTrade(held, action.numerator, action.denominator);
    if (!change)
      throw businessRule(
        `Corporate action ${id} (${action.numerator}:${action.denominator} on ${date}) changes nothing: ${held.toFixed()} units are held at the start of that date.`,
      );
    const trade = await recordTrade(
      ctx,
      unit,
      parseInput(
        TradeInput,
        {
          portfolioId,
          holdingId: action.holdingId,
          tradeType: change.tradeType,
          tradeDate: date,
          quantity: change.quantity.toFixed(),
          notes: `${action.numerator}:${action.denominator} ${change.tradeType.toLowerCase()} from market data: ${held.toFixed()} units became ${change.unitsAfter.toFixed()} (corporate action ${id})`,
        },
        "The corporate action's trade",
      ),
    );
    await unit.tx.corporateAction.update({ where: { id }, data: { status: "Applied", tradeId: trade.id } });
    return toView(await scopedAction(ctx, id, unit.tx));
  });
}

/**
 * POST /v1/corporate-actions/{id}/dismiss: the action is not applied, and never offered again.
 * Dismissing a dismissed one answers it unchanged (a retry is safe); an applied one is a 409
 * (delete its trade to undo it).
 */
export async function dismissCorporateAction(ctx: Context, actionId: unknown): Promise<CorporateActionView> {
  const id = parseId(actionId, "corporateActionId");
  assertCanWrite(ctx);
  const { portfolioId } = await scopedAction(ctx, id);
  return portfolioWrite(ctx, portfolioId, async (tx) => {
    const action = await scopedAction(ctx, id, tx);
    if (action.status === "Applied") throw settled(action, "dismissed");
    if (action.status === "Dismissed") return toView(action);
    await tx.corporateAction.update({ where: { id }, data: { status: "Dismissed" } });
    return toView(await scopedAction(ctx, id, tx));
  });
}
