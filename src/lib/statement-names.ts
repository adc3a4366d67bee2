import type { SqlQuery } from "@prisma/driver-adapter-utils";

/** Statements with more parameters than this (a list unrolled as $1…$n, a bulk insert) go unnamed. */
const MAX_PARAMETERS = 32;
/** Distinct statements a process names at most; those after go unnamed. */
const MAX_NAMES = 500;

/**
 * Names for Prisma's statements on PostgreSQL (the adapter's statementNameGenerator), one per
 * statement text, so that pg prepares each on a connection once and the server parses and plans it
 * once per connection instead of on every execution: a process sends the same few shapes again
 * and again, and planning was a third of the database's time on a nested read (bench B4, 10×5×10).
 *
 * A named statement stays prepared for the connection's life (the pool closes a connection idle
 * for 10 s), so what is named is bounded: statements with at most MAX_PARAMETERS parameters, since
 * each length of an unrolled list is a text of its own, and at most MAX_NAMES texts a process.
 * Anything else gets the empty name, pg's unnamed statement, parsed each time as before. Names
 * are this process's own; pg keeps them per connection, and a pool's connections are never
 * shared between processes.
 */
export function statementNames(maxParameters = MAX_PARAMETERS, maxNames = MAX_NAMES): (query: SqlQuery) => string {
  const names = new Map<string, string>();
  return ({ sql, args }) => {
    if (args.length > maxParameters) return "";
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= maxNames) return "";
      names.set(sql, (name = `prisma_${names.size}`));
    }
    return name;
  };
}
