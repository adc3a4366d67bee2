import { call, describeOnPostgres, startInstallation, type Installation } from "../support/processes";

/**
 * OPERATIONS.md §1, rate limit: one bucket per key for the whole installation, kept in
 * PostgreSQL. One key sending to three processes for about 3 s is admitted at most the
 * configured rate over that time plus one burst in total, not three times that.
 */
const RATE = 2;
const BURST = 5;
const HAMMER_MS = 3_000;
const PER_PROCESS = 2;

describeOnPostgres("one key's rate limit across three processes", () => {
  let site: Installation;
  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_SECOND: String(RATE), RATE_LIMIT_BURST: String(BURST) };
    site = await startInstallation(3, { env });
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  it("admits at most rate × t + burst in total", async () => {
    const statuses = new Map<number, number[]>(site.processes.map((p) => [p.index, []]));
    const started = Date.now();
    let lastAnswer = started;
    // Clients on every process at once, each sending as soon as it has its answer.
    await Promise.all(
      site.processes.flatMap((proc) =>
        Array.from({ length: PER_PROCESS }, async () => {
          while (Date.now() - started < HAMMER_MS) {
            const answer = await call(proc.base, "GET", "/v1/sources", { key: site.key });
            lastAnswer = Math.max(lastAnswer, Date.now());
            statuses.get(proc.index)!.push(answer.status);
          }
        }),
      ),
    );
    const all = [...statuses.values()].flat();
    for (const s of all) expect([200, 429]).toContain(s);
    const admitted = all.filter((s) => s === 200).length;
    const seconds = (lastAnswer - started) / 1000;
    const allowed = Math.floor(RATE * seconds + BURST);
    const perProcess = Object.fromEntries([...statuses].map(([i, list]) => [i, list.filter((s) => s === 200).length]));
    expect({ admitted, perProcess, withinLimit: admitted <= allowed }).toEqual({
      admitted,
      perProcess,
      withinLimit: true,
    });
    // The limit was reached (each process refused some), and the burst was served.
    expect(admitted).toBeGreaterThanOrEqual(BURST);
    for (const list of statuses.values()) expect(list).toContain(429);
  }, 60_000);
});
