import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { observedApp, type ObservedApp } from "./observability.support";

/**
 * With tracing on, each request is one trace: the server span of the request, a span for its
 * GraphQL operation, a span for each database statement, each under the one it ran in. A request
 * that sends a W3C `traceparent` continues that trace; the answer's `traceresponse` names the
 * trace, and the request's log line carries its id. (The spans go to an in-memory exporter here,
 * one by one, instead of an OTLP endpoint.)
 */
const t = useTestApp({ reset: "none" });
const exporter = new InMemorySpanExporter();
let traced: ObservedApp;
let key: string;
let portfolioId: number;

beforeAll(async () => {
  traced = await observedApp(t, { traceExporter: exporter });
  key = await t.newAccount();
  portfolioId = await newPortfolio(t, key, { name: "Traced" });
});
afterAll(async () => {
  await traced.app.stop();
});
beforeEach(() => exporter.reset());

const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const spansOfTrace = (traceId: string) =>
  exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);

it("continues the caller's trace: the request's span, then a span per statement under it", async () => {
  const res = await traced.http
    .get(`/v1/portfolios/${portfolioId}`)
    .set("authorization", key)
    .set("traceparent", `00-${CALLER_TRACE}-${CALLER_SPAN}-01`);
  expect(res.status).toBe(200);
  expect(res.headers["traceresponse"]).toMatch(new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`));

  const spans = exporter.getFinishedSpans();
  expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([CALLER_TRACE]));
  const server = spans.filter((s) => s.kind === SpanKind.SERVER);
  expect(server).toHaveLength(1);
  expect(server[0].name).toBe("GET /v1/portfolios/:portfolioId");
  expect(parentOf(server[0])).toBe(CALLER_SPAN);
  expect(server[0].attributes).toMatchObject({
    "http.route": "/v1/portfolios/:portfolioId",
    "http.response.status_code": 200,
  });
  expect(res.headers["traceresponse"]).toContain(server[0].spanContext().spanId);

  const statements = spans.filter((s) => s.kind === SpanKind.CLIENT);
  expect(statements.length).toBeGreaterThanOrEqual(1); // the portfolio (the key's lookup may be cached)
  for (const s of statements) {
    expect(parentOf(s)).toBe(server[0].spanContext().spanId);
    expect(s.attributes["db.system.name"]).toBe("postgresql");
    expect(String(s.attributes["db.query.text"])).toMatch(/^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)/i);
    expect(String(s.attributes["db.query.text"])).not.toContain(key);
  }
  // The log line names the trace.
  const line = traced.lines.find((l) => l.requestId === res.headers["x-request-id"] && l.route);
  expect(line).toMatchObject({ traceId: CALLER_TRACE, route: "/v1/portfolios/:portfolioId", status: 200 });
});

it("makes a GraphQL request one trace: the request, its operation, the operation's statements", async () => {
  const res = await traced.http
    .post("/graphql")
    .set("authorization", key)
    .send({ query: "query TracedNames { portfolios { id name holdings { id } } }" });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  const traceId = res.headers["traceresponse"].split("-")[1];

  const spans = spansOfTrace(traceId);
  expect(spans).toHaveLength(exporter.getFinishedSpans().length);
  const [server] = spans.filter((s) => s.kind === SpanKind.SERVER);
  expect(server.name).toBe("POST /graphql");
  expect(parentOf(server)).toBeUndefined();
  const operation = spans.find((s) => s.name === "query TracedNames")!;
  expect(operation).toBeDefined();
  expect(operation.attributes).toMatchObject({
    "graphql.operation.name": "TracedNames",
    "graphql.operation.type": "query",
  });
  expect(parentOf(operation)).toBe(server.spanContext().spanId);

  const statements = spans.filter((s) => s.kind === SpanKind.CLIENT);
  const underOperation = statements.filter((s) => parentOf(s) === operation.spanContext().spanId);
  expect(underOperation.length).toBeGreaterThanOrEqual(2); // the portfolios, their holdings
  for (const s of statements)
    expect([server.spanContext().spanId, operation.spanContext().spanId]).toContain(parentOf(s));

  const line = traced.lines.find((l) => l.requestId === res.headers["x-request-id"] && l.route);
  expect(line).toMatchObject({ traceId, operationName: "TracedNames", route: "/graphql" });
});

it("starts a new trace for each request that sends no traceparent", async () => {
  const first = await traced.http.get("/v1/portfolios").set("authorization", key);
  const second = await traced.http.get("/v1/portfolios").set("authorization", key);
  const [a, b] = [first, second].map((r) => r.headers["traceresponse"].split("-")[1]);
  expect(a).not.toBe(b);
  for (const traceId of [a, b]) {
    const spans = spansOfTrace(traceId);
    expect(spans.filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(1);
    expect(spans.filter((s) => s.kind === SpanKind.CLIENT).length).toBeGreaterThanOrEqual(1);
  }
});

it("does not trace statements run outside a request", async () => {
  // The app's own database, used outside any request (as a job does): no span.
  await t.db.prisma.portfolio.count();
  expect(exporter.getFinishedSpans()).toHaveLength(0);
});
