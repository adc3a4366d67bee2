import { openDatabase, type Database } from "../../src/db";
import { statementNames } from "../../src/lib/statement-names";
import { openTestDatabase, type TestDatabase } from "../support/db";

/**
 * Prisma's statements on PostgreSQL are prepared once per connection (src/lib/statement-names.ts):
 * the same text always gets the same name, and what is named is bounded.
 */
const query = (sql: string, parameters = 0) => ({
  sql,
  args: Array.from({ length: parameters }, (_, i) => i),
  argTypes: [],
});

describe("statement names", () => {
  it("gives one text one name, and another text another", () => {
    const name = statementNames();
    const a = name(query("SELECT 1"));
    expect(a).toMatch(/^prisma_\d+$/);
    expect(name(query("SELECT 2"))).not.toBe(a);
    expect(name(query("SELECT 1"))).toBe(a);
  });

  it("leaves a statement with many parameters unnamed: each length of an unrolled list is a text of its own", () => {
    const name = statementNames(3);
    expect(name(query("SELECT $1, $2, $3", 3))).not.toBe("");
    expect(name(query("SELECT $1, $2, $3, $4", 4))).toBe("");
  });

  it("names at most so many texts a process; the rest go unnamed, and the named keep their names", () => {
    const name = statementNames(32, 2);
    const first = name(query("SELECT 1"));
    name(query("SELECT 2"));
    expect(name(query("SELECT 3"))).toBe("");
    expect(name(query("SELECT 1"))).toBe(first);
  });
});

const describeOnPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

describeOnPostgres("on PostgreSQL", () => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await openTestDatabase();
    // One connection, so that the statements read back below are the ones this test sent.
    db = await openDatabase({ url: test.url, migrate: false, poolSize: 1 });
  });
  afterAll(async () => {
    await db?.close();
    await test?.close();
  });

  const prepared = () =>
    db.prisma.$queryRawUnsafe<{ name: string; statement: string }[]>(
      `SELECT name, statement FROM pg_prepared_statements ORDER BY name`,
    );

  it("the server holds a read Prisma sent, prepared under its name, and the read still answers", async () => {
    const first = await db.prisma.source.findMany({ select: { name: true }, orderBy: { name: "asc" } });
    const again = await db.prisma.source.findMany({ select: { name: true }, orderBy: { name: "asc" } });
    expect(again).toEqual(first);
    expect(first.length).toBeGreaterThan(0);
    const sourceReads = (await prepared()).filter(
      (s) => /^prisma_\d+$/.test(s.name) && s.statement.includes('"source"'),
    );
    expect(sourceReads).toHaveLength(1);
  });

  it("a statement with many parameters is not kept", async () => {
    const placeholders = Array.from({ length: 40 }, (_, i) => `$${i + 1}::int`).join(" + ");
    const [{ sum }] = await db.prisma.$queryRawUnsafe<{ sum: number }[]>(
      `SELECT ${placeholders} AS sum`,
      ...Array.from({ length: 40 }, () => 1),
    );
    expect(Number(sum)).toBe(40);
    expect((await prepared()).filter((s) => s.statement.includes("$40"))).toEqual([]);
  });
});
