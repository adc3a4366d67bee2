/**
 * Long computations written as generators that `yield` at safe points, run either at once or in
 * slices that give the event loop a turn once a slice has held it for SLICE_MS: a ten-year daily
 * report of a large portfolio then does not hold up other requests (health checks included).
 */
export const SLICE_MS = 8;

export type Steps<T> = Generator<void, T, void>;

/** Runs every step now. */
export function atOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps, yielding to the event loop between them whenever a slice has run SLICE_MS. */
export async function inSlices<T>(steps: Steps<T>): Promise<T> {
  const slicer = new Slicer();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slicer.turn();
  }
}

/**
 * For async code that loops over many items: `await slicer.turn()` between items gives the event
 * loop a turn once the current slice has run SLICE_MS (and costs nothing otherwise).
 */
export class Slicer {
  private sliceStart = performance.now();

  async turn(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
