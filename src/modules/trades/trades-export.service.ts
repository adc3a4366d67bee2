import { z } from "zod";
import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { toCsv, type CsvColumn } from "../../lib/csv-out";
import { fromDate } from "../../lib/dates";
import { Decimal } from "../../lib/money";
import { looseEnum, parseInput } from "../../lib/validation";
import { scopedPortfolio } from "../ledger/portfolio-access";
import { TRADE_COLUMNS } from "./trade-view";
import { CSV_COLUMNS } from "./trades-import.csv";

/**
 * A portfolio's trades as a file (docs/imports.md §2): in the native import's columns, so that
 * importing the file into an empty portfolio gives the same holdings and the same capital gains
 * report, or in Sharesight's trades-file columns. Trades in ledger order (date, then entry).
 */

export const EXPORT_FORMATS = ["native", "sharesight"] as const;

export const TradeExportQuery = z.strictObject({
  format: looseEnum(EXPORT_FORMATS, z.enum(EXPORT_FORMATS, { error: "must be native or sharesight" }))
    .nullish()
    .transform((v) => v ?? "native")
    .meta({ type: "string", enum: [...EXPORT_FORMATS], default: "native" })
    .describe("native: this service's import columns; sharesight: Sharesight's trades file (Buy and Sell only)"),
});

export interface TradeExport {
  fileName: string;
  csv: string;
  /** Trades written. */
  rows: number;
  /** Trades the format cannot hold (Sharesight's file: every type but Buy and Sell), by id. */
  leftOut: number[];
}

const EXPORT_SELECT = {
  ...TRADE_COLUMNS,
  holding: { select: { symbol: true, exchange: true, holdingType: true, name: true } },
  source: { select: { name: true } },
} satisfies Prisma.TradeSelect;

/** A trade as the file writes it: its row of EXPORT_SELECT, the amounts as Decimals. */
type Amount = "quantity" | "price" | "brokerage" | "exchangeRate";
type ExportRow = Omit<Prisma.TradeGetPayload<{ select: typeof EXPORT_SELECT }>, Amount> & Record<Amount, Decimal>;

const date = (d: Date | null) => (d ? fromDate(d) : null);

/** The native columns: every column the import reads, in its order. */
const NATIVE: Record<(typeof CSV_COLUMNS)[number], CsvColumn<ExportRow>["value"]> = {
  date: (t) => date(t.tradeDate),
  type: (t) => t.tradeType,
  symbol: (t) => t.holding.symbol,
  exchange: (t) => t.holding.exchange,
  // Stored signed (negative for units leaving); the import signs by type, and reads either.
  quantity: (t) => t.quantity.abs(),
  price: (t) => t.price,
  brokerage: (t) => t.brokerage,
  currency: (t) => t.currencyCode,
  exchangeRate: (t) => t.exchangeRate,
  source: (t) => t.source?.name,
  notes: (t) => t.notes,
  reference: (t) => t.reference,
  acquisitionDate: (t) => date(t.acquisitionDate),
  holdingType: (t) => t.holding.holdingType,
  name: (t) => t.holding.name,
};

/**
 * Sharesight's columns. Its exchange rate is the other way round: units of the trade's currency
 * per unit of the portfolio's (as its sample file shows), so 1 ÷ ours, to 10 decimals.
 */
const SHARESIGHT: CsvColumn<ExportRow>[] = [
  { header: "Trade Date", value: (t) => date(t.tradeDate) },
  { header: "Instrument Code", value: (t) => t.holding.symbol },
  { header: "Market Code", value: (t) => t.holding.exchange },
  { header: "Quantity", value: (t) => t.quantity.abs() },
  { header: "Price", value: (t) => t.price },
  { header: "Transaction Type", value: (t) => t.tradeType.toUpperCase() },
  {
    header: "Exchange Rate (optional)",
    value: (t) => (t.exchangeRate.eq(1) ? null : new Decimal(1).div(t.exchangeRate).toDecimalPlaces(10)),
  },
  { header: "Brokerage (optional)", value: (t) => t.brokerage },
  { header: "Brokerage Currency (optional)", value: (t) => t.currencyCode },
  { header: "Comments (optional)", value: (t) => t.notes },
];

/** GET /v1/portfolios/{p}/trades/export (GraphQL `exportTrades`). */
export async function exportTrades(ctx: Context, portfolioId: unknown, query: unknown = {}): Promise<TradeExport> {
  const { format } = parseInput(TradeExportQuery, query ?? {}, "The query");
  const portfolio = await scopedPortfolio(ctx, portfolioId);
  const trades: ExportRow[] = (
    await ctx.db.trade.findMany({
      where: { portfolioId: portfolio.id },
      orderBy: [{ tradeDate: "asc" }, { id: "asc" }],
      select: EXPORT_SELECT,
    })
  ).map((t) => ({
    ...t,
    quantity: new Decimal(t.quantity),
    price: new Decimal(t.price),
    brokerage: new Decimal(t.brokerage),
    exchangeRate: new Decimal(t.exchangeRate),
  }));
  const stem = `portfolio-${portfolio.id}-trades`;
  if (format === "sharesight") {
    const sharesightHas = (t: (typeof trades)[number]) => t.tradeType === "Buy" || t.tradeType === "Sell";
    const kept = trades.filter(sharesightHas);
    return {
      fileName: `${stem}-sharesight.csv`,
      csv: toCsv(SHARESIGHT, kept),
      rows: kept.length,
      leftOut: trades.filter((t) => !sharesightHas(t)).map((t) => t.id),
    };
  }
  const columns = CSV_COLUMNS.map((header) => ({ header, value: NATIVE[header] }));
  return { fileName: `${stem}.csv`, csv: toCsv(columns, trades), rows: trades.length, leftOut: [] };
}
