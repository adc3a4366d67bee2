import type { Endpoint } from "./endpoint";

/** The OpenAPI document's CSV parts: bodies that may be text/csv, answers that may be, and their `format` parameter. */

/** Sample cells for the example row of a CSV body, by column name. */
const CSV_SAMPLES: Record<string, string> = {
  date: "2024-06-28",
  type: "Buy",
  symbol: "CBA",
  exchange: "ASX",
  quantity: "100",
  price: "120.50",
  close: "120.50",
  brokerage: "9.95",
  currency: "AUD",
  base: "USD",
  quote: "AUD",
  rate: "1.5",
};

/** `?format=csv`, on every operation that answers CSV too. */
export const CSV_FORMAT_PARAMETER = {
  name: "format",
  in: "query",
  required: false,
  description: "csv answers text/csv (as `Accept: text/csv` does), json (the default) JSON",
  schema: { type: "string", enum: ["json", "csv"], default: "json" },
};

export function csvAnswerContent(csv: NonNullable<Endpoint["csvAnswer"]>) {
  return {
    schema: {
      type: "string",
      description: `A header row, then one row per item: ${csv.columns.map((c) => `\`${c}\``).join(", ")}. Numbers are plain numbers; a text cell starting with =, +, -, @, ', a tab or a carriage return has a leading ' (spreadsheet formula injection). Sent as an attachment, ${csv.fileName}.`,
    },
  };
}

export function csvBody(csv: NonNullable<Endpoint["csv"]>) {
  const columns = csv.columns.map((c) => (csv.required.includes(c) ? `\`${c}\` (required)` : `\`${c}\``)).join(", ");
  return {
    schema: {
      type: "string",
      description: `CSV, UTF-8. The first line is the header naming the columns, in any order: ${columns}. One row per line after it; errors name a cell as \`line N.column\` (the header is line 1). An empty cell is an absent value.`,
    },
    example: [csv.columns.join(","), csv.columns.map((c) => CSV_SAMPLES[c] ?? "").join(",")].join("\n") + "\n",
  };
}
