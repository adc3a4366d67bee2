import { TokenBuckets } from "../../src/http/rate-limit";
import { DomainError } from "../../src/lib/domain-errors";

function harness(perSecond: number, burst: number) {
  let now = 0;
  const buckets = new TokenBuckets(perSecond, burst, () => now);
  const call = (id: string): "ok" | DomainError => {
    try {
      buckets.take(id);
      return "ok";
    } catch (error) {
      return error as DomainError;
    }
  };
  return { buckets, call, advance: (ms: number) => (now += ms) };
}

describe("token buckets (API.md §1 limits)", () => {
  it("let a burst through, then answer RATE_LIMITED with Retry-After", () => {
    const h = harness(10, 50);
    for (let i = 0; i < 50; i++) expect(h.call("k1")).toBe("ok");
    const refused = h.call("k1") as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.headers).toEqual({ "Retry-After": "1" });
  });

  it("refill at the configured rate", () => {
    const h = harness(10, 50);
    for (let i = 0; i < 50; i++) h.call("k1");
    h.advance(100); // one token
    expect(h.call("k1")).toBe("ok");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
    h.advance(1000); // ten tokens
    for (let i = 0; i < 10; i++) expect(h.call("k1")).toBe("ok");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("keep one bucket per id", () => {
    const h = harness(1, 2);
    h.call("k1");
    h.call("k1");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
    expect(h.call("k2")).toBe("ok");
  });

  it("check without spending", () => {
    const h = harness(1, 1);
    expect(() => h.buckets.check("k1")).not.toThrow();
    expect(() => h.buckets.check("k1")).not.toThrow();
    h.call("k1");
    expect(() => h.buckets.check("k1")).toThrow(DomainError);
  });

  it("are off at 0 requests per second", () => {
    const h = harness(0, 1);
    for (let i = 0; i < 100; i++) expect(h.call("k1")).toBe("ok");
  });
});

describe("a request's bucket (GraphQL spends by cost)", () => {
  it("spends several tokens at once, or none when they do not all fit", () => {
    const h = harness(1, 10);
    h.buckets.take("k1", 7);
    const refused = (() => {
      try {
        h.buckets.take("k1", 4);
      } catch (error) {
        return error as DomainError;
      }
    })();
    expect(refused?.code).toBe("RATE_LIMITED");
    expect(refused?.headers).toEqual({ "Retry-After": "1" });
    for (let i = 0; i < 3; i++) expect(h.call("k1")).toBe("ok");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("brings what a request spent up to its total, counting the token it came in with", () => {
    const h = harness(1, 10);
    const bucket = h.buckets.bucket("k1");
    bucket.spend(1);
    bucket.spend(4); // three more
    bucket.spend(2); // already covered
    for (let i = 0; i < 6; i++) expect(h.call("k1")).toBe("ok");
    expect(h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("says when a request costs more than a full bucket", () => {
    const h = harness(1, 10);
    expect(() => h.buckets.bucket("k1").spend(11)).toThrow(/costs 11 rate-limit tokens, more than the burst of 10/);
    expect(h.call("k1")).toBe("ok");
  });
});
