import type { Response } from "supertest";

import { endpoints } from "../../src/http/router";

import { useTestApp } from "../support/app";
import { expectProblem, withApp } from "../support/outcomes";

import { fixtureUrl, seedWriteFixture, writeBodies, type FixtureIds } from "../scenarios/write-fixture";

/**
 * Bad input of every kind answers 4xx problem+json (GraphQL: an error with extensions.code) and
 * writes nothing: bodies that are not what their Content-Encoding says, NUL and unpaired
 * surrogates in paths, queries, bodies and GraphQL arguments, malformed multipart uploads, import
 * rows naming another portfolio, and allocation models along another account's custom group.
 * Each case was a 500 or a silent write once.
 */
const t = useTestApp({ reset: "none" });
const { unchanged } = withApp(() => t);
let key: string;
let otherKey: string;
let ids: FixtureIds;

beforeAll(async () => {
  key = await t.newAccount("owner");
  otherKey = await t.newAccount("other");
  ids = await seedWriteFixture(t, key);
});

/** The first GraphQL error's code; the operation's field is null. */
function gqlCode(res: Response, field?: string): string | undefined {
  expect(res.status).toBeLessThan(500);
  if (field) expect(res.body.data?.[field] ?? null).toBeNull();
  return res.body.errors?.[0]?.extensions?.code;
}

const rawJson = (method: "post" | "put", url: string, body: string | Buffer, headers: Record<string, string> = {}) => {
  const req = t.http[method](url).set("authorization", key).set("content-type", "application/json");
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  // No serialisation: the bytes go out exactly as given.
  return req.serialize((b: unknown) => b as string).send(body as never);
};

describe("a body that is not what its Content-Encoding says", () => {
  const jsonWrites = () => endpoints.filter((e) => (e.method === "post" || e.method === "put") && !e.upload);

  it.each(["gzip", "deflate", "br"])(
    "answers 400 VALIDATION_FAILED on every JSON write (%s), and writes nothing",
    async (encoding) => {
      await unchanged(async () => {
        const outcomes: string[] = [];
        for (const e of jsonWrites()) {
          const body = JSON.stringify(writeBodies(ids)[e.operationId] ?? {});
          const res = await rawJson(e.method as "post" | "put", fixtureUrl(e.path, ids), body, {
            "content-encoding": encoding,
          });
          outcomes.push(`${e.operationId} → ${res.status} ${res.body?.code}`);
        }
        expect(outcomes.length).toBeGreaterThanOrEqual(26);
        expect(outcomes.filter((o) => !o.endsWith("→ 400 VALIDATION_FAILED"))).toEqual([]);
      });
    },
  );

  it("answers 400 on /graphql too, and a truly compressed body is still read", async () => {
    const zlib = await import("node:zlib");
    await unchanged(async () => {
      const res = await t.http
        .post("/graphql")
        .set("authorization", key)
        .set("content-type", "application/json")
        .set("content-encoding", "gzip")
        .send('{"query":"mutation { deletePortfolio(id: 1) }"}');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe("VALIDATION_FAILED");
    });
    const ok = await rawJson(
      "post",
      "/v1/custom-groups",
      zlib.gzipSync(JSON.stringify({ name: "Zipped", labels: ["A"] })),
      { "content-encoding": "gzip" },
    );
    expect(ok.status).toBe(201);
  });

  it("answers 400 to a body that is not UTF-8, and to a URL that is not percent-encoded UTF-8", async () => {
    await unchanged(async () => {
      const notUtf8 = await rawJson(
        "post",
        "/v1/portfolios",
        Buffer.from([...Buffer.from('{"name":"'), 0xff, 0xfe, ...Buffer.from('"}')]),
      );
      expectProblem(notUtf8, 400, "VALIDATION_FAILED");
      // The remedy too: what Excel calls its CSV that is UTF-8, and the charset of the one that is not.
      expect(notUtf8.body.detail).toMatch(/^The request body is not valid UTF-8\. Send UTF-8 .*charset=windows-1252/);
      expectProblem(
        await t.http.get("/v1/allocation-models/%E0%A4%A").set("authorization", key),
        400,
        "VALIDATION_FAILED",
      );
      expectProblem(await t.http.delete("/v1/portfolios/%FF").set("authorization", key), 400, "VALIDATION_FAILED");
    });
  });
});

