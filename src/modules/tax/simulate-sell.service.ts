import type { Context } from "../../context";
import { financialYearOf } from "../../lib/dates";
import { businessRule, notFound } from "../../lib/domain-errors";
import { Decimal } from "../../lib/money";
import { parseInput } from "../../lib/validation";
import { foldParcels, ParcelError, type LedgerEvent, type ParcelMethod } from "../ledger";
import { tradeExchangeRate } from "../trades/trade-exchange-rate";
import { gainSplit, lossLedger, netCapitalGain } from "./cgt";
import { disposalRow, soldParcel, type SoldParcel } from "./disposal-rows";
import { loadTaxBook, readTaxPortfolio, yearsOf } from "./tax-book";
import { SimulateSellRequest } from "./tax.schemas";
import { heavyWork } from "../../lib/heavy-work";

/**
 * POST /v1/portfolios/{p}/simulate-sell, GraphQL `simulateSell` (docs/reports.md §5.5): the parcels a
 * sell would take on `date` (by the method that would apply, the one asked for, or manual
 * parcels), its gain split, discount and assessable gain as if it were the year's only CGT event,
 * and its effect on the year's net capital gain given the year's other events up to that date and
 * the losses carried in. The same fold as a Sell of that day, on the ledger up to it (later trades
 * are not read: docs/reports.md §5.5); writes nothing.
 */
export interface SimulateSellResult {
  holdingId: number;
  symbol: string;
  date: string;
  quantity: Decimal;
  method: string;
  proceeds: Decimal;
  costBase: Decimal;
  capitalGain: Decimal;
  shortTermGain: Decimal;
  longTermGain: Decimal;
  capitalLoss: Decimal;
  discount: Decimal;
  assessableCapitalGain: Decimal;
  parcels: SoldParcel[];
  yearToDate: { financialYear: number; netCapitalGainBefore: Decimal; netCapitalGainAfter: Decimal };
}

const SIMULATED = "simulated sell";

export function simulateSell(ctx: Context, portfolioId: unknown, input: unknown): Promise<SimulateSellResult> {
  return heavyWork(ctx, () => simulateSellNow(ctx, portfolioId, input));
}

async function simulateSellNow(ctx: Context, portfolioId: unknown, input: unknown): Promise<SimulateSellResult> {
  const { portfolio, request, holding, book, exchangeRate } = await readTaxPortfolio(
    ctx,
    portfolioId,
    async (portfolio) => {
      const request = parseInput(SimulateSellRequest, input ?? {}, "The simulated sell");
      const holding = await ctx.db.holding.findFirst({
        where: { id: request.holdingId, portfolioId: portfolio.id },
        select: { id: true, symbol: true, exchange: true, currencyCode: true },
      });
      if (!holding) throw notFound(`Holding ${request.holdingId} of portfolio ${portfolio.id}`);
      const [book, exchangeRate] = await Promise.all([
        loadTaxBook(ctx, portfolio, request.date),
        tradeExchangeRate(ctx.db, portfolio, holding.currencyCode, request.date, request.exchangeRate),
      ]);
      return { portfolio, request, holding, book, exchangeRate };
    },
  );

  const sell: LedgerEvent = {
    key: SIMULATED,
    type: "Sell",
    date: request.date,
    // After every event of its day already in the ledger, as a trade entered now would be.
    seq: Number.MAX_SAFE_INTEGER,
    units: request.quantity,
    price: request.price,
    brokerage: request.brokerage ?? new Decimal(0),
    exchangeRate,
    parcels: request.parcels?.map((p) => ({ tradeId: p.tradeId, units: p.quantity })),
  };
  const method: ParcelMethod = request.method ?? book.ledger.methodFor(holding.id, sell);
  let disposals;
  try {
    disposals = foldParcels([...(book.ledger.eventsByHolding.get(holding.id) ?? []), sell], {
      methodFor: (e) => (e === sell ? method : book.ledger.methodFor(holding.id, e)),
      discountRate: book.ledger.discountRate,
    }).disposals.filter((d) => d.eventKey === SIMULATED);
  } catch (error) {
    if (error instanceof ParcelError) throw businessRule(error.message.replace(SIMULATED, "The simulated sell"));
    throw error;
  }
  const rows = disposals.map((d) =>
    disposalRow(holding.id, holding, d, "Sell", method, portfolio.financialYearEnd, book.discountRate),
  );
  const alone = netCapitalGain({
    gains: rows,
    trustGains: [],
    carriedForwardLossesAvailable: new Decimal(0),
    discountRate: book.discountRate,
  });

  const financialYear = financialYearOf(request.date, portfolio.financialYearEnd);
  const years = yearsOf(book);
  const before = lossLedger(years, book.entered, book.discountRate, financialYear);
  const thisYear = years.get(financialYear) ?? { gains: [], trustGains: [] };
  years.set(financialYear, { gains: [...thisYear.gains, ...rows], trustGains: thisYear.trustGains });
  const after = lossLedger(years, book.entered, book.discountRate, financialYear);

  const sum = (pick: (r: (typeof rows)[number]) => Decimal) => rows.reduce((s, r) => s.plus(pick(r)), new Decimal(0));
  return {
    holdingId: holding.id,
    symbol: holding.symbol,
    date: request.date,
    quantity: request.quantity,
    method: request.parcels ? "Manual" : method,
    proceeds: sum((r) => r.proceeds),
    costBase: sum((r) => r.costBase),
    capitalGain: sum((r) => r.capitalGain),
    ...gainSplit(rows),
    discount: alone.discount,
    assessableCapitalGain: alone.netCapitalGain,
    parcels: rows.map(soldParcel),
    yearToDate: {
      financialYear,
      netCapitalGainBefore: before[before.length - 1].summary.netCapitalGain,
      netCapitalGainAfter: after[after.length - 1].summary.netCapitalGain,
    },
  };
}
