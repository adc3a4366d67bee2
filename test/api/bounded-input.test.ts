import { Writable } from "node:stream";
import pino from "pino";
import request from "supertest";
import { createApp } from "../../src/app";
import { MAX_INPUT_DEPTH } from "../../src/http/depth";
import { canonicalJson } from "../../src/http/idempotency-key";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { expectProblem, withApp } from "../support/outcomes";

/**
 * Issue 20, rows 6, 7, 9 and 10 (query-string integers): input that used to cost a 500, a stack
 * overflow or a silently wrong number is refused with a 400 naming its field or limit, or served
 * correctly, and writes nothing when refused.
 * - Deep input: a body or GraphQL variables nested past MAX_INPUT_DEPTH levels, with and without
 *   an Idempotency-Key (whose fingerprint walked the body recursively: 500 before).
 * - Attachment names in UTF-8: uploaded as RFC 5987 `filename*` or raw UTF-8 (as browsers send
 *   them), kept as sent, downloaded with an RFC 6266 fallback and `filename*` (500 before).
 * - `subscription` over GraphQL: 400 like any operation the service does not run, no error log.
 * - Query-string integers and path ids: decimal digits within documented bounds (0x10, 1e3 and
 *   2^53−1 were read as numbers before).
 */

const t = useTestApp();
const { unchanged, count } = withApp(() => t);
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

/** `[` × n then `]` × n: n levels of arrays, 2n bytes. */
const deepArrays = (n: number) => "[".repeat(n) + "]".repeat(n);
/** `{"a":` × n then `}` × n, around a value. */
const deepObjects = (n: number, inner = "1") => '{"a":'.repeat(n) + inner + "}".repeat(n);

const rawPost = (url: string, body: string, headers: Record<string, string> = {}) => {
  const req = t.http.post(url).set("authorization", key).set("content-type", "application/json");
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send(body);
};

const CREATE_PORTFOLIO = "mutation($input: CreatePortfolioInput!) { createPortfolio(input: $input) { id } }";
const gqlRaw = (body: string, headers: Record<string, string> = {}) => rawPost("/graphql", body, headers);

