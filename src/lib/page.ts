/** One page of a longer list, with what a client needs to ask for the rest (REST: X-Total-Count, Link). */
export interface Page<T> {
  items: T[];
  /** Rows matching the filters before paging. */
  total: number;
  limit: number;
  offset: number;
}

/** The page `offset..offset+limit` of rows already filtered, in order. */
export function pageOf<T>(rows: T[], q: { limit: number; offset: number }): Page<T> {
  return { items: rows.slice(q.offset, q.offset + q.limit), total: rows.length, limit: q.limit, offset: q.offset };
}
