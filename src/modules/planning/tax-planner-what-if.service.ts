import type { Context } from "../../context";
import { financialYearRange, today } from "../../lib/dates";
import { businessRule, notFound, validationFailed } from "../../lib/domain-errors";
import { heavyWork } from "../../lib/heavy-work";
import { Decimal, ZERO } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { dailyValuation, loadValuationRange, ParcelError, type ExactHolding } from "../ledger";
import { discountPercentOf } from "../ledger/discount";
import { lossLedger, type CgtSummary } from "../tax/cgt";
import { disposalRow, disposalRows, soldParcel, type SoldParcel } from "../tax/disposal-rows";
import { loadTaxBook, readTaxPortfolio, yearsOf } from "../tax/tax-book";
import { foldWithSells, whatIfKey, whatIfOutcome, type PlannedSell, type WhatIfOutcome } from "./tax-planner-what-if";
import { TaxPlannerWhatIfRequest } from "./tax-planner.schemas";
import { plannerYear } from "./tax-planner.service";

/**
 * POST /v1/portfolios/{p}/tax-planner/what-if, GraphQL `taxPlannerWhatIf` (docs/reports.md §6.1):
 * simulate-sell grown into a plan. The sells fold into the ledger together, each after every event
 * of its day and after the sells before it; the answer is the whole year's capital gains summary
 * without and with them, and each sell's parcels. Writes nothing.
 */
export interface TaxPlannerWhatIfResult extends WhatIfOutcome {
  portfolioId: number;
  financialYear: number;
  asOf: string;
  entityType: string;
  discountPercent: Decimal;
  marginalTaxRate: Decimal | null;
  before: CgtSummary;
  after: CgtSummary;
  sells: {
    holdingId: number;
    symbol: string;
    exchange: string;
    date: string;
    quantity: Decimal;
    price: Decimal;
    method: string;
    proceeds: Decimal;
    costBase: Decimal;
    capitalGain: Decimal;
    parcels: SoldParcel[];
  }[];
}

export function taxPlannerWhatIf(ctx: Context, portfolioId: unknown, input: unknown): Promise<TaxPlannerWhatIfResult> {
  return heavyWork(ctx, () => whatIfNow(ctx, portfolioId, input));
}

