import autocannon from "autocannon";

/**
 * B16: requests per second of one API process against two on one PostgreSQL database, for the
 * smallest read (GET /v1/sources) and a ledger read (the holdings of the 20,000-trade portfolio).
 * The same total of connections either way: in the two-process rounds each process gets half.
 * Rounds alternate one, two, two, one… The ratio is median(two) / median(one); the machine's
 * cores bound it (the database and both processes share them), so it says whether a second
 * process adds throughput or only contention.
 */

interface Target {
  base: string;
}

export async function scaleWorkload(opts: {
  one: Target;
  two: [Target, Target];
  key: string;
  paths: { name: string; path: string }[];
  rounds: number;
  seconds: number;
  connections: number;
}): Promise<void> {
  const hit = async (base: string, path: string, connections: number, seconds: number) => {
    const r = await autocannon({
      url: base + path,
      headers: { authorization: opts.key },
      connections,
      duration: seconds,
    });
    if (r.non2xx || r.errors) throw new Error(`B16 ${path}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    return r.requests.average;
  };
  const half = Math.max(1, Math.floor(opts.connections / 2));
  for (const { name, path } of opts.paths) {
    await hit(opts.one.base, path, opts.connections, 2);
    await Promise.all(opts.two.map((t) => hit(t.base, path, half, 2)));
    const one: number[] = [];
    const two: number[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const runOne = async () => one.push(await hit(opts.one.base, path, opts.connections, opts.seconds));
      const runTwo = async () =>
        two.push(
          (await Promise.all(opts.two.map((t) => hit(t.base, path, half, opts.seconds)))).reduce((a, b) => a + b, 0),
        );
      if (r % 2 === 0) {
        await runOne();
        await runTwo();
      } else {
        await runTwo();
        await runOne();
      }
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    console.log(
      JSON.stringify({
        workload: `B16 ${name}: one process vs two on one PostgreSQL`,
        database: "postgresql",
        node: process.version,
        oneProcessRps: Math.round(median(one)),
        twoProcessesRps: Math.round(median(two)),
        ratio: Math.round((median(two) / median(one)) * 100) / 100,
        rounds: opts.rounds,
        secondsPerRound: opts.seconds,
        connections: opts.connections,
      }),
    );
  }
}
