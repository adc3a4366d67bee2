import { createHash } from "node:crypto";
import http from "node:http";

/**
 * The same-run baseline: raw node:http with hand-written SQL and hand-built JSON, doing the same
 * work as the service (key lookup, then the data) and answering the same bytes.
 */
export type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

async function authenticate(query: Query, req: http.IncomingMessage): Promise<number | undefined> {
  const key = req.headers.authorization;
  if (!key) return undefined;
  const rows = await query<{ account_id: number }>(`SELECT account_id FROM api_key WHERE key_hash = $1`, [createHash("sha256").update(key).digest("hex")]);
  return rows[0]?.account_id;
}

/** DECIMAL text without trailing zeros ("10.0000" → "10", "2.5000" → "2.5"), as the service writes it. */
const pct = (v: unknown) => {
  const s = String(v);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
};

export function baselineServer(query: Query): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const accountId = await authenticate(query, req);
      if (!accountId) return void res.writeHead(401).end();
      if (req.method === "GET" && req.url === "/v1/sources") {
        const rows = await query<{ id: string; name: string }>(`SELECT id, name FROM source ORDER BY name`);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(rows));
        return;
      }
      if (req.method === "POST" && req.url === "/graphql") {
        // The nested query's data, fetched by hand: portfolios, their live models, their buckets.
        const portfolios = await query<{ id: number; name: string }>(`SELECT id, name FROM portfolio WHERE account_id = $1 ORDER BY id`, [accountId]);
        const models = await query<{ id: number; public_id: string; portfolio_id: number; name: string; is_active: boolean }>(
          `SELECT id, public_id, portfolio_id, name, is_active FROM allocation_model WHERE portfolio_id = ANY($1) AND deleted_at IS NULL ORDER BY created_at, id`,
          [portfolios.map((p) => p.id)],
        );
        const buckets = await query<{ model_id: number; label: string; target_pct: string; tolerance_pct: string; sort_order: number }>(
          `SELECT model_id, label, target_pct, tolerance_pct, sort_order FROM allocation_bucket WHERE model_id = ANY($1) ORDER BY sort_order, label`,
          [models.map((m) => m.id)],
        );
        const bucketsOf = new Map<number, unknown[]>();
        for (const b of buckets) {
          const list = bucketsOf.get(b.model_id) ?? [];
          list.push({ label: b.label, targetPct: pct(b.target_pct), tolerancePct: pct(b.tolerance_pct), sortOrder: b.sort_order });
          bucketsOf.set(b.model_id, list);
        }
        const data = {
          portfolios: portfolios.map((p) => ({
            id: String(p.id),
            name: p.name,
            allocationModels: models
              .filter((m) => m.portfolio_id === p.id)
              .map((m) => ({ publicId: m.public_id, name: m.name, isActive: m.is_active, buckets: bucketsOf.get(m.id) ?? [] })),
          })),
        };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
        return;
      }
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
}
