import pg from "pg";

/** What a subscriber to a channel hears. */
export interface ChannelListener {
  /** Each notification's payload, in commit order. */
  onMessage(payload: string): void;
  /**
   * false when the connection is lost (notifications sent meanwhile are missed), true once it
   * listens (again). Called on changes only, starting with the first true.
   */
  onState?(listening: boolean): void;
}

const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 5_000;
/**
 * A connection that dies without a word (a cut network, a frozen server) is noticed by a `SELECT 1`
 * every few seconds that must answer in time; TCP keep-alive alone would take minutes.
 */
const HEARTBEAT_EVERY_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 2_000;

/**
 * LISTENs on `channel` over a PostgreSQL connection of its own (a pooled connection cannot hold a
 * LISTEN: it serves others between queries), reconnecting with exponential backoff whenever it is
 * lost. Answers the way to stop; stopping closes the connection.
 */
export function listenOn(
  options: { connectionString: string; connectTimeoutMs?: number },
  channel: string,
  listener: ChannelListener,
): () => Promise<void> {
  let stopped = false;
  let current: pg.Client | undefined;
  let listening = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const setListening = (value: boolean) => {
    if (listening === value) return;
    listening = value;
    listener.onState?.(value);
  };

  const lost = (client: pg.Client) => {
    if (client !== current) return;
    current = undefined;
    clearInterval(heartbeat);
    setListening(false);
    client.end().catch(() => {});
    if (stopped) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** failures++);
    retry = setTimeout(connect, delay * (0.5 + Math.random() / 2));
    retry.unref();
  };

  const connect = async () => {
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      // Named, so that an operator sees in pg_stat_activity what the connection is for.
      application_name: `listen ${channel}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    current = client;
    client.on("error", () => lost(client));
    client.on("end", () => lost(client));
    client.on("notification", (n) => {
      if (n.channel === channel && client === current) listener.onMessage(n.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      return lost(client);
    }
    if (client !== current) return;
    if (stopped) return void client.end().catch(() => {});
    failures = 0;
    setListening(true);
    heartbeat = setInterval(() => void client.query("SELECT 1").catch(() => lost(client)), HEARTBEAT_EVERY_MS);
    heartbeat.unref();
  };

  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(heartbeat);
    const client = current;
    current = undefined;
    setListening(false);
    await client?.end().catch(() => {});
  };
}