describe("deep input is a 400 before any walk over it (row 6)", () => {
  const tooDeep = MAX_INPUT_DEPTH + 1;

  it.each([
    ["with an Idempotency-Key", { "idempotency-key": "deep-1" }],
    ["without one", {}],
  ])("REST: arrays and objects nested past the limit, %s, answer 400 naming the limit", async (_label, headers) => {
    await unchanged(async () => {
      for (const body of [deepArrays(5000), deepArrays(tooDeep), `{"name":"P","notes":${deepObjects(tooDeep)}}`]) {
        for (const url of ["/v1/portfolios", "/v1/trades", "/api/v1/market-prices/bulk"]) {
          const res = await rawPost(url, body, headers);
          const errors = expectProblem(res, 400, "VALIDATION_FAILED");
          expect(res.body.detail).toBe(`The request body is nested deeper than ${MAX_INPUT_DEPTH} levels.`);
          expect(errors).toEqual([
            { path: "(body)", message: `must not be nested deeper than ${MAX_INPUT_DEPTH} levels` },
          ]);
        }
      }
    });
    expect(await count("idempotency_key")).toBe(0);
  });

  it("REST: a body at the limit is read and judged by its schema as usual", async () => {
    const res = await rawPost("/v1/portfolios", `{"name":"P","notes":${deepObjects(MAX_INPUT_DEPTH - 1)}}`, {
      "idempotency-key": "at-limit",
    });
    const errors = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(errors).toEqual([{ path: "notes", message: expect.any(String) }]);
  });

  it.each([
    ["with an Idempotency-Key", { "idempotency-key": "deep-gql" }],
    ["without one", {}],
  ])("GraphQL: variables nested past the limit, %s, answer 400 with VALIDATION_FAILED", async (_label, headers) => {
    await unchanged(async () => {
      for (const variables of [
        `{"input":{"name":"P","x":${deepArrays(5000)}}}`,
        `{"input":${deepObjects(tooDeep, '{"name":"P"}')}}`,
      ]) {
        const res = await gqlRaw(`{"query":${JSON.stringify(CREATE_PORTFOLIO)},"variables":${variables}}`, headers);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([
          {
            message: `The request body is nested deeper than ${MAX_INPUT_DEPTH} levels.`,
            extensions: {
              code: "VALIDATION_FAILED",
              errors: [{ path: "variables", message: `must not be nested deeper than ${MAX_INPUT_DEPTH} levels` }],
              requestId: expect.any(String),
            },
          },
        ]);
      }
    });
    expect(await count("idempotency_key")).toBe(0);
  });

  it("GraphQL: deep variables in a GET's query string answer 400 too", async () => {
    const variables = JSON.stringify({ x: JSON.parse(deepArrays(tooDeep)) });
    const res = await t.http
      .get("/graphql")
      .query({ query: "{ portfolios { id } }", variables })
      .set("authorization", key)
      .set("apollo-require-preflight", "1");
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "variables", message: expect.stringContaining(`${MAX_INPUT_DEPTH} levels`) }],
    });
  });

  it("GraphQL: a GET with the deep variables first and a second `variables` after them answers 400 too (Apollo reads the first)", async () => {
    const variables = JSON.stringify({ x: JSON.parse(deepArrays(tooDeep)) });
    const query = new URLSearchParams([
      ["query", "{ portfolios { id } }"],
      ["variables", variables],
      ["variables", "{}"],
    ]).toString();
    const res = await t.http.get(`/graphql?${query}`).set("authorization", key).set("apollo-require-preflight", "1");
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path: "variables" }] });
  });

  it("the request fingerprint walks without recursion: 200,000 levels do not overflow the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { a: deep };
    const text = canonicalJson(deep);
    expect(text.length).toBe(1 + 100_000 * 2 + 100_000 * 6);
    // Same text as before the rewrite: stored fingerprints stay valid across the upgrade.
    expect(canonicalJson({ b: [1, undefined, "x", { d: null, c: undefined, a: true }], a: 1.5 })).toBe(
      '{"a":1.5,"b":[1,null,"x",{"a":true,"d":null}]}',
    );
  });
});

