import { csvView, type CsvColumn } from "../../lib/csv-out";
import type { CapitalGainsReport } from "./capital-gains.service";
import { INCOME_LABELS, type Labels } from "./taxable-income";
import type { TaxableIncomeReport } from "./taxable-income.service";
import type { UnrealisedHolding, UnrealisedParcel, UnrealisedReport } from "./unrealised.service";

/**
 * The tax reports as spreadsheets for an accountant (`Accept: text/csv`, docs/data.md §5), each
 * row the JSON's finest level with the JSON's field names, amounts in the base currency (AUD). The
 * report's summary and totals are left out: every amount column sums to them, and a summary row
 * among the data would be counted twice by a SUM.
 */

type Disposal = CapitalGainsReport["disposals"][number];

/** Capital gains: the JSON's `disposals`, already one row per parcel sold (docs/reports.md §5.1). */
export const CAPITAL_GAINS_CSV = csvView<Disposal, CapitalGainsReport>(
  "capital-gains.csv",
  [
    { header: "disposalDate", value: (d) => d.disposalDate },
    { header: "eventType", value: (d) => d.eventType },
    { header: "holdingId", value: (d) => d.holdingId },
    { header: "symbol", value: (d) => d.symbol },
    { header: "exchange", value: (d) => d.exchange },
    { header: "saleTradeId", value: (d) => d.saleTradeId },
    { header: "method", value: (d) => d.method },
    { header: "acquisitionTradeId", value: (d) => d.acquisitionTradeId },
    { header: "acquisitionDate", value: (d) => d.acquisitionDate },
    { header: "quantity", value: (d) => d.quantity },
    { header: "proceeds", value: (d) => d.proceeds },
    { header: "costBase", value: (d) => d.costBase },
    { header: "capitalGain", value: (d) => d.capitalGain },
    { header: "isDiscountable", value: (d) => d.isDiscountable },
  ],
  (report) => report.disposals,
);

type UnrealisedRow = UnrealisedParcel &
  Pick<UnrealisedHolding, "holdingId" | "symbol" | "exchange" | "nextDiscountDate">;

/**
 * Unrealised gains: one row per open parcel (`holdings[].parcels[]`) with its holding's identity.
 * The holding's own amounts (quantity, marketValue, costBase, gains) are not repeated on each
 * parcel: they are the sums of its parcels' rows, and repeated they would be summed once per
 * parcel. Unpriced holdings are out of the JSON's figures, so out of these rows too.
 */
export const UNREALISED_CSV = csvView<UnrealisedRow, UnrealisedReport>(
  "unrealised-capital-gains.csv",
  [
    { header: "holdingId", value: (p) => p.holdingId },
    { header: "symbol", value: (p) => p.symbol },
    { header: "exchange", value: (p) => p.exchange },
    { header: "acquisitionTradeId", value: (p) => p.acquisitionTradeId },
    { header: "acquisitionDate", value: (p) => p.acquisitionDate },
    { header: "disposalDate", value: (p) => p.disposalDate },
    { header: "quantity", value: (p) => p.quantity },
    { header: "proceeds", value: (p) => p.proceeds },
    { header: "costBase", value: (p) => p.costBase },
    { header: "capitalGain", value: (p) => p.capitalGain },
    { header: "isDiscountable", value: (p) => p.isDiscountable },
    { header: "nextDiscountDate", value: (p) => p.nextDiscountDate },
  ],
  (report) =>
    report.holdings.flatMap(({ holdingId, symbol, exchange, nextDiscountDate, parcels }) =>
      parcels.map((p) => ({ ...p, holdingId, symbol, exchange, nextDiscountDate })),
    ),
);

type IncomeRow = TaxableIncomeReport["rows"][number];
type InterestRow = TaxableIncomeReport["interest"][number];
type IncomeLine = Partial<Omit<IncomeRow, "labels">> & Partial<Omit<InterestRow, "labels">> & { labels: Labels };

/**
 * Taxable income: one row per income record (`rows[]`), then one per cash account's interest
 * (`interest[]`, label 10L), so that each label's column sums to the JSON's `totals`. One column per
 * myTax label, empty where the record gives none (the JSON lists the non-zero ones).
 */
export const TAXABLE_INCOME_CSV = csvView<IncomeLine, TaxableIncomeReport>(
  "taxable-income.csv",
  [
    { header: "incomeId", value: (r) => r.incomeId },
    { header: "holdingId", value: (r) => r.holdingId },
    { header: "symbol", value: (r) => r.symbol },
    { header: "exchange", value: (r) => r.exchange },
    { header: "exDividendDate", value: (r) => r.exDividendDate },
    { header: "paidDate", value: (r) => r.paidDate },
    { header: "cashAccountId", value: (r) => r.cashAccountId },
    { header: "name", value: (r) => r.name },
    ...INCOME_LABELS.map((label): CsvColumn<IncomeLine> => ({ header: label, value: (r) => r.labels[label] })),
  ],
  (report) => [...report.rows, ...report.interest],
);
