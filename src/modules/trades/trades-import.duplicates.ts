import type { Prisma } from "../../../generated/prisma/client";
import { DomainError } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { signedQuantity } from "./stored-trade";
import { rowError } from "../../lib/bulk";
import { type ImportHolding, type ParsedRow, type SkippedRow } from "./trades-import.rows";

/**
 * Rows whose broker reference a recorded trade of the portfolio has (whatever its holding: a
 * ticker may have changed since), then rows equal to a recorded trade: same holding, trade date,
 * type, and quantity and price as stored (decimals compared exactly). Two fills of one order at
 * one price are equal but for their references: a row and a recorded trade that both have one,
 * different, are different trades. Each recorded trade answers for one row at most, so a file with
 * three identical fills against two recorded ones repeats two of them; equal rows within the file
 * alone are not duplicates (identical fills happen). A Cancellation without a quantity matches
 * any recorded Cancellation of the holding on that date.
 */
export async function findDuplicates(
  tx: Prisma.TransactionClient,
  portfolioId: number,
  rows: ParsedRow[],
  holdingOf: Map<number, ImportHolding>,
): Promise<SkippedRow[]> {
  const byReference = await referenceDuplicates(tx, portfolioId, rows);
  const taken = new Set(byReference.map((d) => d.line));
  const byEquality = await equalityDuplicates(
    tx,
    rows.filter((r) => !taken.has(r.line)),
    holdingOf,
    new Set(byReference.map((d) => d.duplicateOf)),
  );
  return [...byReference, ...byEquality].sort((a, b) => a.line - b.line);
}

async function referenceDuplicates(
  tx: Prisma.TransactionClient,
  portfolioId: number,
  rows: ParsedRow[],
): Promise<SkippedRow[]> {
  const references = [...new Set(rows.flatMap((r) => (r.data.reference ? [r.data.reference] : [])))];
  if (references.length === 0) return [];
  const trades = await tx.$queryRaw<{ id: number; reference: string }[]>`
    SELECT min(id) AS id, reference FROM trade
    WHERE portfolio_id = ${portfolioId} AND reference = ANY(${references}::text[])
    GROUP BY reference`;
  const byReference = new Map(trades.map((t) => [t.reference, t.id]));
  return rows.flatMap(({ line, data }) => {
    const id = data.reference ? byReference.get(data.reference) : undefined;
    return id === undefined ? [] : [{ line, duplicateOf: id, reference: data.reference! }];
  });
}

async function equalityDuplicates(
  tx: Prisma.TransactionClient,
  rows: ParsedRow[],
  holdingOf: Map<number, ImportHolding>,
  used: Set<number>,
): Promise<SkippedRow[]> {
  const recorded = rows.filter((r) => holdingOf.get(r.line)!.id > 0);
  if (recorded.length === 0) return [];
  const holdingIds = [...new Set(recorded.map((r) => holdingOf.get(r.line)!.id))];
  const dates = recorded.map((r) => r.data.tradeDate).sort();
  const trades = await tx.$queryRaw<
    {
      id: number;
      holdingId: number;
      tradeType: string;
      tradeDate: string;
      quantity: string;
      price: string;
      reference: string | null;
    }[]
  >`
    SELECT id, holding_id AS "holdingId", trade_type::text AS "tradeType", trade_date::text AS "tradeDate", quantity::text AS quantity, price::text AS price, reference
    FROM trade
    WHERE holding_id = ANY(${holdingIds}::int[]) AND trade_date BETWEEN ${dates[0]}::date AND ${dates[dates.length - 1]}::date
    ORDER BY id`;
  const key = (holdingId: number, date: string, type: string, quantity: string | undefined, price: string) =>
    `${holdingId}|${date}|${type}|${quantity ?? "*"}|${price}`;
  // Every recorded trade by its key, and those without a reference (all a row with one may repeat).
  const unmatched = { any: new Map<string, number[]>(), unreferenced: new Map<string, number[]>() };
  const take = (k: string, t: { id: number; reference: string | null }) => {
    for (const map of t.reference ? [unmatched.any] : [unmatched.any, unmatched.unreferenced]) {
      const list = map.get(k) ?? [];
      list.push(t.id);
      map.set(k, list);
    }
  };
  for (const t of trades) {
    const price = new Decimal(t.price).toFixed();
    take(key(t.holdingId, t.tradeDate, t.tradeType, new Decimal(t.quantity).toFixed(), price), t);
    if (t.tradeType === "Cancellation") take(key(t.holdingId, t.tradeDate, t.tradeType, undefined, price), t);
  }
  const found: SkippedRow[] = [];
  for (const { line, data } of recorded) {
    const quantity =
      data.tradeType === "Cancellation" && !data.quantity
        ? undefined
        : signedQuantity(data.tradeType, data.quantity).toFixed();
    const candidates =
      unmatched[data.reference ? "unreferenced" : "any"].get(
        key(
          holdingOf.get(line)!.id,
          data.tradeDate,
          data.tradeType,
          quantity,
          (data.price ?? new Decimal(0)).toFixed(),
        ),
      ) ?? [];
    const id = candidates.find((c) => !used.has(c));
    if (id === undefined) continue;
    used.add(id);
    found.push({ line, duplicateOf: id });
  }
  return found;
}

/** 409: rows repeat recorded trades; each is named with its line and the trade it repeats. */
export function duplicatesFound(found: SkippedRow[]): DomainError {
  const errors = found.map((d) => ({
    ...rowError(
      d.line,
      "",
      d.reference
        ? `repeats trade ${d.duplicateOf} (same broker reference ${d.reference})`
        : `repeats trade ${d.duplicateOf} (same holding, date, type, quantity and price)`,
    ),
    duplicateOf: d.duplicateOf,
  }));
  const n = found.length;
  return new DomainError(
    "CONFLICT",
    `The import was refused: ${n} row${n === 1 ? " repeats a trade" : "s repeat trades"} already recorded; nothing was written. Send the import again with duplicates set to skip to leave ${n === 1 ? "it" : "them"} out, or to allow to import ${n === 1 ? "it" : "them"} anyway.`,
    errors,
  );
}
