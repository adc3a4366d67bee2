import { Prisma } from "../../../generated/prisma/client";

/**
 * The units a holding held at the start of a date, in SQL, to read beside other columns: its
 * trades dated before the date (quantities are stored signed; a Cancellation stores the units it
 * took) plus the units DRP allotments paid before it added, as the ledger's load reads them
 * (load.ts). One rule for a dividend's units on its ex-date and a split's on its date.
 * `holdingId` and `date` are SQL expressions of the caller's query (e.g. `h.id`, `d.ex_date`).
 */
export const unitsHeldAtStartOfSql = (holdingId: Prisma.Sql, date: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`(
    coalesce((SELECT sum(t.quantity) FROM trade t WHERE t.holding_id = ${holdingId} AND t.trade_date < ${date}), 0)
    + coalesce((SELECT sum(r.drp_quantity) FROM income r
                WHERE r.holding_id = ${holdingId} AND r.is_reinvested AND r.drp_quantity > 0 AND r.paid_date < ${date}), 0))`;
