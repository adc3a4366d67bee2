import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { createApp } from "../../src/app";
import { DEFAULT_ANALYTICS_LIMITS } from "../../src/config";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { hookedClient } from "../support/kit";

/**
 * A client that hangs up while its heavy computation waits for a slot gets nothing (499
 * CLIENT_CLOSED in the log), and its Idempotency-Key is not spent on that: the retry with the same
 * key runs the request. A 499 was stored as the key's answer and replayed for 24 hours.
 */
const t = useTestApp({ reset: "none" });

it("a request whose client hung up while it queued is run by its retry with the same Idempotency-Key, not replayed as 499", async () => {
  const key = await t.newAccount();
  const portfolioId = await newPortfolio(t, key);
  const { holdingId } = await newTrade(t, key, {
    portfolioId,
    symbol: "XYZ",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2020-01-02",
    quantity: 100,
    price: 2,
  });

  // A timeseries holds the key's one slot at its first statement until released.
  let hold: { entered: () => void; until: Promise<void> } | undefined;
  const db = hookedClient(t.db.prisma, {
    before: async (sql) => {
      if (!hold || !sql.includes("min(trade_date)")) return;
      const h = hold;
      hold = undefined;
      h.entered();
      await h.until;
    },
  });
  const { httpServer, stop } = await createApp({
    db: Object.create(t.db, { prisma: { value: db } }),
    log: pino({ level: "silent" }),
    config: {
      rateLimitPerSecond: 0,
      rateLimitBurst: 50,
      analyticsLimits: { ...DEFAULT_ANALYTICS_LIMITS, maxConcurrentPerKey: 1, maxQueuedPerKey: 4 },
    },
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  try {
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    hold = { entered, until: new Promise<void>((r) => (release = r)) };
    const holding = fetch(`${base}/v1/portfolios/${portfolioId}/timeseries`, { headers: { authorization: key } });
    await inside;

    const body = JSON.stringify({ holdingId, quantity: 10, price: 3, date: "2024-02-01" });
    const headers = { authorization: key, "content-type": "application/json", "idempotency-key": "sell-once" };
    // Sent, then dropped once its key is claimed: it waits behind the held timeseries, or finds its
    // client gone at the gate; either way it ends as 499.
    const dropped = http.request(`${base}/v1/portfolios/${portfolioId}/simulate-sell`, { method: "POST", headers });
    dropped.on("error", () => undefined);
    dropped.end(body);
    const claimed = async () => (await t.db.prisma.idempotencyKey.count({ where: { key: "sell-once" } })) > 0;
    while (!(await claimed())) await new Promise((r) => setImmediate(r));
    dropped.destroy();
    // Settled: the key let go (nothing kept for a 499), or (before) the 499 stored as its answer.
    const settled = async () => {
      const row = await t.db.prisma.idempotencyKey.findFirst({ where: { key: "sell-once" } });
      return !row || row.status !== null;
    };
    while (!(await settled())) await new Promise((r) => setImmediate(r));

    release();
    expect((await holding).status).toBe(200);
    const retry = await fetch(`${base}/v1/portfolios/${portfolioId}/simulate-sell`, { method: "POST", headers, body });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const again = await fetch(`${base}/v1/portfolios/${portfolioId}/simulate-sell`, { method: "POST", headers, body });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await retry.json());
  } finally {
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
    await stop();
  }
});
