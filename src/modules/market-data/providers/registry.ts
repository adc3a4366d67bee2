import type { MarketDataConfig } from "../../../config";
import type { Providers } from "../refresh";
import { fetchHttpClient, resilientHttp, type RawHttpClient, type ResilienceOptions } from "./http";
import type { FxProvider, PriceProvider } from "./provider";
import { createRbaProvider } from "./rba";
import { replayHttpClient } from "./replay";
import { createYahooFxProvider, createYahooProvider } from "./yahoo";

/**
 * The providers the configuration names (docs/data.md §1), each over its own resilient client
 * (timeout, retries, rate limit, circuit breaker), so one provider's trouble never slows another.
 * `replay` runs the real parsers over recorded files; `none` is no provider at all.
 */

/** Yahoo's chart API takes a few requests a second from one client; the RBA file is one request a run. */
const RATES: Record<string, ResilienceOptions["rate"]> = {
  yahoo: { requests: 2, perMs: 1_000 },
  rba: { requests: 1, perMs: 1_000 },
};

/** Where a replayed provider "fetches" from: only the path matters to the replaying client. */
const REPLAY_ORIGIN = "http://replay.invalid";

const renamed = <P extends PriceProvider | FxProvider>(provider: P, id: string): P => ({ ...provider, id });

export function marketDataProviders(
  config: MarketDataConfig,
  inner: RawHttpClient = fetchHttpClient,
  resilience: Partial<ResilienceOptions> = {},
): Providers {
  const clients = new Map<string, RawHttpClient>();
  const client = (provider: "yahoo" | "rba") => {
    const existing = clients.get(provider);
    if (existing) return existing;
    const created = resilientHttp(inner, { provider, rate: RATES[provider], ...resilience });
    clients.set(provider, created);
    return created;
  };
  const replay = () => replayHttpClient(config.replayDir as string);

  const prices: PriceProvider | null =
    config.provider === "yahoo"
      ? createYahooProvider({ baseUrl: config.url, http: client("yahoo") })
      : config.provider === "replay"
        ? renamed(createYahooProvider({ baseUrl: REPLAY_ORIGIN, http: replay() }), "replay")
        : null;

  const fx: FxProvider | null =
    config.fxProvider === "rba"
      ? createRbaProvider({ url: config.fxUrl, http: client("rba") })
      : config.fxProvider === "yahoo"
        ? createYahooFxProvider({ baseUrl: config.url, http: client("yahoo") })
        : config.fxProvider === "replay"
          ? renamed(createRbaProvider({ url: `${REPLAY_ORIGIN}/f11.1-data.csv`, http: replay() }), "replay")
          : null;

  return { prices, fx };
}
