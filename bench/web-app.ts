import fs from "node:fs";
import path from "node:path";
import { parse, type OperationDefinitionNode } from "graphql";
import { chromium } from "playwright-core";
import { DEFAULT_GRAPHQL_LIMITS } from "../src/config";
import { operationCost } from "../src/graphql/cost";
import { tokensFor } from "../src/graphql/limits";
import { buildSchema } from "../src/graphql/schema";
import { PROJECT_ROOT } from "../src/lib/paths";
import { Overview } from "../generated/graphql/web-operations";

/**
 * B18: the web app (src/web) over the 20,000-trade bench portfolio.
 * - Time from navigation to a drawn overview (the value chart and the allocation donut both with
 *   pixels on their canvases), in Debian's Chromium, after one warm-up load (warm series cache):
 *   median of several full loads of /app/#/portfolio/{id}/overview.
 * - The GraphQL cost of each operation the app sends (src/web/operations.graphql) as the server
 *   estimates it (graphql/cost.ts), against the default limit, and the rate-limit tokens it draws.
 */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** RATE_LIMIT_BURST's default (config.ts): a key's bucket holds 50 tokens, refilled at 10 a second. */
const DEFAULT_BURST = 50;

export async function webAppWorkload(opts: {
  base: string;
  key: string;
  portfolioId: number;
  rounds: number;
  database: string;
}): Promise<void> {
  const { base, key, portfolioId, rounds, database } = opts;
  console.log(
    JSON.stringify({ workload: "B18 GraphQL cost of each web app operation", ...operationCosts(portfolioId) }),
  );
  // The overview's one operation as the app sends it on its default range (all, weekly), timed
  // alone: what of the page's time is the server's.
  const overview = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { authorization: key, "content-type": "application/json" },
      body: JSON.stringify({
        query: Overview.text,
        variables: { id: String(portfolioId), interval: "week", groupBy: "assetClass" },
      }),
    });
    const body = (await res.json()) as { errors?: unknown[] };
    if (res.status !== 200 || body.errors)
      throw new Error(`B18 Overview: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return performance.now() - t0;
  };
  const queryCold = await overview();
  const queryWarm: number[] = [];
  for (let r = 0; r < Math.max(rounds, 3); r++) queryWarm.push(await overview());
  if (!fs.existsSync(CHROMIUM)) {
    console.log(JSON.stringify({ workload: "B18 overview load", skipped: `no Chromium at ${CHROMIUM}` }));
    return;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/app/`);
    await page.getByLabel("API key").fill(key);
    await page.getByLabel("API key").press("Enter");
    await page.locator(".portfolio").first().waitFor({ timeout: 60_000 });
    const load = async () => {
      await page.goto("about:blank");
      const t0 = performance.now();
      await page.goto(`${base}/app/#/portfolio/${portfolioId}/overview`);
      await page.waitForFunction(
        () => {
          const canvases = Array.from(document.querySelectorAll("canvas"));
          return (
            canvases.length >= 2 &&
            canvases.every((c) => {
              const data = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data;
              for (let i = 3; data && i < data.length; i += 16) if (data[i] !== 0) return true;
              return false;
            })
          );
        },
        undefined,
        { timeout: 120_000, polling: 20 },
      );
      return performance.now() - t0;
    };
    const cold = await load();
    const warm: number[] = [];
    for (let r = 0; r < Math.max(rounds, 3); r++) warm.push(await load());
    const sorted = [...warm].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        workload: "B18 web app overview of the 20,000-trade portfolio: navigation to drawn charts",
        database,
        overviewQuery: { firstMs: Math.round(queryCold), warmMedianMs: Math.round(median(queryWarm)) },
        firstLoadMs: Math.round(cold),
        warmMedianMs: Math.round(sorted[Math.floor(sorted.length / 2)]),
        warmMaxMs: Math.round(sorted[sorted.length - 1]),
        loads: warm.length,
      }),
    );
  } finally {
    await browser.close();
  }
}

/** Each operation of the app with the variables a view sends, costed as the server costs it. */
function operationCosts(portfolioId: number) {
  const schema = buildSchema();
  const document = parse(fs.readFileSync(path.join(PROJECT_ROOT, "src/web/operations.graphql"), "utf8"));
  const variables = {
    id: String(portfolioId),
    from: "2015-01-01",
    to: "2025-12-31",
    interval: "month",
    financialYear: 2025,
  };
  const limits = DEFAULT_GRAPHQL_LIMITS;
  const operations = document.definitions
    .filter((d): d is OperationDefinitionNode => d.kind === "OperationDefinition")
    .map((op) => {
      const { cost, mutationFields } = operationCost(schema, document, op, variables);
      return {
        operation: op.name?.value ?? "(anonymous)",
        cost,
        ofLimit: `${Math.round((100 * cost) / limits.maxCost)}%`,
        tokens: tokensFor(cost, mutationFields, limits, DEFAULT_BURST),
      };
    });
  return { maxCost: limits.maxCost, costPerToken: limits.costPerToken, burst: DEFAULT_BURST, operations };
}
