import { toDomainError } from "../../src/lib/to-domain-error";

/**
 * Shapes that cannot be produced on demand in a test (a server's disk filling, a pool waiting out
 * its connect timeout), as @prisma/adapter-pg 7 and pg 8 hand them over; the ones that can are
 * produced for real in test/api/db-outage.test.ts.
 */
const prismaError = (code: string, cause: Record<string, unknown>) =>
  Object.assign(new Error("Invalid `prisma.portfolio.create()` invocation"), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });

describe("toDomainError for a database out of reach or out of space", () => {
  it.each([
    {
      what: "the server's disk full (53100)",
      error: prismaError("P2039", { kind: "postgres", originalCode: "53100", code: "53100" }),
      code: "INSUFFICIENT_STORAGE",
      status: 507,
    },
    {
      what: "a local ENOSPC",
      error: Object.assign(new Error("no space left on device, write"), { code: "ENOSPC" }),
      code: "INSUFFICIENT_STORAGE",
      status: 507,
    },
    {
      what: "a connection exception (08006)",
      error: prismaError("P2039", { kind: "postgres", originalCode: "08006" }),
      code: "UNAVAILABLE",
      status: 503,
    },
    {
      what: "the server starting up (57P03)",
      error: prismaError("P2039", { kind: "postgres", originalCode: "57P03" }),
      code: "UNAVAILABLE",
      status: 503,
    },
    {
      what: "too many connections (P2037)",
      error: prismaError("P2037", { kind: "TooManyConnections", cause: "sorry, too many clients already" }),
      code: "UNAVAILABLE",
      status: 503,
    },
    {
      what: "a connection reset (P1017)",
      error: prismaError("P1017", { kind: "ConnectionClosed" }),
      code: "UNAVAILABLE",
      status: 503,
    },
    {
      what: "a socket timeout (P1008)",
      error: prismaError("P1008", { kind: "SocketTimeout" }),
      code: "UNAVAILABLE",
      status: 503,
    },
    {
      what: "pg-pool's connect timeout",
      error: new Error("timeout exceeded when trying to connect"),
      code: "UNAVAILABLE",
      status: 503,
    },
    {
      what: "pg's connect timeout, wrapping the socket's end",
      error: new Error("Connection terminated due to connection timeout", {
        cause: new Error("Connection terminated unexpectedly"),
      }),
      code: "UNAVAILABLE",
      status: 503,
    },
  ])("$what → $code", ({ error, code, status }) => {
    const domain = toDomainError(error);
    expect([domain.code, domain.status]).toEqual([code, status]);
    if (code === "UNAVAILABLE") expect(domain.headers).toEqual({ "Retry-After": "5" });
  });

  it.each([
    {
      what: "a unique violation",
      error: prismaError("P2002", { kind: "UniqueConstraintViolation" }),
      code: "CONFLICT",
    },
    {
      what: "a value the column refuses (22P02)",
      error: prismaError("P2039", { kind: "postgres", originalCode: "22P02" }),
      code: "VALIDATION_FAILED",
    },
    {
      what: "wrong credentials (P1000): configuration, not an outage",
      error: prismaError("P1000", { kind: "AuthenticationFailed" }),
      code: "INTERNAL",
    },
    { what: "a plain bug", error: new TypeError("Cannot read properties of undefined"), code: "INTERNAL" },
  ])("leaves $what as $code", ({ error, code }) => {
    expect(toDomainError(error).code).toBe(code);
  });
});
