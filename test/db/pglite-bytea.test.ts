import fs from "node:fs";
import { PGlite, types } from "@electric-sql/pglite";
import { nativeBytea } from "../../src/lib/pglite-bytea";

/**
 * The embedded database's bytea goes through Node's hex codec (src/lib/pglite-bytea.ts): PGlite's
 * own byte-at-a-time text took 11 s to store a 10 MiB attachment. What is stored and what is read
 * back must be what PGlite's own serializer and parser give, for every byte value, in and out of
 * a transaction, and the parsers a query passes (the Prisma adapter's) must still apply to the
 * other types. The 10 MiB round trip through the API is in test/api/trade-attachments.test.ts.
 */
const describePglite = process.env.TEST_DATABASE_URL ? describe.skip : describe;

describePglite("bytea on the embedded database", () => {
  let pglite: PGlite;
  let db: PGlite;
  const every = Uint8Array.from({ length: 512 }, (_, i) => (i * 7 + 3) % 256);

  beforeAll(async () => {
    pglite = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(process.env.TEST_PGLITE_SNAPSHOT!)]) });
    db = nativeBytea(pglite);
    await pglite.exec(`CREATE TEMP TABLE blob (id int PRIMARY KEY, data bytea)`);
  });
  afterAll(async () => pglite.close());

  it("stores the text PGlite's own serializer writes, for every byte value", async () => {
    expect(new Set(every).size).toBe(256);
    const ours = await db.query<{ t: string }>(`SELECT $1::bytea::text AS t`, [every]);
    const theirs = await pglite.query<{ t: string }>(`SELECT $1::bytea::text AS t`, [every]);
    expect(ours.rows[0].t).toBe(theirs.rows[0].t);
    expect(ours.rows[0].t).toBe("\\x" + Buffer.from(every).toString("hex"));
  });

  it("reads back what PGlite's own parser reads, a Uint8Array of the same bytes", async () => {
    await db.query(`INSERT INTO blob VALUES (1, $1), (2, $2), (3, NULL)`, [every, new Uint8Array(0)]);
    const ours = await db.query<{ data: Uint8Array | null }>(`SELECT data FROM blob ORDER BY id`);
    const theirs = await pglite.query<{ data: Uint8Array | null }>(`SELECT data FROM blob ORDER BY id`);
    expect(ours.rows.map((r) => r.data)).toEqual(theirs.rows.map((r) => r.data));
    expect(ours.rows[0].data).toBeInstanceOf(Uint8Array);
    expect(Buffer.compare(Buffer.from(ours.rows[0].data!), Buffer.from(every))).toBe(0);
    // Each value owns its bytes (a small Buffer would be a view of Node's shared pool).
    for (const { data } of ours.rows.slice(0, 2)) expect(data!.buffer.byteLength).toBe(data!.byteLength);
    expect(ours.rows[1].data).toHaveLength(0);
    expect(ours.rows[2].data).toBeNull();
  });

  it("does the same inside a transaction, and keeps a query's other parsers", async () => {
    const asNumber = { [types.INT4]: (text: string) => `int ${text}` };
    const read = await db.transaction(async (tx) => {
      await tx.query(`UPDATE blob SET data = $1 WHERE id = 2`, [every.subarray(5, 9)]);
      return tx.query<[string, Uint8Array]>(`SELECT id, data FROM blob WHERE id = 2`, [], {
        rowMode: "array",
        parsers: asNumber,
      });
    });
    expect(read.rows[0][0]).toBe("int 2");
    expect([...read.rows[0][1]]).toEqual([...every.subarray(5, 9)]);
  });

  it("refuses a parameter for bytea that is not bytes, as PGlite does", async () => {
    await expect(db.query(`SELECT $1::bytea`, [{ not: "bytes" }])).rejects.toThrow("Invalid input for bytea type");
  });
});
