import {
  drawFrom,
  refilled,
  retryAfterSeconds,
  stateOf,
  TokenBuckets,
  type RequestBucket,
} from "../../src/http/rate-limit";
import { MemoryBuckets } from "../../src/http/rate-limit-store";
import { DomainError } from "../../src/lib/domain-errors";

function harness(perSecond: number, burst: number) {
  let now = 0;
  const clock = () => now;
  const buckets = new TokenBuckets(perSecond, burst, new MemoryBuckets(clock), clock);
  const call = async (id: string): Promise<"ok" | DomainError> => {
    try {
      await buckets.take(id);
      return "ok";
    } catch (error) {
      return error as DomainError;
    }
  };
  const calls = async (id: string, n: number) => {
    const out: ("ok" | DomainError)[] = [];
    for (let i = 0; i < n; i++) out.push(await call(id));
    return out;
  };
  return { buckets, call, calls, advance: (ms: number) => (now += ms) };
}

const refusal = async (spend: () => Promise<unknown>): Promise<DomainError | undefined> => {
  try {
    await spend();
  } catch (error) {
    return error as DomainError;
  }
  return undefined;
};

describe("the bucket arithmetic (one rule for memory and PostgreSQL)", () => {
  const policy = { perSecond: 10, burst: 50 };

  it("refills at the rate, up to the burst, and never backwards", () => {
    expect(refilled(0, 100, policy)).toBeCloseTo(1);
    expect(refilled(49.5, 1_000, policy)).toBe(50);
    expect(refilled(3, -5_000, policy)).toBe(3);
  });

  it("takes only when the bucket holds every token asked; a check takes nothing", () => {
    expect(drawFrom(5, 5, true)).toEqual({ tokens: 0, enough: true });
    expect(drawFrom(4.9, 5, true)).toEqual({ tokens: 4.9, enough: false });
    expect(drawFrom(5, 5, false)).toEqual({ tokens: 5, enough: true });
  });

  it("says when to retry and what the headers hold", () => {
    expect(retryAfterSeconds(0, 1, policy)).toBe(1);
    expect(retryAfterSeconds(0, 25, policy)).toBe(3);
    // A request larger than the burst waits for a full bucket, not for the impossible.
    expect(retryAfterSeconds(0, 500, policy)).toBe(5);
    expect(stateOf(12.7, policy)).toEqual({ limit: 50, remaining: 12, resetSeconds: 4 });
    expect(stateOf(50, policy)).toEqual({ limit: 50, remaining: 50, resetSeconds: 0 });
  });
});

describe("token buckets (API.md §1 limits)", () => {
  it("let a burst through, then answer RATE_LIMITED with Retry-After", async () => {
    const h = harness(10, 50);
    expect(await h.calls("k1", 50)).toEqual(Array(50).fill("ok"));
    const refused = (await h.call("k1")) as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.headers).toEqual({ "Retry-After": "1" });
  });

  it("refill at the configured rate", async () => {
    const h = harness(10, 50);
    await h.calls("k1", 50);
    h.advance(100); // one token
    expect(await h.call("k1")).toBe("ok");
    expect(await h.call("k1")).toBeInstanceOf(DomainError);
    h.advance(1000); // ten tokens
    expect(await h.calls("k1", 10)).toEqual(Array(10).fill("ok"));
    expect(await h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("keep one bucket per id", async () => {
    const h = harness(1, 2);
    await h.calls("k1", 2);
    expect(await h.call("k1")).toBeInstanceOf(DomainError);
    expect(await h.call("k2")).toBe("ok");
  });

  it("check without spending", async () => {
    const h = harness(1, 1);
    await expect(h.buckets.check("k1")).resolves.toBeUndefined();
    await expect(h.buckets.check("k1")).resolves.toBeUndefined();
    await h.call("k1");
    await expect(h.buckets.check("k1")).rejects.toThrow(DomainError);
  });

  it("are off at 0 requests per second", async () => {
    const h = harness(0, 1);
    expect(await h.calls("k1", 100)).toEqual(Array(100).fill("ok"));
  });

  it("forget buckets that have refilled, which then start full", async () => {
    const h = harness(1, 3);
    await h.calls("k1", 3);
    h.advance(61_000);
    expect(await h.calls("k1", 3)).toEqual(["ok", "ok", "ok"]);
    expect(await h.call("k1")).toBeInstanceOf(DomainError);
  });
});

describe("a request's bucket (GraphQL spends by cost)", () => {
  it("spends several tokens at once, or none when they do not all fit", async () => {
    const h = harness(1, 10);
    await h.buckets.take("k1", 7);
    const refused = await refusal(() => h.buckets.take("k1", 4));
    expect(refused?.code).toBe("RATE_LIMITED");
    expect(refused?.headers).toEqual({ "Retry-After": "1" });
    expect(await h.calls("k1", 3)).toEqual(["ok", "ok", "ok"]);
    expect(await h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("brings what a request spent up to its total, counting the token it came in with", async () => {
    const h = harness(1, 10);
    const bucket = h.buckets.bucket("k1");
    await bucket.spend(1);
    await bucket.spend(4); // three more
    await bucket.spend(2); // already covered
    expect(await h.calls("k1", 6)).toEqual(Array(6).fill("ok"));
    expect(await h.call("k1")).toBeInstanceOf(DomainError);
  });

  it("says when a request costs more than a full bucket", async () => {
    const h = harness(1, 10);
    await expect(h.buckets.bucket("k1").spend(11)).rejects.toThrow(
      /costs 11 rate-limit tokens, more than the burst of 10/,
    );
    expect(await h.call("k1")).toBe("ok");
  });

  it("reports the bucket as it stands for the headers, refilled up to the moment they are written", async () => {
    const h = harness(2, 10);
    const bucket: RequestBucket = h.buckets.bucket("k1");
    expect(bucket.state()).toBeUndefined(); // nothing drawn yet
    await bucket.spend(4);
    expect(bucket.state()).toEqual({ limit: 10, remaining: 6, resetSeconds: 2 });
    h.advance(1_000);
    expect(bucket.state()).toEqual({ limit: 10, remaining: 8, resetSeconds: 1 });
    await h.calls("k1", 8);
    await expect(bucket.spend(5)).rejects.toThrow(DomainError);
    expect(bucket.state()).toEqual({ limit: 10, remaining: 0, resetSeconds: 5 });
  });
});
