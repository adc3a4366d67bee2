import { call, describeOnPostgres, startInstallation, type Installation } from "../support/processes";

/**
 * OPERATIONS.md §1, API keys: a process may cache a key lookup, but a revoked key
 * (DELETE /v1/clients/{id}/api-keys) is refused by every process within 1 s of the revocation's
 * answer, however warm its cache.
 */
const WITHIN_MS = 1_000;

describeOnPostgres("a client login key revoked through one of three processes", () => {
  let site: Installation;
  beforeAll(async () => {
    site = await startInstallation(3);
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  it("is refused by every process within 1 s", async () => {
    const [a] = site.processes;
    const client = await call(a.base, "POST", "/v1/clients", {
      key: site.key,
      body: { firstName: "Ana", lastName: "Silva" },
    });
    expect(client.status).toBe(201);
    const issued = await call(a.base, "POST", `/v1/clients/${client.body.id}/api-keys`, { key: site.key, body: {} });
    expect(issued.status).toBe(201);
    const loginKey = issued.body.key as string;

    const portfolios = (base: string) => call(base, "GET", "/v1/portfolios", { key: loginKey });
    // Warm: every process has accepted the key, several times.
    for (let i = 0; i < 3; i++)
      for (const proc of site.processes) expect((await portfolios(proc.base)).status).toBe(200);

    const revoked = await call(a.base, "DELETE", `/v1/clients/${client.body.id}/api-keys`, { key: site.key });
    expect(revoked.status).toBeLessThan(300);
    const revokedAt = Date.now();

    const refusedAfter = await Promise.all(
      site.processes.map(async (proc) => {
        for (;;) {
          const answer = await portfolios(proc.base);
          if (answer.status === 401) return { process: proc.index, ms: Date.now() - revokedAt };
          expect(answer.status).toBe(200);
          if (Date.now() - revokedAt > 5 * WITHIN_MS) return { process: proc.index, ms: Infinity };
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
    for (const r of refusedAfter) expect(r.ms).toBeLessThanOrEqual(WITHIN_MS);
    // And it stays refused everywhere.
    for (const proc of site.processes) {
      const answer = await portfolios(proc.base);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe("UNAUTHENTICATED");
    }
  }, 60_000);
});
