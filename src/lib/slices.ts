import { DomainError } from "./domain-errors";

/**
 * Long computations written as generators that `yield` at safe points, run either at once or in
 * slices that give the event loop a turn once a slice has held it for SLICE_MS: a ten-year daily
 * report of a large portfolio then does not hold up other requests (health checks included).
 *
 * Sliced work also stops when its request's signal aborts (the client hung up): nobody would read
 * the answer, and a computation left to finish keeps its CPU and memory from the requests that
 * are still waiting. It stops at the next step with CLIENT_CLOSED, which is not a failure (499).
 */
export const SLICE_MS = 8;

export type Steps<T> = Generator<void, T, void>;

/** The error a computation stops with when its client has gone (logged as 499, never as a 500). */
export const clientClosed = () =>
  new DomainError("CLIENT_CLOSED", "The client closed the request before the answer was ready; the work was stopped.");

/** Whether an error is a computation stopped because its client went away. */
export const isClientClosed = (error: unknown): boolean =>
  error instanceof DomainError && error.code === "CLIENT_CLOSED";

/** Throws CLIENT_CLOSED once `signal` has aborted. */
export function throwIfClosed(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw clientClosed();
}

/** Runs every step now. */
export function atOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps, yielding to the event loop between them whenever a slice has run SLICE_MS; stops when `signal` aborts. */
export async function inSlices<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  const slicer = new Slicer(signal);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slicer.due()) await slicer.turn();
  }
}

/**
 * For async code that loops over many items: `if (slicer.due()) await slicer.turn()` between items
 * gives the event loop a turn once the current slice has run SLICE_MS, and throws CLIENT_CLOSED
 * once `signal` has aborted (checked between every two items: a property read). Asking `due()`
 * first matters: an `await` costs a trip through the microtask queue even when nothing waits, and
 * an import of 20,000 rows made 20,000 of them.
 */
export class Slicer {
  private sliceStart = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  /** Whether the slice has run its time, or its client has gone: then `await turn()`. */
  due(): boolean {
    return performance.now() - this.sliceStart >= SLICE_MS || this.signal?.aborted === true;
  }

  async turn(): Promise<void> {
    throwIfClosed(this.signal);
    if (!this.due()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    throwIfClosed(this.signal);
    this.sliceStart = performance.now();
  }
}
