import type { NextFunction, Request, Response } from "express";
import { rateLimit } from "../../src/http/rate-limit";
import { DomainError } from "../../src/lib/errors";

function harness(perSecond: number, burst: number) {
  let now = 0;
  const limiter = rateLimit({ perSecond, burst, now: () => now });
  const call = (key: string) => {
    let outcome: unknown = "none";
    const req = { headers: { authorization: key }, ip: "127.0.0.1" } as unknown as Request;
    const res = { setHeader: () => undefined } as unknown as Response;
    limiter(req, res, ((err?: unknown) => (outcome = err ?? "ok")) as NextFunction);
    return outcome;
  };
  return { call, advance: (ms: number) => (now += ms) };
}

describe("per-key token bucket (API.md §1 limits)", () => {
  it("lets a burst through, then answers RATE_LIMITED with Retry-After", () => {
    const h = harness(10, 50);
    for (let i = 0; i < 50; i++) expect(h.call("k1")).toBe("ok");
    const refused = h.call("k1") as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.headers).toEqual({ "Retry-After": "1" });
  });

  it("refills at the configured rate", () => {
    const h = harness(10, 50);
    for (let i = 0; i < 50; i++) h.call("k1");
    h.advance(100); // one token
    expect(h.call("k1")).toBe("ok");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
    h.advance(1000); // ten tokens
    for (let i = 0; i < 10; i++) expect(h.call("k1")).toBe("ok");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("keeps one bucket per key", () => {
    const h = harness(1, 2);
    h.call("k1");
    h.call("k1");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
    expect(h.call("k2")).toBe("ok");
  });

  it("is off at 0 requests per second", () => {
    const h = harness(0, 1);
    for (let i = 0; i < 100; i++) expect(h.call("k1")).toBe("ok");
  });
});
