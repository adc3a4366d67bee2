import { readFile } from "node:fs/promises";
import path from "node:path";
import type { HttpClient } from "./provider";

/**
 * An HTTP client that answers from recorded files and never touches the network
 * (`MARKET_DATA_PROVIDER=replay`, docs/data.md §1): the real providers run unchanged over it, in
 * tests and offline demos.
 *
 *   `…/v8/finance/chart/<symbol>`  → `<dir>/yahoo/<symbol>.json`, answered with the status in
 *                                    `<dir>/yahoo/<symbol>.status` when there is one, else 200
 *   `…/f11.1-data.csv`             → `<dir>/rba/f11.1-data.csv`
 *
 * Anything else, or a missing file, answers 404 with Yahoo's not-found body.
 */
export function replayHttpClient(dir: string): HttpClient {
  const root = path.resolve(dir);
  return async (url, init) => {
    init?.signal?.throwIfAborted();
    const recorded = recordedFiles(root, url);
    if (recorded === null) return notFound();
    const [body, statusText] = await Promise.all([
      readOrNull(recorded.body),
      recorded.status ? readOrNull(recorded.status) : null,
    ]);
    const status = statusText === null ? null : parseStatus(statusText, recorded.status ?? "");
    if (body === null && status === null) return notFound();
    return response(status ?? 200, body ?? "");
  };
}

/**
 * The same characters a Yahoo symbol may hold (yahoo.ts), first never a dot: a decoded symbol can
 * name one file in `<dir>/yahoo` and nothing outside it.
 */
const SYMBOL = /^[A-Za-z0-9^][A-Za-z0-9.\-^=]{0,29}$/;
const CHART_PATH = /\/v8\/finance\/chart\/([^/]+)$/;

function recordedFiles(root: string, url: string): { body: string; status?: string } | null {
  let pathname: string;
  try {
    // A base, so a replayed provider may be configured with a relative or placeholder URL.
    pathname = new URL(url, "http://replay.invalid").pathname;
  } catch {
    return null;
  }
  if (pathname.endsWith("/f11.1-data.csv")) return { body: path.join(root, "rba", "f11.1-data.csv") };
  const chart = CHART_PATH.exec(pathname);
  if (!chart) return null;
  let symbol: string;
  try {
    symbol = decodeURIComponent(chart[1]);
  } catch {
    return null;
  }
  if (!SYMBOL.test(symbol)) return null;
  const yahoo = path.join(root, "yahoo");
  const body = path.join(yahoo, `${symbol}.json`);
  if (path.dirname(body) !== yahoo) return null;
  return { body, status: path.join(yahoo, `${symbol}.status`) };
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseStatus(text: string, file: string): number {
  const status = Number(text.trim());
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new Error(`replay: ${file} does not hold an HTTP status`);
  }
  return status;
}

const NOT_FOUND_BODY = JSON.stringify({
  chart: { result: null, error: { code: "Not Found", description: "No data found, symbol may be delisted" } },
});

const notFound = () => response(404, NOT_FOUND_BODY);

function response(status: number, body: string) {
  return { status, text: async () => body };
}
