import multer from "multer";
import { z } from "zod";
import { FileResponse, WithStatus, type Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  deleteTradeAttachment,
  getTradeAttachment,
  uploadTradeAttachment,
} from "./trade-attachments.service";
import { IMPORT_CSV } from "./trades-import.csv";
import { listTradeImportFormats } from "./import-formats.service";
import { IMPORT_FORMATS } from "./trades-import.rows";
import { ImportQuery, importTrades } from "./trades-import.service";
import { exportTrades, TradeExportQuery } from "./trades-export.service";
import { ImportRow, ListQuery, TradeInput, TradeResponse, UpdateTradeBody } from "./trades.schemas";
import { createTrade, deleteTrade, getTrade, listHoldingTrades, updateTrade } from "./trades.service";

const route = routeTable({ tag: "Trades" });

/**
 * A file name without a charset (`filename="報告.csv"`) is read as UTF-8: browsers send the raw
 * UTF-8 bytes there (WHATWG HTML's multipart/form-data encoding), and busboy's latin1 default
 * stored them garbled. `filename*=UTF-8''…` (RFC 5987) says its own charset either way.
 */
const upload = multer({
  storage: multer.memoryStorage(),
  defParamCharset: "utf8",
  limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5 },
}).single("file");

const AttachmentResponse = z
  .object({
    tradeId: z.number().int(),
    fileName: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: "TradeAttachment" });

const ImportResponse = z
  .object({
    dryRun: z.boolean(),
    imported: z.number().int(),
    valid: z.number().int(),
    newHoldings: z.array(z.object({ symbol: z.string(), exchange: z.string() })),
    tradeIds: z.array(z.number().int()),
    skipped: z
      .array(
        z.object({
          line: z.number().int(),
          duplicateOf: z.number().int().describe("The recorded trade the row repeats"),
          reference: z.string().optional().describe("The broker reference both have, when that made it a duplicate"),
        }),
      )
      .describe("Rows left out with duplicates=skip"),
    format: z
      .enum(IMPORT_FORMATS.filter((f) => f !== "auto") as [string, ...string[]])
      .describe("The format the body was read as (native for JSON and this service's CSV)"),
    ignored: z
      .array(z.object({ line: z.number().int(), reason: z.string() }))
      .describe("Rows of a broker's file that are not trades (interest, deposits, DRP allotments...), with the reason"),
    warnings: z.array(z.string()).describe("Said of the whole file, e.g. trade dates derived from settlement dates"),
  })
  .meta({ id: "TradeImportResult" });

const TradeImportFormatResponse = z
  .object({
    id: z.string().describe("The import's format for it"),
    name: z.string(),
    media: z
      .enum(["csv", "xlsx"])
      .describe("What the file is: CSV text (REST and GraphQL), or an .xlsx workbook (REST only)"),
    header: z.array(z.string()).describe("The header row it is found by, matched in any case and spacing"),
  })
  .meta({ id: "TradeImportFormat" });

