import type { Prisma } from "../../../generated/prisma/client";
import { businessRule, validationFailed } from "../../lib/domain-errors";
import { COLUMN_MAX, Decimal } from "../../lib/money";
import type { FxTable } from "../ledger";
import { loadFxTable, type FxLoadOptions, type FxPortfolio } from "../ledger/fx-load";

/**
 * The exchange rate a trade or an income record is stored with: 1 in the portfolio's base
 * currency; otherwise the one given, else the one FX rule's rate on its date (docs/rules.md §8,
 * ledger/fx.ts: the latest imported rate dated ≤ the date, direct, inverse or crossed, else the
 * rate of the portfolio's last trade in that currency dated ≤ the date). Neither: BUSINESS_RULE.
 */
export async function tradeExchangeRate(
  db: Prisma.TransactionClient,
  portfolio: FxPortfolio,
  currencyCode: string,
  date: string,
  given: Decimal | undefined,
  options: FxLoadOptions & {
    /** The FX table loaded already for a batch's dates (an import): no statement per row. */
    table?: FxTable;
  } = {},
): Promise<Decimal> {
  if (currencyCode === portfolio.baseCurrencyCode) {
    if (given && !given.eq(1))
      throw validationFailed("The exchangeRate is invalid: a trade in the base currency has rate 1.", [
        { path: "exchangeRate", message: BASE_RATE_IS_ONE },
      ]);
    return new Decimal(1);
  }
  if (given) return given;
  const table = options.table ?? (await loadFxTable(db, portfolio, [date], options));
  const rate = rateFromTable(table, portfolio, currencyCode, date);
  if (!rate)
    throw businessRule(
      `${noRate(portfolio, currencyCode, date)}: give exchangeRate, or import rates (POST /v1/fx-rates/bulk).`,
    );
  const unstorable = unstorableRate(rate, date);
  if (unstorable)
    throw validationFailed(
      `The exchangeRate is invalid: ${currencyCode} → ${portfolio.baseCurrencyCode}: ${unstorable}.`,
      [{ path: "exchangeRate", message: unstorable }],
    );
  return rate;
}

/**
 * Why a rate from the FX table cannot be a trade's (the field message of a 400), or undefined. An
 * inverse or crossed rate can leave the column (1 / 0.0000000001, 10^9 × 10^9) or round to 0:
 * named here, or the database refuses it as "a number is out of range" about no field.
 */
export function unstorableRate(rate: Decimal, date: string): string | undefined {
  if (rate.gt(COLUMN_MAX.rate))
    return `the FX table's rate on ${date} is ${rate.toFixed()}, above the largest rate stored (${COLUMN_MAX.rate.toFixed()}): give exchangeRate`;
  if (!rate.gt(0)) return `the FX table's rate on ${date} rounds to 0 at 10 decimals: give exchangeRate`;
  return undefined;
}

/** The field message of a base-currency trade given another rate than 1 (a 400). */
export const BASE_RATE_IS_ONE = "must be 1 (or absent) for a trade in the portfolio's base currency";

/** The rule's rate into the portfolio's base currency on `date`, or undefined when it has none. */
export function rateFromTable(
  table: FxTable,
  portfolio: FxPortfolio,
  currencyCode: string,
  date: string,
): Decimal | undefined {
  return table.rateOn(currencyCode, portfolio.baseCurrencyCode, date)?.rate;
}

/** Why no rate was found, for the 422 of one trade and the row errors of an import. */
export function noRate(portfolio: FxPortfolio, currencyCode: string, date: string): string {
  return `No exchange rate for ${currencyCode} → ${portfolio.baseCurrencyCode} on or before ${date}: none imported (directly, inverse or through another currency) and no earlier ${currencyCode} trade in the portfolio`;
}
