import type { Prisma } from "../../../generated/prisma/client";
import { toDate } from "../../lib/dates";
import { validationFailed } from "../../lib/domain-errors";
import { Decimal, ZERO } from "../../lib/money";
import { drpEvent, type FxTable } from "../ledger";
import { incomeAmounts } from "../ledger/cash-effects";
import type { ScopedPortfolio } from "../ledger/portfolio-access";
import { tradeExchangeRate } from "../trades/trade-exchange-rate";
import { componentsText } from "./income-view";
import type { IncomeInput } from "./income.schemas";
import { frankingCredit } from "./pro-rata";

/** The stored amounts of an income input, with the franking credit and DRP price worked out. */
export async function storedIncome(
  db: Prisma.TransactionClient,
  portfolio: ScopedPortfolio,
  holdingCurrency: string,
  data: IncomeInput,
  fx?: FxTable,
) {
  let franked = data.frankedAmount ?? ZERO;
  let unfranked = data.unfrankedAmount ?? ZERO;
  const foreign = data.foreignIncome ?? ZERO;
  const withholding = data.withholdingTax ?? ZERO;
  const foreignTax = data.foreignTaxPaid ?? ZERO;
  const noAmounts =
    data.frankedAmount === undefined && data.unfrankedAmount === undefined && data.foreignIncome === undefined;
  if (data.netAmount && noAmounts) unfranked = data.netAmount.plus(withholding).plus(foreignTax); // a plain cash dividend
  const { grossAmount, netAmount } = incomeAmounts({
    frankedAmount: franked,
    unfrankedAmount: unfranked,
    foreignIncome: foreign,
    withholdingTax: withholding,
    foreignTaxPaid: foreignTax,
  });
  const errors: { path: string; message: string }[] = [];
  if (data.netAmount && !noAmounts && !data.netAmount.eq(netAmount)) {
    errors.push({
      path: "netAmount",
      message: `must equal gross − withholding tax − foreign tax paid (${netAmount.toFixed()}), or be left out`,
    });
  }
  if (withholding.gt(grossAmount)) errors.push({ path: "withholdingTax", message: "must not exceed the gross amount" });
  else if (withholding.plus(foreignTax).gt(grossAmount))
    errors.push({
      path: "foreignTaxPaid",
      message: "withholding tax plus foreign tax paid must not exceed the gross amount",
    });
  // DECIMAL(19,4) and DECIMAL(24,8) columns: answer 400 before the database would fail.
  if (grossAmount.gte(1e15) || unfranked.gte(1e15))
    errors.push({ path: "netAmount", message: "the amounts must stay below 10^15" });
  if (
    data.isReinvested &&
    data.drpQuantity &&
    !data.drpQuantity.isZero() &&
    !data.drpPrice &&
    netAmount.div(data.drpQuantity).gte(1e16)
  ) {
    errors.push({ path: "drpPrice", message: "net ÷ drpQuantity is too large for a price; give drpPrice" });
  }
  if (grossAmount.isZero() && !data.components)
    errors.push({
      path: "netAmount",
      message: "an income record needs an amount: frankedAmount, unfrankedAmount, foreignIncome or netAmount",
    });
  if (errors.length) throw validationFailed(`The income is invalid: ${errors[0].path}: ${errors[0].message}`, errors);
  franked = franked.toDecimalPlaces(4);
  const credits = data.frankingCredits ?? frankingCredit(franked, data.companyTaxRate ?? new Decimal("0.3"));
  const currencyCode = data.currencyCode ?? holdingCurrency;
  const drpQuantity = data.isReinvested ? data.drpQuantity! : null;
  const drpPrice = data.isReinvested
    ? (data.drpPrice ?? netAmount.div(drpQuantity!).toDecimalPlaces(8, Decimal.ROUND_HALF_UP))
    : null;
  return {
    exDividendDate: toDate(data.exDividendDate),
    paidDate: toDate(data.paidDate),
    frankedAmount: franked.toFixed(),
    unfrankedAmount: unfranked.toFixed(),
    frankingCredits: credits.toFixed(),
    foreignIncome: foreign.toFixed(),
    foreignTaxPaid: foreignTax.toFixed(),
    withholdingTax: withholding.toFixed(),
    currencyCode,
    exchangeRate: (
      await tradeExchangeRate(db, portfolio, currencyCode, data.paidDate, data.exchangeRate, { table: fx })
    ).toFixed(),
    isTrustIncome: data.isTrustIncome ?? false,
    isReinvested: data.isReinvested ?? false,
    drpQuantity: drpQuantity?.toFixed() ?? null,
    drpPrice: drpPrice?.toFixed() ?? null,
    components: data.components ? componentsText(data.components) : undefined,
    notes: data.notes ?? "",
  };
}

/**
 * A new income record as the income table stores it, on `holding` (createIncome and importIncome
 * both write through it): the stored amounts, and a record created confirmed already has its
 * estimates accepted, as confirming does (docs/data.md §3).
 */
export async function newIncomeRecord(
  db: Prisma.TransactionClient,
  portfolio: ScopedPortfolio,
  holding: { id: number; portfolioId: number; currencyCode: string },
  data: IncomeInput,
  fx?: FxTable,
) {
  const row = await storedIncome(db, portfolio, holding.currencyCode, data, fx);
  return {
    ...row,
    components: row.components ?? undefined,
    holdingId: holding.id,
    portfolioId: holding.portfolioId,
    isConfirmed: data.isConfirmed ?? false,
    estimated: [] as string[],
  };
}

/**
 * The parcel a new reinvested record allots, as the ledger check adds it under `key`; none for
 * cash income. seq -1: after the other allotments of its day, before its trades, as once stored.
 */
export function newAllotment(row: Parameters<typeof drpOf>[1], key: string) {
  const added = drpOf(0, row);
  return added ? { ...added, key, seq: -1 } : null;
}

export function drpOf(
  id: number,
  d: { paidDate: Date; drpQuantity: string | null; drpPrice: string | null; exchangeRate: string },
) {
  return d.drpQuantity
    ? drpEvent({
        id,
        paidDate: d.paidDate,
        drpQuantity: new Decimal(d.drpQuantity),
        drpPrice: d.drpPrice ? new Decimal(d.drpPrice) : null,
        exchangeRate: new Decimal(d.exchangeRate),
      })
    : null;
}
