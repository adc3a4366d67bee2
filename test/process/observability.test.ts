import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startServer } from "./spawn";

/**
 * The service as an operator configures it from the environment: METRICS_TOKEN serves /metrics
 * behind the token, and OTEL_EXPORTER_OTLP_ENDPOINT sends each request's spans to an OTLP/HTTP
 * collector (a fake one here, keeping what it is sent) under OTEL_SERVICE_NAME; the log line of
 * a request names its trace.
 */
const KEY = "pfk_observability-process-test-key";
const TOKEN = "scrape-token-0123456789";

interface OtlpSpan {
  traceId: string;
  name: string;
  kind: number;
}
interface OtlpBody {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

it("serves metrics behind the token and exports one trace per request over OTLP", async () => {
  const received: { path: string; type: string; body: OtlpBody }[] = [];
  const collector = http.createServer((req, res) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      received.push({ path: req.url ?? "", type: req.headers["content-type"] ?? "", body: JSON.parse(text) });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pf-obs-"));
  const server = await startServer({
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: KEY,
    METRICS_TOKEN: TOKEN,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`,
    OTEL_SERVICE_NAME: "portfolio-process-test",
    OTEL_BSP_SCHEDULE_DELAY: "50",
  });
  try {
    const res = await fetch(`${server.base}/v1/portfolios`, { headers: { authorization: KEY } });
    expect(res.status).toBe(200);
    const traceId = res.headers.get("traceresponse")!.split("-")[1];

    expect((await fetch(`${server.base}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(
      /^http_server_request_duration_seconds_count\{method="GET",route="\/v1\/portfolios",status="200"\} 1$/m,
    );

    const deadline = Date.now() + 10_000;
    const spansOf = () =>
      received.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    while (Date.now() < deadline && !spansOf().some((s) => s.traceId === traceId && s.name === "GET /v1/portfolios"))
      await new Promise((r) => setTimeout(r, 50));
    expect(received[0].path).toBe("/v1/traces");
    expect(received[0].type).toMatch(/^application\/json/);
    expect(received[0].body.resourceSpans[0].resource.attributes).toContainEqual({
      key: "service.name",
      value: { stringValue: "portfolio-process-test" },
    });
    const ofRequest = spansOf().filter((s) => s.traceId === traceId);
    expect(ofRequest.map((s) => s.name)).toContain("GET /v1/portfolios");
    expect(ofRequest.some((s) => s.name === "SELECT")).toBe(true);

    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes('"msg":"request completed"') && l.includes('"route":"/v1/portfolios"'));
    expect(JSON.parse(line!)).toMatchObject({ traceId, status: 200, route: "/v1/portfolios" });
    expect(line).not.toContain(KEY);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    collector.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