export const tradeRoutes: Endpoint[] = [
  route.create("/trades", createTrade, "Add a trade", {
    description:
      "Creates the holding on its first trade (by symbol and exchange). A trade in another currency than the portfolio's carries an exchange rate, given or from the FX table; a sell beyond the units held, or a parcel pick that does not exist, answers 422.",
    body: TradeInput,
    response: TradeResponse,
  }),
  route.get("/trades/:tradeId", getTrade, "Get a trade", { response: TradeResponse }),
  route.put("/trades/:tradeId", updateTrade, "Update a trade", {
    description: "Same body as create. Refused (422) when it would leave a later sell without units.",
    body: UpdateTradeBody,
    response: TradeResponse,
    errors: [422],
  }),
  route.delete("/trades/:tradeId", deleteTrade, "Delete a trade", {
    description: "Refused (422) when it would leave a later sell without units.",
    errors: [422],
  }),
  route.post(
    "/portfolios/:portfolioId/trades/import",
    importTrades,
    "Import trades in bulk (JSON, CSV or a broker's export)",
    {
      description:
        "All or nothing. JSON: an array of trade bodies (portfolioId optional). CSV (text/csv): header date,type,symbol,exchange,quantity,price,brokerage,currency,exchangeRate,source,notes,reference,acquisitionDate,holdingType,name in any order and case (source: a Source id or name; date, type and quantity required). " +
        "A broker's export is taken as downloaded (format=auto finds it by its header row, past a preamble; or name it): commsec, commsec-summary, commsec-confirmations, selfwealth, sharesight and ibkr-flex, ibkr-activity as text/csv, stake as the .xlsx workbook; rows that are not trades are listed in `ignored` with the reason, a cell that cannot be read is a 400 naming its line and column, a file no format places is a 400 listing each format's header (docs/imports.md). Every imported trade keeps its broker reference. Trade types, holding types and currency codes are read in any case (`buy`, `SELL`, `Return of capital`, `usd`). Every rejected row is listed in `errors` with its `line` (CSV: the header is line 1; JSON: the array position + 1); unknown fields and columns are refused (400). " +
        "A row whose broker reference a recorded trade of the portfolio has, or equal to a recorded trade (same holding, trade date, type, quantity and price, compared exactly), is a duplicate: `duplicates=error` (default) answers 409 listing each such row with its line and `duplicateOf` (the trade's id) and writes nothing; `skip` imports the other rows and lists the left-out ones in `skipped`; `allow` imports every row. Each recorded trade answers for one row at most, and equal rows within the file are not duplicates of each other (identical fills happen). " +
        "dryRun=true runs every check a real import does (ledger rules included) and answers 200 without writing anything or using up ids; a real import answers 201. Up to 50,000 rows and 20 MiB.",
      query: ImportQuery,
      body: z.array(ImportRow),
      csv: IMPORT_CSV,
      workbook: { description: "Stake's transaction report (.xlsx), its Trades sheet read (format=stake or auto)" },
      response: ImportResponse,
      status: 201,
      handler: async (ctx, req) => {
        const result = await importTrades(ctx, req.params.portfolioId, req.body, req.query);
        // 201 only when trades were created: a dry run, or a file whose rows were all skipped, creates none.
        return new WithStatus(result.dryRun || result.imported === 0 ? 200 : 201, result);
      },
    },
  ),
  route.get("/trade-import-formats", listTradeImportFormats, "List the formats the trade import reads", {
    description:
      "This service's own columns (native), then each broker's export the import reads as downloaded, in the order format=auto tries them, each with the header row it is found by (docs/imports.md). The import's 400 for a file no format places lists each broker format with the same header.",
    response: z.array(TradeImportFormatResponse),
  }),
  route.get("/portfolios/:portfolioId/trades/export", exportTrades, "Export the portfolio's trades as a file", {
    description:
      "text/csv, trades in date order. format=native (default): the import's columns, so importing the file into an empty portfolio gives the same holdings and the same capital gains report (manual parcel picks excepted: the sells follow the portfolio's method). format=sharesight: Sharesight's trades file, Buy and Sell rows only, its exchange rate inverted (units of the trade's currency per unit of the portfolio's); the trades left out are counted in `X-Trades-Left-Out`. Text cells that would run as spreadsheet formulas are written with a leading '.",
    query: TradeExportQuery,
    fileResponse: { types: ["text/csv"], description: "The trades as CSV, an attachment" },
    handler: async (ctx, req) => {
      const file = await exportTrades(ctx, req.params.portfolioId, req.query);
      return new FileResponse("text/csv; charset=utf-8", file.fileName, Buffer.from(file.csv), {
        "X-Trades-Left-Out": String(file.leftOut.length),
      });
    },
  }),
  route.put("/trades/:tradeId/attachment", uploadTradeAttachment, "Upload a trade's attachment", {
    description:
      "multipart/form-data with one field `file`: PDF, PNG, JPEG or CSV up to 10 MiB. Replaces any earlier attachment.",
    upload: true,
    middleware: [upload],
    response: AttachmentResponse,
    handler: (ctx, req) =>
      uploadTradeAttachment(
        ctx,
        req.params.tradeId,
        req.file
          ? { originalName: req.file.originalname, mimeType: req.file.mimetype, data: req.file.buffer }
          : undefined,
      ),
  }),
  route.get("/trades/:tradeId/attachment", getTradeAttachment, "Download a trade's attachment", {
    description: "The file with its content type; 404 when the trade has none.",
    fileResponse: { types: ATTACHMENT_TYPES },
    handler: async (ctx, req) => {
      const file = await getTradeAttachment(ctx, req.params.tradeId);
      return new FileResponse(file.contentType, file.fileName, file.data);
    },
  }),
  route.delete("/trades/:tradeId/attachment", deleteTradeAttachment, "Delete a trade's attachment"),
  route.get("/holdings/:holdingId/trades", listHoldingTrades, "List a holding's trades, oldest first", {
    tag: "Holdings",
    query: ListQuery,
    response: z.array(TradeResponse),
    paged: true,
  }),
];
