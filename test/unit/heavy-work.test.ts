import { DomainError } from "../../src/lib/domain-errors";
import { HeavyWork, heavyWork, type HeavyWorkLimits } from "../../src/lib/heavy-work";
import { inSlices, type Steps } from "../../src/lib/slices";
import { pointCount, pointDates } from "../../src/modules/analytics/intervals";

/**
 * The gate on heavy computations (src/lib/heavy-work.ts), the abort of sliced work
 * (src/lib/slices.ts) and the point count the series limit is checked with, as pure units.
 */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A computation held open until `finish()`; `started` says whether it got a slot. */
function held(gate: HeavyWork, key: string, signal?: AbortSignal) {
  const open = deferred();
  const state = { started: false, result: undefined as Promise<string> | undefined, finish: open.resolve };
  state.result = gate.run(key, signal, async () => {
    state.started = true;
    await open.promise;
    return key;
  });
  state.result.catch(() => undefined);
  return state;
}

const refusal = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};

const tick = () => new Promise((r) => setImmediate(r));
const limits = (l: Partial<HeavyWorkLimits> = {}): HeavyWorkLimits => ({
  maxRunning: 4,
  maxRunningPerKey: 2,
  maxQueued: 8,
  maxQueuedPerKey: 2,
  ...l,
});

