import { heldPost, exitWithin } from "../process/spawn";
import {
  call,
  describeOnPostgres,
  loggedAt,
  startInstallation,
  type ApiProcess,
  type Installation,
} from "../support/processes";

/**
 * OPERATIONS.md §1, shutdown: a rolling restart of one process under load fails no request that a
 * client did not send to it after it stopped accepting. The test plays the load balancer: it
 * routes round-robin over the processes in rotation and takes one out when its /ready stops
 * answering 200 (checked every 100 ms, as a health check would). On SIGTERM the process answers
 * /ready 503 at once and keeps serving for SHUTDOWN_DELAY_MS, then stops accepting, finishes what
 * it was answering, and exits 0; its replacement joins the rotation once ready.
 */
const CHECK_EVERY_MS = 100;
const SHUTDOWN_DELAY_MS = 1_500;
const WORKERS = 6;

interface Sent {
  target: ApiProcess;
  sentAt: number;
  ok: boolean;
  status?: number;
  error?: string;
  id?: number;
}

describeOnPostgres("a rolling restart of one of three processes under load", () => {
  let site: Installation;
  beforeAll(async () => {
    site = await startInstallation(3, { env: { SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS) } });
  }, 120_000);
  afterAll(() => site?.stop(), 60_000);

  it("fails no request but those sent to the stopping process after it stopped accepting", async () => {
    const rotation = new Set<ApiProcess>(site.processes);
    const notReady = new Map<ApiProcess, { at: number; status: number; type: string | null }>();
    let running = true;

    // The load balancer's health check.
    const checks = (async () => {
      while (running) {
        for (const proc of [...site.processes]) {
          const at = Date.now();
          const answer = await fetch(proc.base + "/ready").then(
            (r) => ({ status: r.status, type: r.headers.get("content-type") }),
            () => ({ status: 0, type: null }),
          );
          if (answer.status === 200) rotation.add(proc);
          else {
            rotation.delete(proc);
            if (!notReady.has(proc)) notReady.set(proc, { at, ...answer });
          }
        }
        await new Promise((r) => setTimeout(r, CHECK_EVERY_MS));
      }
    })();

    // The clients: writes and reads, round-robin over the rotation.
    const sent: Sent[] = [];
    let turn = 0;
    const worker = async (w: number) => {
      for (let i = 0; running; i++) {
        const targets = [...rotation];
        if (targets.length === 0) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const target = targets[turn++ % targets.length];
        const record: Sent = { target, sentAt: Date.now(), ok: false };
        sent.push(record);
        try {
          const write = i % 2 === 0;
          const answer = write
            ? await call(target.base, "POST", "/v1/portfolios", { key: site.key, body: { name: `load ${w}.${i}` } })
            : await call(target.base, "GET", "/v1/portfolios", { key: site.key });
          record.status = answer.status;
          record.ok = answer.status === (write ? 201 : 200);
          if (write && record.ok) record.id = answer.body.id;
        } catch (error) {
          record.error = String((error as Error).cause ?? error);
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    await new Promise((r) => setTimeout(r, 1_500));
    const stopping = site.processes[1];
    // A request in flight across the signal: its headers are read, its body comes after.
    const held = heldPost(stopping.base, "/v1/portfolios", site.key, { name: "held across SIGTERM" });
    await new Promise((r) => setTimeout(r, 200));
    const signalledAt = Date.now();
    stopping.child.kill("SIGTERM");
    const stoppedAccepting = async () => {
      for (let i = 0; i < 200 && loggedAt(stopping, /^stopped accepting/) === null; i++)
        await new Promise((r) => setTimeout(r, 25));
      return loggedAt(stopping, /^stopped accepting/);
    };
    const closedAt = await stoppedAccepting();
    held.finish();
    const heldAnswer = await held.response;
    expect(await exitWithin(stopping, 20_000)).toBe(0);
    expect(stopping.output()).toContain('"msg":"stopped"');

    const replacement = await site.replace(1);
    // The replacement takes requests once the health check has seen it ready.
    const sentBefore = sent.length;
    while (!rotation.has(replacement)) await new Promise((r) => setTimeout(r, 20));
    while (sent.slice(sentBefore).filter((s) => s.target === replacement).length < 10)
      await new Promise((r) => setTimeout(r, 20));
    running = false;
    await Promise.all([load, checks]);

    // /ready went 503 (problem+json) before the process stopped accepting, soon after the signal.
    expect(closedAt).not.toBeNull();
    const down = notReady.get(stopping);
    expect(down).toMatchObject({ status: 503, type: expect.stringContaining("application/problem+json") });
    expect(closedAt! - signalledAt).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS - 100);
    expect(down!.at).toBeLessThan(closedAt!);
    // It went on serving what it was sent meanwhile, and finished the request in flight.
    const servedWhileLeaving = sent.filter((s) => s.target === stopping && s.sentAt >= signalledAt && s.ok);
    expect(heldAnswer).toMatchObject({ status: 201, connection: "close" });

    const failed = sent.filter((s) => !s.ok);
    const excused = failed.filter((s) => s.target === stopping && s.sentAt >= closedAt!);
    const summary = {
      requests: sent.length,
      failed: failed.length,
      excused: excused.length,
      servedWhileLeaving: servedWhileLeaving.length,
    };
    expect({ ...summary, unexcused: failed.filter((s) => !excused.includes(s)).map(describeSent) }).toEqual({
      ...summary,
      unexcused: [],
    });
    expect(sent.filter((s) => s.target === replacement && s.ok).length).toBeGreaterThanOrEqual(10);

    // Every write answered 201 is there, once; no write ran without its answer.
    const ids = sent.filter((s) => s.id !== undefined).map((s) => s.id!);
    ids.push(JSON.parse(heldAnswer.body).id);
    const rows = await site.sql<{ id: number }>(`SELECT id FROM portfolio ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual([...ids].sort((a, b) => a - b));
  }, 180_000);
});

function describeSent(s: Sent) {
  return { process: s.target.index, port: s.target.port, sentAt: s.sentAt, status: s.status, error: s.error };
}
