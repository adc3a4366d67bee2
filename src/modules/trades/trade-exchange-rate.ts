import type { Prisma } from "../../../generated/prisma/client";
import { businessRule, validationFailed } from "../../lib/errors";
import { Decimal } from "../../lib/money";
import type { FxTable } from "../ledger";
import { loadFxTable, type FxLoadOptions, type FxPortfolio } from "../ledger/fx-load";

/**
 * The exchange rate a trade or an income record is stored with: 1 in the portfolio's base
 * currency; otherwise the one given, else the one FX rule's rate on its date (DOMAIN.md §3,
 * ledger/fx.ts: the latest imported rate dated ≤ the date, direct, inverse or crossed, else the
 * rate of the portfolio's last trade in that currency dated ≤ the date). Neither: BUSINESS_RULE.
 */
export async function tradeExchangeRate(
  db: Prisma.TransactionClient,
  portfolio: FxPortfolio,
  currencyCode: string,
  date: string,
  given: Decimal | undefined,
  options: FxLoadOptions = {},
): Promise<Decimal> {
  if (currencyCode === portfolio.baseCurrencyCode) {
    if (given && !given.eq(1)) throw validationFailed("The exchangeRate is invalid: a trade in the base currency has rate 1.", [{ path: "exchangeRate", message: BASE_RATE_IS_ONE }]);
    return new Decimal(1);
  }
  if (given) return given;
  const rate = rateFromTable(await loadFxTable(db, portfolio, [date], options), portfolio, currencyCode, date);
  if (!rate) throw businessRule(`${noRate(portfolio, currencyCode, date)}: give exchangeRate, or import rates (POST /v1/fx-rates/bulk).`);
  return rate;
}

/** The field message of a base-currency trade given another rate than 1 (a 400). */
export const BASE_RATE_IS_ONE = "must be 1 (or absent) for a trade in the portfolio's base currency";

/** The rule's rate into the portfolio's base currency on `date`, or undefined when it has none. */
export function rateFromTable(table: FxTable, portfolio: FxPortfolio, currencyCode: string, date: string): Decimal | undefined {
  return table.rateOn(currencyCode, portfolio.baseCurrencyCode, date)?.rate;
}

/** Why no rate was found, for the 422 of one trade and the row errors of an import. */
export function noRate(portfolio: FxPortfolio, currencyCode: string, date: string): string {
  return `No exchange rate for ${currencyCode} → ${portfolio.baseCurrencyCode} on or before ${date}: none imported (directly, inverse or through another currency) and no earlier ${currencyCode} trade in the portfolio`;
}