describe("a NUL byte in a path id or a query", () => {
  it("REST: answers 400 VALIDATION_FAILED naming the parameter, and writes nothing", async () => {
    await unchanged(async () => {
      for (const [method, url, path] of [
        ["get", "/v1/allocation-models/%00", "publicId"],
        ["delete", "/v1/allocation-models/%00", "publicId"],
        ["post", "/v1/allocation-models/a%00b/activate", "publicId"],
        ["get", "/v1/securities/search?q=%00", "q"],
        ["get", "/v1/portfolios/%00", "portfolioId"],
      ] as const) {
        const res = await t.http[method](url).set("authorization", key);
        expectProblem(res, 400, "VALIDATION_FAILED");
        expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(/NUL/) }]);
      }
    });
  });

  it("GraphQL: answers VALIDATION_FAILED, from a variable or an inline literal, and writes nothing", async () => {
    await unchanged(async () => {
      expect(
        gqlCode(
          await t.gql(key, "query($id: ID!) { allocationModel(publicId: $id) { name } }", { id: "\u0000" }),
          "allocationModel",
        ),
      ).toBe("VALIDATION_FAILED");
      expect(
        gqlCode(
          await t.gql(key, 'mutation { activateAllocationModel(publicId: "\\u0000") { name } }'),
          "activateAllocationModel",
        ),
      ).toBe("VALIDATION_FAILED");
      expect(
        gqlCode(await t.gql(key, 'mutation { deleteAllocationModel(publicId: "a\\u0000") }'), "deleteAllocationModel"),
      ).toBe("VALIDATION_FAILED");
      expect(
        gqlCode(
          await t.gql(key, "query($q: String!) { searchSecurities(q: $q) { symbol } }", { q: "\u0000" }),
          "searchSecurities",
        ),
      ).toBe("VALIDATION_FAILED");
      expect(
        gqlCode(await t.gql(key, 'query { searchSecurities(q: "CB\\u0000") { symbol } }'), "searchSecurities"),
      ).toBe("VALIDATION_FAILED");
    });
  });
});

describe("a lone UTF-16 surrogate in custom-group labels", () => {
  it("REST: answers 400 VALIDATION_FAILED naming the label on create and update, and writes nothing", async () => {
    await unchanged(async () => {
      let res = await rawJson("post", "/v1/custom-groups", '{"name":"Surrogates","labels":["ok","\\ud800"]}');
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(res.body.errors).toEqual([{ path: "labels[1]", message: expect.stringMatching(/surrogate/) }]);
      res = await rawJson("put", `/v1/custom-groups/${ids.groupId}`, '{"labels":["Core","Satellite","\\udc00x"]}');
      expectProblem(res, 400, "VALIDATION_FAILED");
      res = await rawJson("post", "/v1/portfolios", '{"name":"x\\udbff"}');
      expectProblem(res, 400, "VALIDATION_FAILED");
    });
  });

  it("GraphQL: answers VALIDATION_FAILED from variables, and a parse error with a code from a literal; writes nothing", async () => {
    await unchanged(async () => {
      const create = "mutation($input: CreateCustomGroupInput!) { createCustomGroup(input: $input) { id } }";
      let res = await t.gql(key, create, { input: { name: "Surrogates", labels: ["ok", "\ud800"] } });
      expect(gqlCode(res, "createCustomGroup")).toBe("VALIDATION_FAILED");
      expect(res.body.errors[0].extensions.errors).toEqual([
        { path: "labels[1]", message: expect.stringMatching(/surrogate/) },
      ]);
      res = await t.gql(
        key,
        "mutation($id: ID!, $input: UpdateCustomGroupInput!) { updateCustomGroup(id: $id, input: $input) { id } }",
        { id: String(ids.groupId), input: { labels: ["\udc00"] } },
      );
      expect(gqlCode(res, "updateCustomGroup")).toBe("VALIDATION_FAILED");
      res = await t.gql(key, 'mutation { createCustomGroup(input: { name: "S", labels: ["\\ud800"] }) { id } }');
      expect(gqlCode(res)).toBe("GRAPHQL_PARSE_FAILED");
      res = await t.gql(key, 'mutation { createCustomGroup(input: { name: "S\\u0000", labels: ["A"] }) { id } }');
      expect(gqlCode(res, "createCustomGroup")).toBe("VALIDATION_FAILED");
    });
  });
});

