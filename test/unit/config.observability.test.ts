import { loadConfig } from "../../src/config";

/**
 * The observability variables (README: Configuration): unset or empty, nothing is on; set, they
 * are checked at start like every other variable, with a message naming the one at fault.
 */
const base = { DATA_DIR: "/tmp/unused", PORT: "4000" };

it("leaves metrics and tracing off when their variables are unset or empty", () => {
  for (const env of [base, { ...base, METRICS_TOKEN: "", METRICS_PORT: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" }])
    expect(loadConfig(env).observability).toEqual({
      metricsToken: undefined,
      metricsPort: undefined,
      otlpEndpoint: undefined,
      serviceName: "portfolio-service",
    });
});

it("reads the token, the port, the endpoint and the service name", () => {
  const env = {
    ...base,
    METRICS_TOKEN: "a-long-enough-token",
    METRICS_PORT: "9464",
    OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
    OTEL_SERVICE_NAME: "portfolio-api",
  };
  expect(loadConfig(env).observability).toEqual({
    metricsToken: "a-long-enough-token",
    metricsPort: 9464,
    otlpEndpoint: "http://collector:4318",
    serviceName: "portfolio-api",
  });
});

it.each([
  [{ METRICS_TOKEN: "short" }, /METRICS_TOKEN: must be at least 16 characters/],
  [{ METRICS_PORT: "70000" }, /METRICS_PORT/],
  [{ METRICS_PORT: "4000" }, /METRICS_PORT: must differ from PORT/],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, /OTEL_EXPORTER_OTLP_ENDPOINT/],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://collector" }, /OTEL_EXPORTER_OTLP_ENDPOINT/],
])("refuses %j", (bad, message) => {
  expect(() => loadConfig({ ...base, ...bad })).toThrow(message);
});