describe("attachment names in UTF-8 (row 7)", () => {
  const CSV = Buffer.from("date,amount\n2024-01-10,1009.95\n", "utf8");

  /** A multipart body whose file part carries `disposition` as raw UTF-8 bytes, as a browser sends it. */
  function uploadRaw(tradeId: number, disposition: string) {
    const boundary = "bounded-input-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: text/csv\r\n\r\n`,
      "utf8",
    );
    const body = Buffer.concat([head, CSV, Buffer.from(`\r\n--${boundary}--\r\n`, "latin1")]);
    return t.http
      .put(`/v1/trades/${tradeId}/attachment`)
      .set("authorization", key)
      .set("content-type", `multipart/form-data; boundary=${boundary}`)
      .send(body);
  }

  /** RFC 8187's ext-value: percent-encoded UTF-8, `'()*` included (encodeURIComponent leaves them). */
  const rfc8187 = (name: string) =>
    encodeURIComponent(name).replace(/['()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  /** RFC 8187's ext-value of `filename*`, decoded. */
  const extendedName = (header: string) =>
    decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(header)?.[1] ?? "<no filename*>");

  it.each([
    ["RFC 5987 filename* (Chinese)", "报告.csv", `filename*=UTF-8''${encodeURIComponent("报告.csv")}`, "__.csv"],
    [
      "RFC 5987 filename* (an emoji)",
      "📈 notes.csv",
      `filename*=UTF-8''${encodeURIComponent("📈 notes.csv")}`,
      "__ notes.csv",
    ],
    [
      "a raw UTF-8 filename, as browsers send it",
      "rapport-é-报告.csv",
      `filename="rapport-é-报告.csv"`,
      "rapport-e-__.csv",
    ],
    ["a raw UTF-8 emoji filename", "gains 📈.csv", `filename="gains 📈.csv"`, "gains __.csv"],
    [
      "a Latin-1 name with a quote",
      'café "Q1" (draft).csv',
      `filename*=UTF-8''${rfc8187('café "Q1" (draft).csv')}`,
      "cafe _Q1_ (draft).csv",
    ],
  ])(
    "%s: stored as sent, downloaded with an ASCII fallback and filename*",
    async (_label, name, disposition, fallback) => {
      const p = await newPortfolio(t, key);
      const { id: tradeId } = await newTrade(t, key, {
        portfolioId: p,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-10",
        quantity: 10,
        price: 100,
      });

      const up = await uploadRaw(tradeId, disposition);
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ tradeId, fileName: name, contentType: "text/csv", size: CSV.length });

      const got = await t.http.get(`/v1/trades/${tradeId}/attachment`).set("authorization", key).buffer(true);
      expect(got.status).toBe(200);
      const header = got.headers["content-disposition"] as string;
      expect(header).toMatch(
        /^attachment; filename=("[^"]+"|[!#$%&'*+\-.^_`|~0-9A-Za-z]+); filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+$/,
      );
      expect(/filename="?([^";]+)"?;/.exec(header)?.[1]).toBe(fallback);
      expect(extendedName(header)).toBe(name);
      expect(got.text).toBe(CSV.toString("utf8"));

      const trade = await t.http.get(`/v1/trades/${tradeId}`).set("authorization", key);
      expect(trade.body.hasAttachment).toBe(true);
    },
  );

  it("keeps 255 characters counted in code points, and drops controls and bidi overrides", async () => {
    const p = await newPortfolio(t, key);
    const { id: tradeId } = await newTrade(t, key, {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    });
    // 254 letters and an emoji (two UTF-16 units): a cut by UTF-16 units left half a surrogate pair.
    const long = "a".repeat(254) + "📈📈.csv";
    expect((await uploadRaw(tradeId, `filename*=UTF-8''${rfc8187(long)}`)).body.fileName).toBe("a".repeat(254) + "📈");
    const spoof = await uploadRaw(tradeId, `filename*=UTF-8''${rfc8187("invoice\u202Efdp.exe\u0007.csv")}`);
    expect(spoof.body.fileName).toBe("invoice_fdp.exe_.csv");
    expect((await t.http.get(`/v1/trades/${tradeId}/attachment`).set("authorization", key)).status).toBe(200);
  });

  it("an ASCII name keeps the plain filename parameter only", async () => {
    const p = await newPortfolio(t, key);
    const { id: tradeId } = await newTrade(t, key, {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    });
    expect((await uploadRaw(tradeId, `filename="statement 2024.csv"`)).status).toBe(200);
    const got = await t.http.get(`/v1/trades/${tradeId}/attachment`).set("authorization", key);
    expect(got.headers["content-disposition"]).toBe('attachment; filename="statement 2024.csv"');
  });
});

