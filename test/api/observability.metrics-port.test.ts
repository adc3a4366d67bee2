import type { AddressInfo } from "node:net";
import { useTestApp } from "../support/app";
import { observedApp, parseMetrics, type ObservedApp } from "./observability.support";

/**
 * Metrics are off unless asked for: without METRICS_TOKEN the service's port has no /metrics
 * (404 problem+json, as any unknown path). With METRICS_PORT they are served on a server of their
 * own, without a token, and only there; that server closes with the app.
 */
const t = useTestApp({ reset: "none" });
let onPort: ObservedApp;

beforeAll(async () => {
  onPort = await observedApp(t, { observability: { metricsPort: 0 } });
});
afterAll(async () => {
  await onPort.app.stop();
});

const metricsUrl = (path = "/metrics") =>
  `http://127.0.0.1:${(onPort.app.metricsServer!.address() as AddressInfo).port}${path}`;

it("answers no /metrics on the service's port when METRICS_TOKEN is unset", async () => {
  const key = await t.newAccount();
  for (const res of [
    await t.http.get("/metrics"),
    await t.http.get("/metrics").set("authorization", "Bearer anything-at-all-0123"),
    await onPort.http.get("/metrics").set("authorization", key),
  ]) {
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.text).not.toContain("http_server_request_duration_seconds");
  }
});

it("serves the metrics on METRICS_PORT without a token, and nothing else there", async () => {
  const key = await t.newAccount();
  expect((await onPort.http.get("/v1/portfolios").set("authorization", key)).status).toBe(200);
  const res = await fetch(metricsUrl());
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const metrics = await parseMetrics(await res.text());
  expect(metrics.http_server_request_duration_seconds.data).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ labels: { method: "GET", route: "/v1/portfolios", status: "200" }, count: 1 }),
    ]),
  );
  expect(metrics.nodejs_heap_size_used_bytes).toBeDefined();
  for (const path of ["/", "/v1/portfolios", "/metrics/more"]) expect((await fetch(metricsUrl(path))).status).toBe(404);
  expect((await fetch(metricsUrl(), { method: "POST" })).status).toBe(404);
});

it("closes the metrics server when the app stops", async () => {
  const other = await observedApp(t, { observability: { metricsPort: 0 } });
  const server = other.app.metricsServer!;
  expect(server.listening).toBe(true);
  await other.app.stop();
  expect(server.listening).toBe(false);
});
