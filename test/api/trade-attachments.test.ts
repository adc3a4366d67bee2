import type { Test } from "supertest";
import { useTestApp } from "../support/app";
import { newPortfolio, newTrade as kitTrade } from "../factories";
import { ISO_UTC, PNG } from "../support/kit";

import { expectProblem, withApp } from "../support/outcomes";

/**
 * Trade attachments (docs/conventions.md §8.1, §9.1): PUT /v1/trades/{t}/attachment takes one
 * multipart field `file` (PDF, PNG, JPEG or CSV, up to 10 MiB, recognised by its bytes as well as
 * its declared type), GET answers the same bytes with their content type, DELETE removes it.
 * The transfer itself is REST only; GraphQL shows `hasAttachment` on the trade, checked beside
 * REST's. Tenancy: another account's trade is 404, a Read client key cannot upload (403).
 */

const t = useTestApp();
const { unchanged } = withApp(() => t);
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

// Small real files of each accepted type.
const PDF = Buffer.from(
  [
    "%PDF-1.4",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj",
    "trailer << /Root 1 0 R >>",
    "%%EOF",
    "",
  ].join("\n"),
  "latin1",
);
/** JPEG start of image, a JFIF APP0 segment, end of image. */
const JPEG = Buffer.from("ffd8ffe000104a46494600010100000100010000ffd9", "hex");
const CSV = Buffer.from("date,description,amount\n2024-01-10,Buy 10 CBA,1009.95\n", "utf8");
const MiB = 1024 * 1024;

interface Attachment {
  tradeId: number;
  fileName: string;
  contentType: string;
  size: number;
  createdAt: string;
}

/** A portfolio with one CBA buy; answers the trade's ids. */
async function newTrade(k = key, portfolioId?: number): Promise<{ portfolioId: number; tradeId: number }> {
  const p = portfolioId ?? (await newPortfolio(t, k));
  const trade = await kitTrade(t, k, {
    portfolioId: p,
    symbol: "CBA",
    exchange: "ASX",
    tradeType: "Buy",
    tradeDate: "2024-01-10",
    quantity: 10,
    price: 100,
  });
  return { portfolioId: p, tradeId: trade.id };
}

const upload = (tradeId: number | string, data: Buffer, filename: string, contentType: string, k = key) =>
  t.http
    .put(`/v1/trades/${tradeId}/attachment`)
    .set("authorization", k)
    .attach("file", data, { filename, contentType });

/** GET the attachment, keeping the body as raw bytes whatever its type. */
function download(tradeId: number | string, k = key): Test {
  return t.http
    .get(`/v1/trades/${tradeId}/attachment`)
    .set("authorization", k)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => cb(null, Buffer.concat(chunks)));
    });
}

async function hasAttachment(tradeId: number, k = key): Promise<{ rest: boolean; graphql: boolean }> {
  const restRes = await t.http.get(`/v1/trades/${tradeId}`).set("authorization", k);
  const gql = await t.gql(k, `query($id: ID!) { trade(id: $id) { hasAttachment } }`, { id: String(tradeId) });
  return { rest: restRes.body.hasAttachment, graphql: gql.body.data.trade.hasAttachment };
}

// =============================================================================================