describe("subscriptions answer 400 like any operation the service does not run (row 9)", () => {
  it("answers 400 GRAPHQL_VALIDATION_FAILED, runs nothing and logs no error", async () => {
    const lines: { level: number; msg?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
          lines.push(JSON.parse(line) as { level: number; msg?: string });
        done();
      },
    });
    // A second app over the same database, whose log the test reads.
    const logged = await createApp({
      db: t.db,
      log: pino({ level: "trace" }, sink),
      config: { rateLimitPerSecond: 0, rateLimitBurst: 50, corsOrigins: [] },
    });
    try {
      for (const query of ["subscription { x }", "subscription OnTrade { portfolios { id } }"]) {
        const res = await request(logged.app).post("/graphql").set("authorization", key).send({ query });
        expect(res.status).toBe(400);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors).toEqual([
          expect.objectContaining({
            message: expect.stringContaining("Subscriptions are not supported"),
            extensions: expect.objectContaining({ code: "GRAPHQL_VALIDATION_FAILED" }),
          }),
        ]);
      }
    } finally {
      await logged.stop();
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe("query-string integers are decimal digits within documented bounds (row 10)", () => {
  it.each([
    ["limit=0x10", "limit"],
    ["limit=1e3", "limit"],
    ["limit=%2B5", "limit"],
    ["limit=%205", "limit"],
    ["limit=", "limit"],
    ["limit=5001", "limit"],
    ["offset=1e3", "offset"],
    ["offset=0x10", "offset"],
    ["offset=-1", "offset"],
    ["offset=9007199254740991", "offset"],
    ["offset=2147483648", "offset"],
    ["offset=1.0", "offset"],
  ])("GET …/trades?%s is a 400 naming %s", async (query, path) => {
    const p = await newPortfolio(t, key);
    const holding = await newTrade(t, key, {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    });
    const res = await t.http.get(`/v1/holdings/${holding.holdingId}/trades?${query}`).set("authorization", key);
    expect(expectProblem(res, 400, "VALIDATION_FAILED")).toEqual([{ path, message: expect.any(String) }]);
    expect(res.body.detail).toContain(path);
  });

  it("names the bounds in the message, and takes the bounds themselves", async () => {
    const p = await newPortfolio(t, key);
    const holding = await newTrade(t, key, {
      portfolioId: p,
      symbol: "CBA",
      exchange: "ASX",
      tradeType: "Buy",
      tradeDate: "2024-01-10",
      quantity: 10,
      price: 100,
    });
    const url = `/v1/holdings/${holding.holdingId}/trades`;
    const hex = await t.http.get(`${url}?limit=0x10`).set("authorization", key);
    expect(hex.body.errors[0].message).toBe("must be a whole number written in decimal digits, from 1 to 5000");
    const far = await t.http.get(`${url}?offset=9007199254740991`).set("authorization", key);
    expect(far.body.errors[0].message).toBe("must be at most 2147483647");
    for (const query of ["limit=5000&offset=2147483647", "limit=1&offset=0", "limit=016"]) {
      const res = await t.http.get(`${url}?${query}`).set("authorization", key);
      expect(res.status).toBe(200);
    }
  });

  it.each([
    ["/v1/portfolios/{p}/transactions", "offset=1e3", "offset"],
    ["/v1/portfolios/{p}/transactions", "limit=0x10", "limit"],
    ["/v1/cash-accounts/{c}/transactions", "offset=0x10", "offset"],
    ["/v1/cash-accounts/{c}/transactions", "limit=1e1", "limit"],
    ["/v1/securities/search", "q=CBA&limit=0x10", "limit"],
    ["/v1/securities/search", "q=CBA&limit=1e1", "limit"],
  ])("%s?%s is a 400 naming %s", async (path, query, field) => {
    const p = await newPortfolio(t, key);
    const c = await postCreated<{ id: number }>(t, key, "/v1/cash-accounts", {
      portfolioId: p,
      name: "Cash",
      currencyCode: "AUD",
    });
    const url = path.replace("{p}", String(p)).replace("{c}", String(c.id));
    const res = await t.http.get(`${url}?${query}`).set("authorization", key);
    expect(expectProblem(res, 400, "VALIDATION_FAILED")).toEqual([{ path: field, message: expect.any(String) }]);
  });

  it.each(["0x10", "1e3", "16.0", "%2B16", "-1", "0", "2147483648"])(
    "a path id %s is a 400 naming the id",
    async (id) => {
      const res = await t.http.get(`/v1/portfolios/${id}`).set("authorization", key);
      expect(expectProblem(res, 400, "VALIDATION_FAILED")).toEqual([
        { path: "portfolioId", message: expect.any(String) },
      ]);
    },
  );
});
