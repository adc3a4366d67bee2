import net from "node:net";
import { GraphQLError } from "graphql";
import pino from "pino";
import request from "supertest";
import { createApp, type App } from "../../src/app";
import { openDatabase, type Database } from "../../src/db";
import { formatError } from "../../src/graphql/format-error";
import { toDomainError } from "../../src/lib/to-domain-error";
import { createAccountKey } from "../../src/modules/accounts/accounts.service";
import { openTestDatabase, type TestDatabase } from "../support/db";

/**
 * A lost PostgreSQL (README: Limits and protections): a TCP proxy stands between the service and
 * the server and is cut, then restored. While cut, REST, GraphQL and /ready answer 503 UNAVAILABLE
 * with Retry-After, fast; once restored the same process answers 200 again. PostgreSQL only.
 */

/** Forwards to the database; `cut` drops every connection and refuses new ones, `blackhole` accepts and never answers. */
class TcpProxy {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async forward(): Promise<void> {
    await this.listen((client) => {
      const upstream = net.connect(this.target);
      this.track(upstream);
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
  }

  async blackhole(): Promise<void> {
    await this.listen(() => {});
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }

  private track(socket: net.Socket) {
    this.sockets.add(socket);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.sockets.delete(socket));
  }

  private async listen(onClient: (client: net.Socket) => void): Promise<void> {
    await this.cut();
    const server = net.createServer((client) => {
      this.track(client);
      onClient(client);
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }
}

const serverUrl = process.env.TEST_DATABASE_URL;
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

(serverUrl ? describe : describe.skip)("the database unreachable", () => {
  let direct: TestDatabase;
  let proxy: TcpProxy;
  let db: Database;
  let app: App;
  let http: ReturnType<typeof request>;
  let key: string;

  beforeAll(async () => {
    direct = await openTestDatabase();
    const url = new URL(direct.url!);
    proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.forward();
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    db = await openDatabase({ url: url.toString(), migrate: false, poolSize: 4, connectTimeoutMs: 1_000 });
    app = await createApp({ db, log, config: { rateLimitPerSecond: 0, rateLimitBurst: 50 } });
    http = request(app.app);
    key = (await createAccountKey(direct.prisma, { accountName: "outage" })).key;
  });
  afterAll(async () => {
    await proxy.forward();
    await app.stop();
    await db.close();
    await proxy.cut();
    await direct.close();
  });

  const gql = (query: string) =>
    http.post("/graphql").set("authorization", key).set("content-type", "application/json").send({ query });

  function expectUnavailable(res: request.Response) {
    expect(res.status).toBe(503);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.body).toMatchObject({ status: 503, code: "UNAVAILABLE" });
  }

  /** GraphQL's side: the same status and Retry-After, as a GraphQL error. */
  function expectGraphqlUnavailable(res: request.Response) {
    expect(res.status).toBe(503);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.body.errors[0].extensions.code).toBe("UNAVAILABLE");
  }

  async function expectServing() {
    expect((await http.get("/v1/portfolios").set("authorization", key)).status).toBe(200);
    expect((await gql("{ portfolios { id } }")).body).toEqual({ data: { portfolios: [] } });
    expect((await http.get("/ready")).status).toBe(200);
  }

  it("answers 503 with Retry-After on REST, GraphQL and /ready while cut, and 200 again once restored", async () => {
    await expectServing();
    await proxy.cut();

    expectUnavailable(await http.get("/v1/portfolios").set("authorization", key));
    expectUnavailable(await http.post("/v1/portfolios").set("authorization", key).send({ name: "Lost" }));
    // The key is looked up before GraphQL runs: the same 503, as a GraphQL error.
    expectGraphqlUnavailable(await gql("{ portfolios { id } }"));
    const ready = await http.get("/ready");
    expect(ready.status).toBe(503);
    expect(ready.body.code).toBe("UNAVAILABLE");

    await proxy.forward();
    await expectServing();
  });

  it("gives up on a database that accepts connections but never answers within the connect timeout", async () => {
    await proxy.blackhole();
    // Without a connect timeout this request would wait for the operating system, minutes.
    const answered = await Promise.race([
      http.get("/v1/portfolios").set("authorization", key),
      new Promise<"still waiting">((r) => setTimeout(() => r("still waiting"), 15_000).unref()),
    ]);
    expect(answered).not.toBe("still waiting");
    expectUnavailable(answered as request.Response);
    await proxy.forward();
    await expectServing();
  });

  it("maps every shape a lost connection takes to UNAVAILABLE, in the REST and the GraphQL mapper", async () => {
    const failures: Record<string, unknown> = {};
    const capture = async (label: string, op: () => Promise<unknown>) => {
      await op().then(
        () => (failures[label] = "no error"),
        (error: unknown) => (failures[label] = error),
      );
    };
    await expectServing(); // the pool holds open connections now
    await proxy.cut();
    // The first query meets a pooled connection that died under it: pg's "Connection terminated".
    await capture("pooled connection cut", () => db.prisma.portfolio.findMany());
    await capture("model query (P1001)", () => db.prisma.portfolio.findMany());
    await capture("raw query (P2010)", () => db.prisma.$queryRaw`SELECT 1`);
    await capture("transaction", () => db.prisma.$transaction(async (tx) => tx.portfolio.count()));
    await capture("ping (pg ECONNREFUSED)", () => db.ping());
    await proxy.forward();

    // The server ends the session under a running statement: SQLSTATE 57P01.
    const sleeping = capture("terminated by the server (57P01)", () =>
      db.prisma.$executeRawUnsafe("SELECT pg_sleep(30)"),
    );
    for (let i = 0; i < 100; i++) {
      const [{ n }] = await direct.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'`,
      );
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await direct.sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'`);
    await sleeping;

    const format = formatError(log);
    for (const [label, error] of Object.entries(failures)) {
      expect([label, error]).not.toEqual([label, "no error"]);
      expect([label, toDomainError(error).code]).toEqual([label, "UNAVAILABLE"]);
      const inResolver = new GraphQLError("failed", { path: ["portfolios"], originalError: error as Error });
      const formatted = format(
        { message: "failed", path: ["portfolios"], extensions: { code: "INTERNAL_SERVER_ERROR" } },
        inResolver,
      );
      expect([label, formatted.extensions?.code]).toEqual([label, "UNAVAILABLE"]);
    }
    await expectServing();
  });
});
