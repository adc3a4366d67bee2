import { Readable, Writable } from "node:stream";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import pino from "pino";
import { getMetricsFromStream, type PromMetrics } from "prom2javascript";
import request from "supertest";
import { createApp, type App } from "../../src/app";
import type { ObservabilityConfig } from "../../src/config";
import type { TestApp } from "../support/app";

/**
 * An app with the observability the story needs, over the suite's database (useTestApp's), whose
 * log lines are kept as parsed JSON. Stop it (app.stop()) in the suite's afterAll.
 */
export interface ObservedApp {
  app: App;
  http: ReturnType<typeof request>;
  /** Every line the app logged, parsed. */
  lines: Record<string, unknown>[];
}

export async function observedApp(
  t: TestApp,
  opts: {
    observability?: Partial<ObservabilityConfig>;
    traceExporter?: SpanExporter;
    rateLimit?: { perSecond: number; burst: number };
  } = {},
): Promise<ObservedApp> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  const app = await createApp({
    db: t.db,
    log: pino({ level: "info" }, sink),
    config: {
      rateLimitPerSecond: opts.rateLimit?.perSecond ?? 0,
      rateLimitBurst: opts.rateLimit?.burst ?? 50,
      host: "127.0.0.1",
      observability: { serviceName: "portfolio-service-test", ...opts.observability },
    },
    traceExporter: opts.traceExporter,
  });
  return { app, http: request(app.app), lines };
}

/** Prometheus text format parsed by a parser of its own (prom2javascript), not by the code under test. */
/**
 * The exposition format allows NaN samples, and prom-client writes one (`Nan`) for the event-loop
 * lag summary until its monitor has a sample; the parser's grammar has no NaN. Those lines are
 * left out, and only those: a NaN in any other family fails here.
 */
export function parseMetrics(text: string): Promise<PromMetrics> {
  const lines = text.split("\n");
  const nan = lines.filter((l) => /\sNaN$/i.test(l));
  expect(nan.filter((l) => !l.startsWith("nodejs_eventloop_lag_"))).toEqual([]);
  return getMetricsFromStream(Readable.from([lines.filter((l) => !nan.includes(l)).join("\n")]));
}

/** Every label set of every sample of a family ([] when the family is absent or has none). */
export const labelsOf = (metrics: PromMetrics, family: string): Record<string, string>[] =>
  ((metrics[family]?.data ?? []) as { labels: Record<string, string> }[]).map((d) => d.labels);

/** The value of a counter or gauge sample with exactly these labels (undefined when absent). */
export function valueOf(metrics: PromMetrics, family: string, labels: Record<string, string> = {}): number | undefined {
  const sample = ((metrics[family]?.data ?? []) as { labels: Record<string, string>; value: number }[]).find(
    (d) => JSON.stringify(Object.entries(d.labels).sort()) === JSON.stringify(Object.entries(labels).sort()),
  );
  return sample?.value;
}
