import type request from "supertest";
import { useTestApp } from "../support/app";

/**
 * The probes and the documentation need no key: /health, /ready, /v1/openapi.json and /docs/.
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

describe("probes and documentation need no key", () => {
  it("/health answers 200 {status: ok}", async () => {
    const res = await t.http.get("/health");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("/ready answers 200 {status: ready}", async () => {
    const res = await t.http.get("/ready");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: "ready" });
  });

  it("/v1/openapi.json is OpenAPI 3.1 and documents every path with its methods", async () => {
    const res = await t.http.get("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const expected: Record<string, string[]> = {
      "/v1/sources": ["get"],
      "/v1/portfolios": ["get", "post"],
      "/v1/portfolios/{portfolioId}": ["delete", "get", "put"],
      "/v1/portfolios/{portfolioId}/allocation-models": ["get", "post"],
      "/v1/portfolios/{portfolioId}/allocation-models/active": ["get"],
      "/v1/allocation-models/{publicId}": ["delete", "get"],
      "/v1/allocation-models/{publicId}/activate": ["post"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths[path]).toBeDefined();
      const documented = Object.keys(doc.paths[path]).filter((m) =>
        ["get", "put", "post", "delete", "patch"].includes(m),
      );
      expect({ path, methods: documented.sort() }).toEqual({ path, methods });
      for (const m of methods) {
        expect(doc.paths[path][m].responses).toBeDefined();
        // Every path parameter of the template is declared.
        const declared = (doc.paths[path][m].parameters ?? [])
          .filter((p: { in: string }) => p.in === "path")
          .map((p: { name: string }) => p.name);
        const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
        expect(declared.sort()).toEqual(inTemplate.sort());
      }
    }
    // Same document through the alias.
    expect((await t.http.get("/api/v1/openapi.json")).body).toEqual(doc);
  });

  it("documents the request body schema of POST /v1/portfolios", async () => {
    const doc = (await t.http.get("/v1/openapi.json")).body;
    const body = doc.paths["/v1/portfolios"].post.requestBody;
    expect(body).toBeDefined();
    let schema = body.content["application/json"].schema;
    const seen = new Set<string>();
    while (schema?.$ref) {
      expect(schema.$ref).toMatch(/^#\/components\/schemas\//);
      expect(seen.has(schema.$ref)).toBe(false);
      seen.add(schema.$ref);
      schema = doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")];
    }
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties).sort()).toEqual([
      "baseCurrencyCode",
      "entityType",
      "financialYearEnd",
      "name",
      "taxResidency",
    ]);
    expect(schema.required).toEqual(["name"]);
    // Every $ref in the document resolves.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    for (const r of new Set(refs))
      expect({ ref: r, found: r in doc.components.schemas }).toEqual({ ref: r, found: true });
  });

  it("/docs/ is an HTML page whose scripts and styles are served locally", async () => {
    const redirect = await t.http.get("/docs");
    expect([200, 301, 302, 308]).toContain(redirect.status);

    const res = await t.http.get("/docs/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    const html = res.text;
    const refs = [...html.matchAll(/\s(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
    const scripts = [...html.matchAll(/<script[^>]*\ssrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
    const styles = [...html.matchAll(/<link[^>]*rel\s*=\s*["']stylesheet["'][^>]*>/gi)];
    expect(refs.length).toBeGreaterThanOrEqual(3);
    expect(scripts.length).toBeGreaterThanOrEqual(1);
    expect(styles.length).toBeGreaterThanOrEqual(1);
    // No asset from a CDN: every URL in the page is local, apart from XML namespace names.
    const absolute = [...html.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi)].map((m) => m[0]);
    expect(absolute.filter((u) => !/^http:\/\/www\.w3\.org\//.test(u))).toEqual([]);
    for (const ref of refs) {
      expect(ref).not.toMatch(/^(https?:)?\/\//i);
      const url = new URL(ref, "http://localhost/docs/");
      expect(url.pathname.startsWith("/docs/")).toBe(true);
      const asset = await t.http.get(url.pathname);
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
      if (/\.js$/.test(url.pathname)) expect(asset.headers["content-type"]).toMatch(/javascript/);
      if (/\.css$/.test(url.pathname)) expect(asset.headers["content-type"]).toMatch(/^text\/css/);
    }
  });
});
