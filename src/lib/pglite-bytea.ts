import { types, type PGlite, type Transaction } from "@electric-sql/pglite";

/**
 * bytea on the embedded database, through Node's hex codec. PGlite writes a bytea parameter a byte
 * at a time (an array of two-digit strings, joined) and the Prisma adapter reads one back the same
 * way (a parseInt a byte): storing a 10 MiB trade attachment took 11 s, reading it 1 s. The text
 * is the same (`\x` and two hex digits a byte, PostgreSQL's bytea_output), so is what is stored.
 * What the adapter asks for in each query's options (its parsers) stays as it is but for bytea.
 */

type QueryOptions = NonNullable<Parameters<PGlite["query"]>[2]>;
type Queryable = Pick<PGlite, "query">;

const serializeBytea = (value: unknown): string => {
  if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
  return "\\x" + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
};

/** Decoded into an array of its own, as PGlite's parser gives (a small Buffer would be a view of Node's shared pool). */
const parseBytea = (text: string): Uint8Array => {
  const bytes = new Uint8Array((text.length - 2) >>> 1);
  Buffer.from(bytes.buffer).write(text.slice(2), "hex");
  return bytes;
};

/** The parsers of each set the adapter passes (one object, given with every query), bytea's replaced. */
const withBytea = new WeakMap<object, Record<number, unknown>>();
const ONLY_BYTEA = { [types.BYTEA]: parseBytea };
const SERIALIZERS = { [types.BYTEA]: serializeBytea };

function options(given: QueryOptions | undefined): QueryOptions {
  const parsers = given?.parsers;
  let merged = parsers ? withBytea.get(parsers) : ONLY_BYTEA;
  if (!merged) withBytea.set(parsers!, (merged = { ...parsers, [types.BYTEA]: parseBytea }));
  return {
    ...given,
    parsers: merged as QueryOptions["parsers"],
    // The adapter passes none: the one object serves every query.
    serializers: given?.serializers ? { ...given.serializers, ...SERIALIZERS } : SERIALIZERS,
  };
}

/** `query` of `target` with bytea through the hex codec; every other member as the target has it. */
function hexQueries<T extends Queryable>(target: T, also: (property: string | symbol) => unknown): T {
  return new Proxy(target, {
    get(object, property) {
      if (property === "query")
        return (sql: string, params?: unknown[], given?: QueryOptions) => object.query(sql, params, options(given));
      const own = also(property);
      if (own !== undefined) return own;
      // PGlite's methods use private fields: they run on the database itself, not the proxy.
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/** The database as the Prisma adapter sees it: its queries, in transactions too, read and write bytea natively. */
export function nativeBytea(db: PGlite): PGlite {
  return hexQueries(db, (property) =>
    property === "transaction"
      ? <R>(callback: (tx: Transaction) => Promise<R>) =>
          db.transaction((tx) => callback(hexQueries(tx, () => undefined)))
      : undefined,
  );
}
