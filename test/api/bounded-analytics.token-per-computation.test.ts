import { useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";

/**
 * A request pays one rate-limit token for each heavy computation after its first
 * (src/lib/heavy-work.ts), as the REST requests for them would: a GraphQL operation's cost
 * estimate counts an analytics field as one object, and 50 aliases of a century-long
 * `performance` once ran 50 computations (10-12 s) for one token. A computation the bucket cannot
 * cover fails with RATE_LIMITED before it runs, and the others stand.
 *
 * The bucket below holds BURST tokens and refills one in 1,000 s: every token is counted.
 */
const BURST = 6;
// Not reset between tests: a key's bucket is named by its id, which a reset would hand out again.
const limited = useTestApp({ rateLimitPerSecond: 0.001, rateLimitBurst: BURST, reset: "none" });

async function portfolioWithTrade(t: typeof limited, key: string): Promise<number> {
  const portfolioId = await newPortfolio(t, key);
  await newTrade(t, key, {
    portfolioId,
    symbol: "XYZ",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-02",
    quantity: 100,
    price: 2,
  });
  return portfolioId;
}

/** `n` aliases of the portfolio's performance over 2024 in one operation. */
const aliases = (portfolioId: number, n: number) =>
  `{ ${Array.from(
    { length: n },
    (_, i) => `p${i}: performance(portfolioId: "${portfolioId}", from: "2024-01-01", to: "2024-12-31") { from }`,
  ).join(" ")} }`;

it("runs the computations the bucket covers and refuses the rest with RATE_LIMITED", async () => {
  const key = await limited.newAccount();
  const portfolioId = await portfolioWithTrade(limited, key); // 2 tokens: the portfolio, the trade
  // 4 tokens left. The operation's own token pays for its first computation; 3 more pay for the
  // 2nd to 4th; the 5th to 8th find the bucket empty.
  // (`performance` is non-null: the first refusal nulls the whole answer's data, and graphql-js
  // reports that one, as it does for any error in a non-null root field.)
  const res = await limited.gql(key, aliases(portfolioId, 8));
  expect(res.status).toBe(200);
  expect(res.body.data).toBeNull();
  expect(res.body.errors).toEqual([
    expect.objectContaining({
      path: ["p4"],
      extensions: { code: "RATE_LIMITED" },
      message: expect.stringMatching(/Rate limit of .* exceeded; retry in \d+ s/),
    }),
  ]);
  // The bucket is empty now: the next request of any kind is refused.
  expect((await limited.http.get("/v1/sources").set("authorization", key)).status).toBe(429);
});

it("lets a request whose bucket covers every computation run them all, a token each", async () => {
  const key = await limited.newAccount();
  const portfolioId = await portfolioWithTrade(limited, key); // 2 tokens: 4 left
  const res = await limited.gql(key, aliases(portfolioId, 4));
  expect(res.body.errors).toBeUndefined();
  expect(Object.keys(res.body.data)).toHaveLength(4);
  expect((await limited.http.get("/v1/sources").set("authorization", key)).status).toBe(429);
});

it("charges one token for a request that runs one computation, over REST and GraphQL alike", async () => {
  const key = await limited.newAccount();
  const portfolioId = await portfolioWithTrade(limited, key); // 2 tokens
  const rest = await limited.http
    .get(`/v1/portfolios/${portfolioId}/performance?from=2024-01-01&to=2024-12-31`)
    .set("authorization", key);
  expect(rest.status).toBe(200);
  expect(rest.headers["ratelimit-remaining"]).toBe(String(BURST - 3));
  const gql = await limited.gql(key, aliases(portfolioId, 1));
  expect(gql.body.errors).toBeUndefined();
  expect(gql.headers["ratelimit-remaining"]).toBe(String(BURST - 4));
});

describe("with the rate limit off", () => {
  const unlimited = useTestApp({ rateLimitPerSecond: 0, reset: "none" });
  it("runs every computation asked for", async () => {
    const key = await unlimited.newAccount();
    const portfolioId = await portfolioWithTrade(unlimited, key);
    const res = await unlimited.gql(key, aliases(portfolioId, 12));
    expect(res.body.errors).toBeUndefined();
    expect(Object.values(res.body.data).every((v) => v !== null)).toBe(true);
  });
});