async function whatIfNow(ctx: Context, portfolioId: unknown, input: unknown): Promise<TaxPlannerWhatIfResult> {
  const request = parseInput(TaxPlannerWhatIfRequest, input ?? {}, "The what-if");
  const { portfolio, year, book, day } = await readTaxPortfolio(ctx, portfolioId, async (portfolio) => {
    // asOf is only the sells' default date: checked against the year when given or when a sell takes it.
    const takesAsOf = request.asOf !== undefined || request.sells.some((s) => s.date === undefined);
    const year = takesAsOf
      ? plannerYear(request, portfolio.financialYearEnd, "The what-if")
      : {
          asOf: today(),
          financialYear: request.financialYear,
          ...financialYearRange(request.financialYear, portfolio.financialYearEnd),
        };
    const dates = request.sells.map((s) => s.date ?? year.asOf);
    const outside = dates.flatMap((d, i) =>
      d < year.from || d > year.to
        ? [
            {
              path: `sells[${i}].date`,
              message: `must lie in financial year ${year.financialYear} (${year.from} to ${year.to})`,
            },
          ]
        : [],
    );
    if (outside.length > 0)
      throw validationFailed(
        `The what-if is invalid: a sell is dated outside financial year ${year.financialYear}.`,
        outside,
      );
    const first = dates.reduce((m, d) => (d < m ? d : m));
    const last = dates.reduce((m, d) => (d > m ? d : m));
    // The whole year's events, so the summaries are the year's; the sells' days valued for their prices.
    const [book, range] = await Promise.all([
      loadTaxBook(ctx, portfolio, year.to),
      loadValuationRange(ctx.db, portfolio, first, last),
    ]);
    const valuation = dailyValuation(range);
    const day = new Map<string, Map<number, ExactHolding>>(
      [...new Set(dates)].map((d) => [d, new Map(valuation.exactOn(d).holdings.map((h) => [h.id, h]))]),
    );
    return { portfolio, year, book, day };
  });
  const marginalTaxRate = request.marginalTaxRate ?? null;

  const planned: PlannedSell[] = request.sells.map((s, i) => {
    const holding = book.holdings.get(s.holdingId);
    if (!holding) throw notFound(`Holding ${s.holdingId} (sells[${i}]) of portfolio ${portfolio.id}`);
    const date = s.date ?? year.asOf;
    const valued = day.get(date)!.get(s.holdingId);
    const price = s.price ?? valued?.price ?? null;
    const exchangeRate = holding.currencyCode === portfolio.baseCurrencyCode ? new Decimal(1) : (valued?.rate ?? null);
    if (price === null)
      throw businessRule(`sells[${i}]: ${holding.symbol}.${holding.exchange} has no price on ${date}; give price.`);
    if (exchangeRate === null)
      throw businessRule(
        `sells[${i}]: no ${holding.currencyCode} → ${portfolio.baseCurrencyCode} rate on ${date}; import rates (POST /v1/fx-rates/bulk).`,
      );
    // The sell as methodFor sees it: the method of docs/rules.md §3's precedence for its holding and year.
    const probe = {
      key: whatIfKey(i),
      type: "Sell" as const,
      date,
      seq: 0,
      units: s.quantity,
      price,
      brokerage: ZERO,
      exchangeRate,
    };
    return {
      holdingId: s.holdingId,
      date,
      units: s.quantity,
      price,
      brokerage: s.brokerage ?? ZERO,
      exchangeRate,
      method: s.method ?? book.ledger.methodFor(s.holdingId, probe),
      parcels: s.parcels?.map((p) => ({ tradeId: p.tradeId, units: p.quantity })),
    };
  });

  let folds;
  try {
    folds = foldWithSells(
      (holdingId) => book.ledger.eventsByHolding.get(holdingId) ?? [],
      (holdingId, e) => book.ledger.methodFor(holdingId, e),
      book.ledger.discountRate,
      planned,
    );
  } catch (error) {
    if (error instanceof ParcelError) throw businessRule(error.message);
    throw error;
  }
  const touched = new Map([...folds.keys()].map((id) => [id, book.holdings.get(id)!]));
  const afterRows = [
    ...book.disposals.filter((d) => !touched.has(d.holdingId)),
    ...disposalRows(book.ledger, touched, portfolio.financialYearEnd, book.discountRate, folds),
  ];
  const outcome = whatIfOutcome(
    lossLedger(yearsOf(book), book.entered, book.discountRate, year.financialYear),
    lossLedger(
      yearsOf({ disposals: afterRows, trustGains: book.trustGains }),
      book.entered,
      book.discountRate,
      year.financialYear,
    ),
    marginalTaxRate,
  );

  const sells = planned.map((s, i) => {
    const holding = book.holdings.get(s.holdingId)!;
    const method = s.parcels ? "Manual" : s.method;
    const rows = folds
      .get(s.holdingId)!
      .disposals.filter((d) => d.eventKey === whatIfKey(i))
      .map((d) => disposalRow(s.holdingId, holding, d, "Sell", method, portfolio.financialYearEnd, book.discountRate));
    const sum = (pick: (r: (typeof rows)[number]) => Decimal) => rows.reduce((t, r) => t.plus(pick(r)), ZERO);
    return {
      holdingId: s.holdingId,
      symbol: holding.symbol,
      exchange: holding.exchange,
      date: s.date,
      quantity: s.units,
      price: s.price,
      method,
      proceeds: sum((r) => r.proceeds),
      costBase: sum((r) => r.costBase),
      capitalGain: sum((r) => r.capitalGain),
      parcels: rows.map(soldParcel),
    };
  });
  return {
    portfolioId: portfolio.id,
    financialYear: year.financialYear,
    asOf: year.asOf,
    entityType: portfolio.entityType,
    discountPercent: discountPercentOf(book.discountRate),
    marginalTaxRate,
    ...outcome,
    sells,
  };
}
