import { isWrite } from "../../src/http/endpoint";
import { endpoints } from "../../src/http/router";
import { useTestApp } from "../support/app";
import { OpenApiContract, type OpenApiDocument } from "../support/openapi";
import {
  BODYLESS_WRITES,
  fixtureUrl,
  seedWriteFixture,
  writeBodies,
  type FixtureIds,
} from "../scenarios/write-fixture";
import {
  MISSING_ID,
  type Call,
  SUCCESS,
  BAD_QUERY,
  MISSING_REFERENCE,
  RULES,
  pathParams,
  contractDriver,
} from "./openapi-contract.cases";

/**
 * Every operation driven over HTTP: its documented success, and its documented errors.
 *
 * The OpenAPI document is the contract: every operation of the `endpoints` table is driven over
 * HTTP (a success and its errors), and every answer must have a status the document lists for that
 * operation, a documented content type, a body valid against the documented schema (ajv, strict,
 * JSON Schema 2020-12) and the documented headers. A route added without a case here fails.
 */

const t = useTestApp({ reset: "none" });
let doc: OpenApiDocument;
let contract: OpenApiContract;
/** One account's fixture for reads and refused requests (neither changes it). */
let shared: { key: string; readKey: string; ids: FixtureIds };

const { drive, servedContract } = contractDriver(t, () => contract);

beforeAll(async () => {
  ({ doc, contract, shared } = await servedContract());
});

const fixtureOf = (ids: FixtureIds, custom = false) => (custom ? { ...ids, holdingId: ids.customHoldingId } : ids);

describe.each(endpoints.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))("%s", (_name, e) => {
  const success = SUCCESS[e.operationId] ?? {};
  const urlFor = (ids: FixtureIds, given = success.query) => {
    const query = typeof given === "function" ? given(ids) : given;
    return fixtureUrl(e.path, fixtureOf(ids, success.customHolding), "the contract table") + (query ? `?${query}` : "");
  };
  const validBody = (ids: FixtureIds) =>
    e.upload || BODYLESS_WRITES.has(e.operationId) ? undefined : writeBodies(ids)[e.operationId];

  it("answers its documented success", async () => {
    if (!(e.operationId in SUCCESS)) throw new Error(`no case for ${e.operationId}: add one to SUCCESS`);
    // A write runs over a fresh fixture of its own; a read over the shared one.
    const key = e.method === "get" ? shared.key : await t.newAccount();
    const ids = e.method === "get" ? shared.ids : await seedWriteFixture(t, key);
    const calls: Call[] = [
      {
        what: "success",
        method: e.method,
        url: urlFor(ids),
        key,
        body: validBody(ids),
        upload: e.upload,
        expect: e.status ?? 200,
      },
      ...(success.more?.(ids) ?? []).map(({ query, ...c }) => ({
        ...c,
        method: e.method,
        url: urlFor(ids, query ?? success.query),
        key,
      })),
    ];
    const problems: string[] = [];
    for (const c of calls) {
      const { res, problems: p } = await drive(t.http, e, c);
      problems.push(...p);
      // A Location must lead to the resource just made.
      const location = res.headers.location as string | undefined;
      if (res.status === 201 && location) {
        const back = await t.http.get(location).set("authorization", key);
        if (back.status !== 200) problems.push(`${c.what}: Location ${location} answers ${back.status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers its documented errors", async () => {
    const { key, readKey, ids } = shared;
    const body = validBody(ids);
    const base = { method: e.method, body, upload: e.upload };
    const calls: Call[] = [{ ...base, what: "no key", url: urlFor(ids), expect: 401 }];
    for (const param of pathParams(e)) {
      const isString = e.stringParams?.includes(param);
      if (!isString)
        calls.push({
          ...base,
          what: `:${param} = 0`,
          url: fixtureUrl(e.path, { ...fixtureOf(ids, success.customHolding), [param]: "0" }),
          key,
          expect: 400,
        });
      calls.push({
        ...base,
        what: `:${param} does not exist`,
        url: fixtureUrl(e.path, {
          ...fixtureOf(ids, success.customHolding),
          [param]: isString ? "no-such-model" : MISSING_ID,
        }),
        key,
        expect: 404,
      });
    }
    if (isWrite(e) || e.errors?.includes(403))
      calls.push({ ...base, what: "a client key with Read permission", url: urlFor(ids), key: readKey, expect: 403 });
    if (BAD_QUERY[e.operationId])
      calls.push({
        ...base,
        what: `?${BAD_QUERY[e.operationId]}`,
        url: urlFor(ids, BAD_QUERY[e.operationId]),
        key,
        expect: 400,
      });
    if (MISSING_REFERENCE[e.operationId])
      calls.push({
        ...base,
        what: "a body naming a missing resource",
        url: urlFor(ids),
        key,
        body: MISSING_REFERENCE[e.operationId](ids),
        expect: 404,
      });
    if (RULES[e.operationId]) {
      const { query, ...rule } = RULES[e.operationId](ids);
      calls.push({ ...base, ...rule, url: urlFor(ids, query ?? success.query), key });
    }
    if (e.body) {
      const unknown = Array.isArray(body)
        ? [{ ...body[0], unexpectedField: 1 }]
        : { ...(body as object), unexpectedField: 1 };
      calls.push({ ...base, what: "an unknown field", url: urlFor(ids), key, body: unknown, expect: 400 });
      calls.push({ ...base, what: "malformed JSON", url: urlFor(ids), key, body: '{"name": ', expect: 400 });
    }
    const problems: string[] = [];
    for (const c of calls) problems.push(...(await drive(t.http, e, c, { checkRequest: false })).problems);
    // A wrong content type: 415 (docs/conventions.md §5); 400 while the body parsers leave such a body unread.
    if (e.body) {
      const c: Call = {
        ...base,
        what: "content type application/xml",
        url: urlFor(ids),
        key,
        contentType: "application/xml",
        body: "<trade/>",
        expect: [415, 400],
      };
      problems.push(...(await drive(t.http, e, c, { checkRequest: false })).problems);
    }
    expect(problems).toEqual([]);
  });
});
