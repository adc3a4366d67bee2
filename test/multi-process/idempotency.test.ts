import { call, describeOnPostgres, startInstallation, type Installation } from "../support/processes";

/**
 * OPERATIONS.md §1, idempotency: an `Idempotency-Key` sent to several processes at once runs the
 * write once; every other answer is the first's result (replayed) or 409 while it runs
 * (docs/conventions.md §7.2).
 */
describeOnPostgres("one Idempotency-Key raced through three processes", () => {
  let site: Installation;
  beforeAll(async () => {
    site = await startInstallation(3);
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  const ROUNDS = 15;

  it("writes once per key; the others answer the same result or 409", async () => {
    const outcomes = { created: 0, replayed: 0, conflict: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const headers = { "idempotency-key": `race-${round}` };
      const body = { name: `Raced ${round}` };
      const answers = await Promise.all(
        site.processes.map((proc) => call(proc.base, "POST", "/v1/portfolios", { key: site.key, body, headers })),
      );
      const ok = answers.filter((a) => a.status === 201);
      for (const a of answers) {
        if (a.status === 201) continue;
        expect({ round, status: a.status, code: a.body.code }).toEqual({ round, status: 409, code: "CONFLICT" });
        expect(a.headers.get("retry-after")).toMatch(/^\d+$/);
        outcomes.conflict++;
      }
      // At least one ran; whoever else answered 201 answered the same portfolio, marked as a replay.
      expect(ok.length).toBeGreaterThanOrEqual(1);
      const fresh = ok.filter((a) => a.headers.get("idempotent-replayed") !== "true");
      expect(fresh).toHaveLength(1);
      for (const a of ok) expect(a.body).toEqual(fresh[0].body);
      outcomes.created++;
      outcomes.replayed += ok.length - 1;

      // Once it has run, a retry through every process gets its answer again.
      for (const proc of site.processes) {
        const retry = await call(proc.base, "POST", "/v1/portfolios", { key: site.key, body, headers });
        expect({ round, via: proc.index, status: retry.status }).toEqual({ round, via: proc.index, status: 201 });
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
        expect(retry.body).toEqual(fresh[0].body);
      }
    }
    const rows = await site.sql<{ name: string; n: string }>(
      `SELECT name, count(*)::text AS n FROM portfolio WHERE name LIKE 'Raced %' GROUP BY name`,
    );
    expect(rows).toHaveLength(ROUNDS);
    for (const r of rows) expect({ name: r.name, n: r.n }).toEqual({ name: r.name, n: "1" });
    expect(outcomes.created).toBe(ROUNDS);
  }, 120_000);
});
