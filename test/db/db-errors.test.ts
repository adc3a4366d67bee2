import { toDomainError } from "../../src/lib/to-domain-error";
import { openTestDatabase, type TestDatabase } from "../support/db";

/**
 * The safety net under input validation: a value the database itself refuses (SQLSTATE class 22,
 * Prisma's out-of-range codes) is the client's fault, VALIDATION_FAILED, never INTERNAL. The
 * errors come from the real database, so a driver or Prisma upgrade that reshapes them fails here.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return toDomainError(error).code;
  }
  throw new Error("the statement did not fail");
}

it.each([
  [
    "22021 (NUL in text), through a model query",
    () => db.prisma.allocationModel.findFirst({ where: { publicId: "a\u0000b" } }),
  ],
  ["22021 (NUL in text), through a raw query", () => db.prisma.$queryRaw`SELECT ${"a\u0000b"}::text`],
  ["22P02 (not a number)", () => db.prisma.$queryRaw`SELECT ${"abc"}::int`],
  ["22003 (numeric overflow)", () => db.prisma.$queryRaw`SELECT ${"1e30"}::numeric(19, 4)`],
  ["22008 (no such date)", () => db.prisma.$queryRaw`SELECT ${"2024-02-30"}::date`],
  ["22025 (bad LIKE escape)", () => db.prisma.$queryRaw`SELECT ${"x"} LIKE ${"\\"}`],
  ["2201B (bad regular expression)", () => db.prisma.$queryRaw`SELECT 'a' ~ ${"("}`],
  [
    "P2020 (out of range for the column)",
    () => db.prisma.customPrice.create({ data: { holdingId: 1, date: new Date("2024-01-01"), price: "1e30" } }),
  ],
])("%s is VALIDATION_FAILED", async (_what, run) => {
  expect(await codeOf(run)).toBe("VALIDATION_FAILED");
});

it("a lone surrogate that breaks Prisma's own encoding is VALIDATION_FAILED", async () => {
  expect(
    await codeOf(() => db.prisma.customGroup.create({ data: { accountId: 1, name: "g", labels: ["\ud800"] } })),
  ).toBe("VALIDATION_FAILED");
});

it("the server's own faults stay INTERNAL: division by zero, a missing table", async () => {
  expect(await codeOf(() => db.prisma.$queryRaw`SELECT 1 / ${0}::int`)).toBe("INTERNAL");
  expect(await codeOf(() => db.prisma.$queryRawUnsafe("SELECT * FROM no_such_table"))).toBe("INTERNAL");
});