describe("a malformed multipart upload", () => {
  const part = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 replaced\r\n`;
  it.each([
    ["a truncated body", "multipart/form-data; boundary=XX", part("XX")],
    ["the wrong boundary", "multipart/form-data; boundary=YY", part("XX") + "--XX--\r\n"],
    ["no boundary", "multipart/form-data", part("XX") + "--XX--\r\n"],
    [
      "a broken part header",
      "multipart/form-data; boundary=XX",
      "--XX\r\nContent-Disposition form-data\r\n" + "x".repeat(20_000) + "\r\n\r\n--XX--\r\n",
    ],
  ])("answers 400 VALIDATION_FAILED to %s, and keeps the attachment", async (_what, type, body) => {
    await unchanged(async () => {
      const res = await t.http
        .put(`/v1/trades/${ids.tradeId}/attachment`)
        .set("authorization", key)
        .set("content-type", type)
        .send(body);
      expectProblem(res, 400, "VALIDATION_FAILED");
    });
  });

  it("answers 415 UNSUPPORTED_MEDIA_TYPE to multipart/mixed (the upload reads multipart/form-data), and keeps the attachment", async () => {
    await unchanged(async () => {
      const res = await t.http
        .put(`/v1/trades/${ids.tradeId}/attachment`)
        .set("authorization", key)
        .set("content-type", "multipart/mixed; boundary=XX")
        .send(part("XX") + "--XX--\r\n");
      expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(res.body.detail).toContain("multipart/form-data");
    });
  });
});

describe("trade import rows naming a portfolio", () => {
  const row = (extra: object) => ({
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-02-01",
    quantity: 1,
    price: 1,
    ...extra,
  });

  it("answers 400 naming the line of a row with another portfolioId, and writes nothing", async () => {
    const stranger = (await t.http.post("/v1/portfolios").set("authorization", otherKey).send({ name: "Theirs" })).body
      .id;
    const mine = (await t.http.post("/v1/portfolios").set("authorization", key).send({ name: "Mine too" })).body.id;
    for (const other of [stranger, mine, 999_999]) {
      await unchanged(async () => {
        const res = await t.http
          .post(`/v1/portfolios/${ids.portfolioId}/trades/import`)
          .set("authorization", key)
          .send([row({}), row({ portfolioId: other })]);
        expectProblem(res, 400, "VALIDATION_FAILED");
        expect(res.body.errors).toEqual([
          { path: "line 2.portfolioId", message: expect.stringContaining(`must be ${ids.portfolioId}`), line: 2 },
        ]);
      });
    }
  });

  it("accepts rows naming the path's portfolio (as a number or a string)", async () => {
    const res = await t.http
      .post(`/v1/portfolios/${ids.portfolioId}/trades/import?dryRun=true`)
      .set("authorization", key)
      .send([row({ portfolioId: ids.portfolioId }), row({ portfolioId: String(ids.portfolioId) })]);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(2);
  });
});

describe("an allocation model along a custom group", () => {
  const model = (dimension: string, publicId?: string) => ({
    publicId,
    name: "By group",
    dimension,
    buckets: [{ label: "Core", targetPct: 100 }],
  });
  const SAVE =
    "mutation($p: ID!, $input: AllocationModelInput!) { saveAllocationModel(portfolioId: $p, input: $input) { publicId } }";
  let foreignGroup: number;
  beforeAll(async () => {
    foreignGroup = (
      await t.http
        .post("/v1/custom-groups")
        .set("authorization", otherKey)
        .send({ name: "Theirs", labels: ["Core"] })
    ).body.id;
  });

  it("REST and GraphQL: another account's group, or none, answers 404 NOT_FOUND on create and update, and writes nothing", async () => {
    const saveUrl = `/v1/portfolios/${ids.portfolioId}/allocation-models`;
    await unchanged(async () => {
      for (const dimension of [`customGroup:${foreignGroup}`, "customGroup:999999", "customGroup:2147483647"]) {
        for (const publicId of [undefined, ids.publicId as string]) {
          const res = await t.http.post(saveUrl).set("authorization", key).send(model(dimension, publicId));
          expectProblem(res, 404, "NOT_FOUND");
          expect(res.body.errors).toEqual([{ path: "dimension", message: expect.any(String) }]);
          expect(
            gqlCode(
              await t.gql(key, SAVE, { p: String(ids.portfolioId), input: model(dimension, publicId) }),
              "saveAllocationModel",
            ),
          ).toBe("NOT_FOUND");
        }
      }
      expectProblem(
        await t.http.post(saveUrl).set("authorization", key).send(model("customGroup:99999999999")),
        400,
        "VALIDATION_FAILED",
      );
    });
  });

  it("accepts the account's own group, and answers 404 on activation once that group is gone", async () => {
    const group = (
      await t.http
        .post("/v1/custom-groups")
        .set("authorization", key)
        .send({ name: "Short-lived", labels: ["Core"] })
    ).body.id;
    const saved = await t.http
      .post(`/v1/portfolios/${ids.portfolioId}/allocation-models`)
      .set("authorization", key)
      .send(model(`customGroup:${group}`));
    expect(saved.status).toBe(201);
    await t.http.delete(`/v1/custom-groups/${group}`).set("authorization", key).expect(204);
    await unchanged(async () => {
      expectProblem(
        await t.http.post(`/v1/allocation-models/${saved.body.publicId}/activate`).set("authorization", key),
        404,
        "NOT_FOUND",
      );
      const res = await t.gql(key, "mutation($id: ID!) { activateAllocationModel(publicId: $id) { publicId } }", {
        id: saved.body.publicId,
      });
      expect(gqlCode(res, "activateAllocationModel")).toBe("NOT_FOUND");
    });
  });
});
