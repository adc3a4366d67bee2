/**
 * Reads whose lists an account can make longer than one statement takes. Prisma spends a bind
 * parameter on every value of an `in` list, and, reading a nested list, on every parent row;
 * PostgreSQL takes at most 32,767 a statement, and nothing caps an account's portfolios (an
 * adviser's book of 33,000 answered 500). Up to ID_SLICE ids or rows, such a read is the one
 * statement it always was; past that, one statement per ID_SLICE.
 */
export const ID_SLICE = 10_000;

/** `read` of each slice of `ids` in turn (ID_SLICE at most each), the rows of all in slice order. */
export async function readBySlices<I, R>(ids: readonly I[], read: (slice: I[]) => Promise<R[]>): Promise<R[]> {
  if (ids.length <= ID_SLICE) return read([...ids]);
  const rows: R[] = [];
  for (let at = 0; at < ids.length; at += ID_SLICE) {
    for (const row of await read(ids.slice(at, at + ID_SLICE))) rows.push(row);
  }
  return rows;
}

/**
 * Every row of a read by id, ID_SLICE at a time (keyset pages): `read(after, take)` answers at
 * most `take` rows with an id above `after`, in id order. For a read with nested lists, whose
 * parents Prisma names one parameter each.
 */
export async function readAllById<R extends { id: number }>(
  read: (after: number, take: number) => Promise<R[]>,
): Promise<R[]> {
  const rows: R[] = [];
  for (let after = 0; ;) {
    const page = await read(after, ID_SLICE);
    for (const row of page) rows.push(row);
    if (page.length < ID_SLICE) return rows;
    after = page[page.length - 1].id;
  }
}
