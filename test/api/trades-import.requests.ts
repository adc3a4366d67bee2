/**
 * The trade import requests and reads the trades-import.*.test.ts stories share (docs/conventions.md
 * §7.4). Importing it registers no hook: a suite hands its app over, `tradeImportApi(t, () => key)`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importTradesCsv, importTradesJson } from "../support/kit";
import { withApp, type FieldError } from "../support/outcomes";
import type { TestApp } from "../support/app";

export type Json = Record<string, unknown>;

export const COMMSEC = "212ff1a3-1ef4-4922-8231-42d910fa54ff";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** A broker's file of test/fixtures/brokers, as downloaded. */
export const brokerFixture = (file: string): Buffer => readFileSync(join(__dirname, "../fixtures/brokers", file));

/** Every error names a line (`line N` or `line N.field`, with `line: N`); answers the lines named. */
export function linesOf(errors: FieldError[]): number[] {
  for (const e of errors) {
    expect(e).toEqual({
      path: expect.stringMatching(/^line \d+(\.[\w.[\]]+)?$/),
      message: expect.any(String),
      line: expect.any(Number),
    });
    expect(e.path.startsWith(`line ${e.line}`)).toBe(true);
  }
  return [...new Set(errors.map((e) => e.line!))].sort((a, b) => a - b);
}

export const buyRow = (
  symbol: string,
  tradeDate: string,
  quantity: number | string,
  price: number | string,
  extra: Json = {},
) => ({ symbol, exchange: "ASX", tradeType: "Buy", tradeDate, quantity, price, ...extra });

/** The import requests and reads over the suite's app (read inside tests only). */
export function tradeImportApi(t: TestApp, key: () => string) {
  const { unchanged, count } = withApp(() => t);

  async function holdings(p: number): Promise<Json[]> {
    const res = await t.http.get(`/v1/portfolios/${p}/holdings?includeClosed=true`).set("authorization", key());
    expect(res.status).toBe(200);
    return res.body;
  }

  // =============================================================================================

  /** The import over JSON or CSV, with this suite's key() unless given. */
  const importJson = (p: number, rows: unknown, query = "", k = key()) => importTradesJson(t, k, p, rows, query);
  const importCsv = (p: number, csv: string, query = "", k = key()) => importTradesCsv(t, k, p, csv, query);
  /** POST a broker's file as downloaded (a fixture's name, or a file written here): text/csv, or a workbook as .xlsx. */
  const importFile = (p: number, file: string | { name: string; text: string }, query = "", k = key()) => {
    const req = t.http.post(`/v1/portfolios/${p}/trades/import${query}`).set("authorization", k);
    if (typeof file !== "string") return req.set("content-type", "text/csv").send(file.text);
    if (file.endsWith(".xlsx")) return req.set("content-type", XLSX).send(brokerFixture(file));
    return req.set("content-type", "text/csv").send(brokerFixture(file).toString("utf8"));
  };
  return { unchanged, count, holdings, importJson, importCsv, importFile };
}
