import type { Context } from "../../context";
import { DomainError, notFound } from "../../lib/domain-errors";
import { parseId } from "../../lib/validation";
import { holdingWhere } from "../holdings/holdings.service";
import { assertCanWrite } from "../ledger/portfolio-access";

/** A trade's contract note or statement, kept in the database. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** Accepted types, each recognised by its first bytes, so the stored type matches the file. */
const TYPES: Record<string, { extension: string; matches: (b: Uint8Array) => boolean }> = {
  "application/pdf": { extension: "pdf", matches: (b) => Buffer.from(b.subarray(0, 5)).toString("latin1") === "%PDF-" },
  "image/png": {
    extension: "png",
    matches: (b) => Buffer.from(b.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  "image/jpeg": { extension: "jpg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  "text/csv": { extension: "csv", matches: (b) => !b.subarray(0, 4096).includes(0) },
};
/** The content types an attachment may have, and so its download. */
export const ATTACHMENT_TYPES = Object.keys(TYPES);

export interface UploadedFile {
  originalName: string;
  mimeType: string;
  data: Uint8Array;
}

export interface AttachmentView {
  tradeId: number;
  fileName: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

/**
 * The name as sent, minus what has no place in a file name: path separators, control characters
 * (C0, DEL, C1) and bidirectional overrides (which make `gnp.exe` display as `exe.png`). At most
 * 255 characters, counted in code points as the column counts them, so an emoji is never cut in half.
 */
function safeFileName(name: string): string {
  return Array.from(name.replace(/[/\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "_"))
    .slice(0, 255)
    .join("");
}

async function tradeOf(ctx: Context, tradeId: unknown): Promise<number> {
  const id = parseId(tradeId, "tradeId");
  const trade = await ctx.db.trade.findFirst({ where: { id, holding: holdingWhere(ctx) }, select: { id: true } });
  if (!trade) throw notFound(`Trade ${id}`);
  return id;
}

/** PUT /v1/trades/{t}/attachment: stores the file (replacing any earlier one). */
export async function uploadTradeAttachment(
  ctx: Context,
  tradeId: unknown,
  file: UploadedFile | undefined,
): Promise<AttachmentView> {
  assertCanWrite(ctx);
  const id = await tradeOf(ctx, tradeId);
  if (!file)
    throw new DomainError("VALIDATION_FAILED", 'Send the file as multipart/form-data in the field "file".', [
      { path: "file", message: "is required" },
    ]);
  const mimeType =
    file.mimeType === "application/vnd.ms-excel" && /\.csv$/i.test(file.originalName) ? "text/csv" : file.mimeType;
  const type = TYPES[mimeType];
  if (!type)
    throw new DomainError(
      "VALIDATION_FAILED",
      `Attachments are PDF, PNG, JPEG or CSV; this file is ${file.mimeType}.`,
      [{ path: "file", message: "must be a PDF, PNG, JPEG or CSV file" }],
    );
  if (file.data.length === 0 || !type.matches(file.data)) {
    throw new DomainError("VALIDATION_FAILED", `The file's content is not ${mimeType}.`, [
      { path: "file", message: `content does not match ${mimeType}` },
    ]);
  }
  const fileName = safeFileName(file.originalName) || `trade-${id}.${type.extension}`;
  const data = { fileName, contentType: mimeType, size: file.data.length, data: Buffer.from(file.data) };
  const saved = await ctx.db.tradeAttachment.upsert({
    where: { tradeId: id },
    create: { tradeId: id, ...data },
    update: { ...data, createdAt: new Date() },
    select: { tradeId: true, fileName: true, contentType: true, size: true, createdAt: true },
  });
  return saved;
}

/** GET /v1/trades/{t}/attachment: the file; NOT_FOUND when the trade has none. */
export async function getTradeAttachment(
  ctx: Context,
  tradeId: unknown,
): Promise<{ fileName: string; contentType: string; data: Uint8Array }> {
  const id = await tradeOf(ctx, tradeId);
  const a = await ctx.db.tradeAttachment.findUnique({
    where: { tradeId: id },
    select: { fileName: true, contentType: true, data: true },
  });
  if (!a) throw notFound(`An attachment of trade ${id}`);
  return a;
}

export async function deleteTradeAttachment(ctx: Context, tradeId: unknown): Promise<true> {
  assertCanWrite(ctx);
  const id = await tradeOf(ctx, tradeId);
  const { count } = await ctx.db.tradeAttachment.deleteMany({ where: { tradeId: id } });
  if (count === 0) throw notFound(`An attachment of trade ${id}`);
  return true;
}