describe("upload and download", () => {
  it.each([
    ["a PDF contract note", PDF, "contract-note.pdf", "application/pdf"],
    ["a PNG screenshot", PNG, "screenshot.png", "image/png"],
    ["a JPEG photo", JPEG, "photo.jpg", "image/jpeg"],
    ["a CSV statement", CSV, "statement.csv", "text/csv"],
  ])("stores %s and answers the same bytes with its content type", async (_label, data, filename, contentType) => {
    const { tradeId } = await newTrade();
    expect(await hasAttachment(tradeId)).toEqual({ rest: false, graphql: false });

    const res = await upload(tradeId, data, filename, contentType);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      tradeId,
      fileName: filename,
      contentType,
      size: data.length,
      createdAt: expect.stringMatching(ISO_UTC),
    });

    const got = await download(tradeId);
    expect(got.status).toBe(200);
    expect(got.headers["content-type"].split(";")[0]).toBe(contentType);
    // A token or a quoted string, as RFC 6266 allows: the name needs no filename* when it is ASCII.
    expect(got.headers["content-disposition"].replace(/"/g, "")).toBe(`attachment; filename=${filename}`);
    expect(Buffer.compare(got.body as Buffer, data)).toBe(0);

    expect(await hasAttachment(tradeId)).toEqual({ rest: true, graphql: true });
  });

  it("a second upload replaces the first", async () => {
    const { tradeId } = await newTrade();
    expect((await upload(tradeId, PDF, "old.pdf", "application/pdf")).status).toBe(200);
    const res = await upload(tradeId, PNG, "new.png", "image/png");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fileName: "new.png", contentType: "image/png", size: PNG.length });
    const got = await download(tradeId);
    expect(got.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(got.body as Buffer, PNG)).toBe(0);
    const [{ n }] = await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM trade_attachment");
    expect(Number(n)).toBe(1);
  });

  it("a CSV sent as application/vnd.ms-excel (as some browsers do) is kept as text/csv", async () => {
    const { tradeId } = await newTrade();
    const res = await upload(tradeId, CSV, "statement.csv", "application/vnd.ms-excel");
    expect(res.status).toBe(200);
    expect(res.body.contentType).toBe("text/csv");
  });

  it("a file of exactly 10 MiB is accepted", async () => {
    const { tradeId } = await newTrade();
    const big = Buffer.alloc(10 * MiB, 0x20);
    PDF.copy(big);
    const res = await upload(tradeId, big, "big.pdf", "application/pdf");
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(10 * MiB);
    expect(Buffer.compare((await download(tradeId)).body as Buffer, big)).toBe(0);
  });

  it("the trade's other fields are untouched by an upload", async () => {
    const { tradeId } = await newTrade();
    const before = (await t.http.get(`/v1/trades/${tradeId}`).set("authorization", key)).body;
    await upload(tradeId, PDF, "note.pdf", "application/pdf").expect(200);
    const after = (await t.http.get(`/v1/trades/${tradeId}`).set("authorization", key)).body;
    expect(after).toEqual({ ...before, hasAttachment: true });
  });
});

describe("files that are refused, writing nothing", () => {
  it.each([
    ["an HTML page", Buffer.from("<html><body>hi</body></html>"), "page.html", "text/html"],
    ["a PDF whose bytes are not a PDF", Buffer.from("<html>not a pdf</html>"), "fake.pdf", "application/pdf"],
    ["a PNG whose bytes are a JPEG", JPEG, "photo.png", "image/png"],
    ["a JPEG whose bytes are a PDF", PDF, "note.jpg", "image/jpeg"],
    ["a CSV with binary content", Buffer.from([0x61, 0x00, 0x62]), "data.csv", "text/csv"],
    ["an empty PDF", Buffer.alloc(0), "empty.pdf", "application/pdf"],
    ["an executable", Buffer.from("MZ\x90\x00"), "setup.exe", "application/octet-stream"],
  ])("rejects %s with 400 VALIDATION_FAILED naming file", async (_label, data, filename, contentType) => {
    const { tradeId } = await newTrade();
    await unchanged(async () => {
      const errors = expectProblem(await upload(tradeId, data, filename, contentType), 400, "VALIDATION_FAILED");
      expect(errors).toEqual([{ path: "file", message: expect.any(String) }]);
    });
    expect(await hasAttachment(tradeId)).toEqual({ rest: false, graphql: false });
  });

  it("a file over 10 MiB is 413 PAYLOAD_TOO_LARGE", async () => {
    const { tradeId } = await newTrade();
    const big = Buffer.alloc(10 * MiB + 1, 0x20);
    PDF.copy(big);
    await unchanged(async () => {
      expectProblem(await upload(tradeId, big, "big.pdf", "application/pdf"), 413, "PAYLOAD_TOO_LARGE");
    });
  });

  it("a request without the file field, or with the file in another field, is 400; a JSON body is 415", async () => {
    const { tradeId } = await newTrade();
    await unchanged(async () => {
      const none = await t.http
        .put(`/v1/trades/${tradeId}/attachment`)
        .set("authorization", key)
        .field("note", "no file");
      expect(expectProblem(none, 400, "VALIDATION_FAILED")).toEqual([{ path: "file", message: expect.any(String) }]);
      const json = await t.http
        .put(`/v1/trades/${tradeId}/attachment`)
        .set("authorization", key)
        .send({ file: PDF.toString("base64") });
      expectProblem(json, 415, "UNSUPPORTED_MEDIA_TYPE");
      const wrongField = await t.http
        .put(`/v1/trades/${tradeId}/attachment`)
        .set("authorization", key)
        .attach("document", PDF, { filename: "n.pdf", contentType: "application/pdf" });
      expectProblem(wrongField, 400, "VALIDATION_FAILED");
    });
  });
});

