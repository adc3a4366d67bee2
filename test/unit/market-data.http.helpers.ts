import type { RawHttpClient, ResilienceOptions } from "../../src/modules/market-data/providers/http";

/**
 * What the fake server does on one request: answer, fail at the network level (`fetch` throws a
 * TypeError), or never answer (ignoring its abort signal, so only an aggressive timeout ends the try).
 */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | "network-error" | "hang";

/** A fake inner client answering from a script (the last answer repeats), recording every request. */
export function scripted(...answers: Answer[]) {
  const calls: { url: string; signal?: AbortSignal }[] = [];
  const client: RawHttpClient = async (url, init) => {
    calls.push({ url, signal: init?.signal });
    const answer = answers.length > 1 ? answers.shift()! : answers[0];
    if (answer === "network-error") throw new TypeError("fetch failed");
    if (answer === "hang") return new Promise(() => undefined);
    return { status: answer.status, headers: new Headers(answer.headers), text: async () => answer.body ?? "" };
  };
  return { client, calls };
}

/** Every duration tiny and the rate wide open, so a story runs in milliseconds; a test overrides what it tells. */
export const fast: ResilienceOptions = {
  provider: "yahoo",
  timeoutMs: 50,
  backoffMs: 1,
  maxDelayMs: 5,
  pauseMs: 30,
  rate: { requests: 1000, perMs: 1000 },
};

export const URL_VAS = "https://query1.finance.yahoo.com/v8/finance/chart/VAS.AX";

/** Lets queued timers and promise chains that are due run (one turn of the event loop). */
export const tick = () => new Promise((resolve) => setImmediate(resolve));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
