import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { observedApp, type ObservedApp } from "./observability.support";

// Tracing and metrics off: no OpenTelemetry module loads, nor prom-client (which requires the
// OpenTelemetry API), on the request path or anywhere else.
// (Each jest.mock is hoisted above the imports: a module loaded by them would throw too.)
jest.mock("@opentelemetry/api", () => {
  throw new Error("@opentelemetry/api was loaded with tracing and metrics off");
});
jest.mock("@opentelemetry/sdk-trace-base", () => {
  throw new Error("@opentelemetry/sdk-trace-base was loaded with tracing and metrics off");
});
jest.mock("prom-client", () => {
  throw new Error("prom-client was loaded with tracing and metrics off");
});

/**
 * One JSON line per request, as its response ends: the request id (the caller's x-request-id when
 * it sent a usable one), the route template, the GraphQL operation's name, the status, the
 * milliseconds and the account, never the key; no trace id with tracing off. Probes are not logged.
 */
const t = useTestApp({ reset: "none" });
const ACCOUNT_NAME = "Logged Account";
let logged: ObservedApp;
let key: string;
let accountId: number;
let portfolioId: number;

beforeAll(async () => {
  logged = await observedApp(t);
  key = await t.newAccount(ACCOUNT_NAME);
  accountId = (await t.db.prisma.account.findFirstOrThrow({ where: { name: ACCOUNT_NAME } })).id;
  portfolioId = await newPortfolio(t, key, { name: "Logged" });
});
afterAll(async () => {
  await logged.app.stop();
});

const lineOf = (requestId: string) => {
  const lines = logged.lines.filter((l) => l.requestId === requestId && l.route);
  expect(lines).toHaveLength(1);
  return lines[0];
};

it("writes one line per REST request with its route template, status, duration and account", async () => {
  const res = await logged.http
    .get(`/v1/portfolios/${portfolioId}`)
    .set("authorization", key)
    .set("x-request-id", "caller-chosen.id-1");
  expect(res.status).toBe(200);
  expect(res.headers["x-request-id"]).toBe("caller-chosen.id-1");
  const line = lineOf("caller-chosen.id-1");
  expect(line).toMatchObject({
    msg: "request completed",
    level: 30,
    route: "/v1/portfolios/:portfolioId",
    status: 200,
    accountId,
  });
  expect(typeof line.ms).toBe("number");
  expect(line).not.toHaveProperty("traceId");
  expect(line).not.toHaveProperty("operationName");
  const text = JSON.stringify(line);
  expect(text).not.toContain(key);
  expect(text).not.toContain(ACCOUNT_NAME);
});

it("names the GraphQL operation; a refused request has no account and logs a warning", async () => {
  const gql = await logged.http
    .post("/graphql")
    .set("authorization", key)
    .send({ query: "query LoggedNames { portfolios { id name } }" });
  expect(gql.status).toBe(200);
  expect(lineOf(gql.headers["x-request-id"])).toMatchObject({
    route: "/graphql",
    operationName: "LoggedNames",
    status: 200,
    accountId,
  });

  const refused = await logged.http.get(`/v1/portfolios/${portfolioId}/holdings`).set("authorization", "pfk_wrong");
  expect(refused.status).toBe(401);
  const line = lineOf(refused.headers["x-request-id"]);
  expect(line).toMatchObject({ route: "/v1/portfolios/:portfolioId/holdings", status: 401, level: 40 });
  expect(line).not.toHaveProperty("accountId");
  expect(JSON.stringify(line)).not.toContain("pfk_wrong");
});

it("logs no line for the probes", async () => {
  const before = logged.lines.length;
  expect((await logged.http.get("/health")).status).toBe(200);
  expect((await logged.http.get("/ready")).status).toBe(200);
  expect(logged.lines.length).toBe(before);
});