describe("absent attachments and deletion", () => {
  it("GET is 404 when the trade has no attachment", async () => {
    const { tradeId } = await newTrade();
    expectProblem(await download(tradeId), 404, "NOT_FOUND");
  });

  it("GET and PUT are 404 for a trade that does not exist; a bad id is 400 naming tradeId", async () => {
    expectProblem(await download(999999), 404, "NOT_FOUND");
    expectProblem(await upload(999999, PDF, "n.pdf", "application/pdf"), 404, "NOT_FOUND");
    expect(expectProblem(await download("abc"), 400, "VALIDATION_FAILED")).toEqual([
      { path: "tradeId", message: expect.any(String) },
    ]);
  });

  it("DELETE removes the attachment (204), then GET and a second DELETE are 404", async () => {
    const { tradeId } = await newTrade();
    await upload(tradeId, PDF, "n.pdf", "application/pdf").expect(200);
    const del = await t.http.delete(`/v1/trades/${tradeId}/attachment`).set("authorization", key);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expectProblem(await download(tradeId), 404, "NOT_FOUND");
    expectProblem(await t.http.delete(`/v1/trades/${tradeId}/attachment`).set("authorization", key), 404, "NOT_FOUND");
    expect(await hasAttachment(tradeId)).toEqual({ rest: false, graphql: false });
  });

  it("deleting the trade deletes its attachment", async () => {
    const { tradeId } = await newTrade();
    await upload(tradeId, PDF, "n.pdf", "application/pdf").expect(200);
    expect((await t.http.delete(`/v1/trades/${tradeId}`).set("authorization", key)).status).toBe(204);
    const [{ n }] = await t.db.sql<{ n: unknown }>("SELECT count(*) AS n FROM trade_attachment");
    expect(Number(n)).toBe(0);
    expectProblem(await download(tradeId), 404, "NOT_FOUND");
  });
});

describe("tenancy and permissions", () => {
  it("another account's trade is 404 on upload, download and delete, and nothing changes", async () => {
    const { tradeId } = await newTrade();
    await upload(tradeId, PDF, "mine.pdf", "application/pdf").expect(200);
    const other = await t.newAccount();
    await unchanged(async () => {
      expectProblem(await upload(tradeId, PNG, "theirs.png", "image/png", other), 404, "NOT_FOUND");
      expectProblem(await download(tradeId, other), 404, "NOT_FOUND");
      expectProblem(
        await t.http.delete(`/v1/trades/${tradeId}/attachment`).set("authorization", other),
        404,
        "NOT_FOUND",
      );
    });
    const gql = await t.gql(other, `query($id: ID!) { trade(id: $id) { hasAttachment } }`, { id: String(tradeId) });
    expect(gql.body).toEqual({ data: { trade: null } });
    expect(Buffer.compare((await download(tradeId)).body as Buffer, PDF)).toBe(0);
  });

  it("a Read client key may download but gets 403 on upload and delete, writing nothing", async () => {
    const { portfolioId, tradeId } = await newTrade();
    await upload(tradeId, PDF, "n.pdf", "application/pdf").expect(200);
    const reader = await t.newClientKey(key, "Read", [portfolioId]);
    await unchanged(async () => {
      expectProblem(await upload(tradeId, PNG, "x.png", "image/png", reader), 403, "FORBIDDEN");
      expectProblem(
        await t.http.delete(`/v1/trades/${tradeId}/attachment`).set("authorization", reader),
        403,
        "FORBIDDEN",
      );
    });
    const got = await download(tradeId, reader);
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, PDF)).toBe(0);
  });

  it("a ReadWrite client key may upload to its own portfolio's trades, and gets 404 on another portfolio's", async () => {
    const mine = await newTrade();
    const notAssigned = await newTrade();
    const writer = await t.newClientKey(key, "ReadWrite", [mine.portfolioId]);
    expect((await upload(mine.tradeId, PNG, "x.png", "image/png", writer)).status).toBe(200);
    await unchanged(async () => {
      expectProblem(await upload(notAssigned.tradeId, PNG, "x.png", "image/png", writer), 404, "NOT_FOUND");
      expectProblem(await download(notAssigned.tradeId, writer), 404, "NOT_FOUND");
    });
  });
});