describe("HeavyWork", () => {
  it("runs a key's share at once, queues its next ones, and refuses beyond its queue with 429 and Retry-After", async () => {
    const gate = new HeavyWork(limits({ maxQueuedPerKey: 1 }));
    const a = held(gate, "k1");
    const b = held(gate, "k1");
    const c = held(gate, "k1");
    await tick();
    expect([a.started, b.started, c.started]).toEqual([true, true, false]);
    expect(gate.stats("k1")).toEqual({ running: 2, waiting: 1 });
    const refused = await refusal(gate.run("k1", undefined, async () => "never"));
    expect(refused).toMatchObject({ code: "RATE_LIMITED", status: 429, headers: { "Retry-After": "1" } });
    expect(refused.message).toMatch(/ANALYTICS_MAX_CONCURRENT_PER_KEY 2/);
    // Another key is not held up by k1's backlog.
    const other = held(gate, "k2");
    await tick();
    expect(other.started).toBe(true);
    a.finish();
    await expect(a.result).resolves.toBe("k1");
    await tick();
    expect(c.started).toBe(true);
    b.finish();
    c.finish();
    other.finish();
    await Promise.all([b.result, c.result, other.result]);
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it("answers 503 with Retry-After when the process's slots and queue are full", async () => {
    const gate = new HeavyWork(limits({ maxRunning: 1, maxQueued: 1 }));
    const a = held(gate, "k1");
    const b = held(gate, "k2");
    await tick();
    expect([a.started, b.started]).toEqual([true, false]);
    const refused = await refusal(gate.run("k3", undefined, async () => "never"));
    expect(refused).toMatchObject({ code: "UNAVAILABLE", status: 503, headers: { "Retry-After": "1" } });
    expect(refused.message).toMatch(/ANALYTICS_MAX_CONCURRENT 1.*ANALYTICS_MAX_QUEUED 1/);
    a.finish();
    await a.result;
    await tick();
    expect(b.started).toBe(true);
    b.finish();
    await b.result;
  });

  it("a key with nothing of its own in the way is told the process is full (503), not 429", async () => {
    const gate = new HeavyWork(limits({ maxRunning: 1, maxQueuedPerKey: 0 }));
    const a = held(gate, "k1");
    await tick();
    expect(await refusal(gate.run("k2", undefined, async () => "never"))).toMatchObject({ code: "UNAVAILABLE" });
    a.finish();
    await a.result;
  });

  it("gives the slot back on an error and on an abort, and a waiter whose client leaves quits the queue", async () => {
    const gate = new HeavyWork(limits({ maxRunning: 1 }));
    await expect(gate.run("k1", undefined, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });

    const running = new AbortController();
    const a = gate.run(
      "k1",
      running.signal,
      () =>
        new Promise<string>((_resolve, reject) =>
          running.signal.addEventListener("abort", () => reject(new DomainError("CLIENT_CLOSED", "gone"))),
        ),
    );
    const leaving = new AbortController();
    const waiting = held(gate, "k2", leaving.signal);
    const after = held(gate, "k3");
    await tick();
    expect(gate.stats()).toEqual({ running: 1, waiting: 2 });
    leaving.abort();
    expect(await refusal(waiting.result!)).toMatchObject({ code: "CLIENT_CLOSED" });
    expect(gate.stats()).toEqual({ running: 1, waiting: 1 });
    running.abort();
    await expect(a).rejects.toMatchObject({ code: "CLIENT_CLOSED" });
    await tick();
    expect(after.started).toBe(true);
    after.finish();
    await after.result;
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    expect(waiting.started).toBe(false);
  });

  it("refuses at once a request whose client has already gone", async () => {
    const gate = new HeavyWork(limits());
    const gone = new AbortController();
    gone.abort();
    let ran = false;
    expect(await refusal(gate.run("k1", gone.signal, async () => void (ran = true)))).toMatchObject({
      code: "CLIENT_CLOSED",
      status: 499,
    });
    expect(ran).toBe(false);
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });
});

describe("inSlices with a signal", () => {
  it("stops at the step after the abort with CLIENT_CLOSED, and runs no step more", async () => {
    const controller = new AbortController();
    let steps = 0;
    function* work(): Steps<number> {
      for (let i = 0; i < 1_000; i++) {
        steps++;
        if (steps === 10) controller.abort();
        yield;
      }
      return steps;
    }
    await expect(inSlices(work(), controller.signal)).rejects.toMatchObject({ code: "CLIENT_CLOSED" });
    expect(steps).toBe(10);
  });

  it("without an abort runs to the end", async () => {
    function* work(): Steps<number> {
      let n = 0;
      for (let i = 0; i < 100; i++) {
        n++;
        yield;
      }
      return n;
    }
    await expect(inSlices(work(), new AbortController().signal)).resolves.toBe(100);
  });
});

describe("pointCount", () => {
  it.each([
    ["2018-01-01", "2019-12-31"],
    ["2018-01-31", "2018-03-01"],
    ["2020-02-29", "2021-02-28"],
    ["1969-12-25", "1970-01-20"],
    ["1900-01-01", "1900-01-01"],
    ["1900-01-01", "1900-01-02"],
    ["2024-06-02", "2024-06-30"],
    ["1950-03-05", "1957-11-17"],
  ])("gives as many points as pointDates lists, %s to %s", (from, to) => {
    for (const interval of ["day", "week", "month"] as const)
      expect(pointCount(from, to, interval)).toBe(pointDates(from, to, interval).length);
  });
});

describe("heavyWork: one request holds one slot at most", () => {
  const context = (gate: HeavyWork, keyId = 1) => ({ analytics: { heavyWork: gate }, principal: { keyId } });

  it("runs a request's many computations one after another in one slot, so its own key's share never refuses it", async () => {
    // Per key: 2 running, 2 waiting. 11 fields of one GraphQL request (portfolios { performance })
    // took 11 slots before: 2 ran, 2 waited and the 5th answered 429 for the whole request.
    const gate = new HeavyWork(limits({ maxRunningPerKey: 2, maxQueuedPerKey: 2 }));
    const ctx = context(gate);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (i: number) => async () => {
      most = Math.max(most, ++running);
      await tick();
      order.push(i);
      running--;
      return i;
    };
    const answers = await Promise.all(Array.from({ length: 11 }, (_, i) => heavyWork(ctx, work(i))));
    expect(answers).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(order).toEqual(answers);
    expect(most).toBe(1);
    await tick();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    // The slot is given back once the last one ends: the next request takes a new one.
    expect(await heavyWork(ctx, async () => "again")).toBe("again");
  });

  it("settles each computation with its own result or error, and refuses all of them when the gate refuses the first", async () => {
    const gate = new HeavyWork(limits({ maxRunning: 1, maxRunningPerKey: 1, maxQueued: 0, maxQueuedPerKey: 0 }));
    const other = held(gate, "key:2");
    await tick();
    const ctx = context(gate);
    const refused = [heavyWork(ctx, async () => 1), heavyWork(ctx, async () => 2)];
    for (const p of refused) expect((await refusal(p)).code).toBe("UNAVAILABLE");
    other.finish();
    await other.result;
    const failing = heavyWork(ctx, async () => {
      throw new Error("one field failed");
    });
    const fine = heavyWork(ctx, async () => "the next still runs");
    await expect(failing).rejects.toThrow("one field failed");
    await expect(fine).resolves.toBe("the next still runs");
    await tick();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });
});
