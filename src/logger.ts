import pino from "pino";

/** Structured JSON logs on stdout (one line per event; request logs carry the request id). */
export function createLogger(level: string) {
  return pino({ level, base: { service: "portfolio-service" }, timestamp: pino.stdTimeFunctions.isoTime });
}
