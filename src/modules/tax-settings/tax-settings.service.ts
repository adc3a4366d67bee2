import type { Prisma } from "../../../generated/prisma/client";
import type { Context } from "../../context";
import { businessRule, notFound, orNull } from "../../lib/domain-errors";
import { readAllById } from "../../lib/id-slices";
import { Decimal } from "../../lib/money";
import { parseId, parseInput } from "../../lib/validation";
import type { ParcelError, ParcelMethod } from "../ledger";
import { ledgerWrite } from "../ledger/unit-of-work";
import { assertCanWrite, portfolioWhere, scopedPortfolio } from "../ledger/portfolio-access";
import type { PortfolioView } from "../portfolios/portfolios.service";
import { TaxSettingsInput } from "./tax-settings.schemas";

/**
 * A portfolio's tax settings (docs/reports.md §5): the owner's entity type, the parcel
 * methods (docs/rules.md §3 precedence: holding override for the year > the year's > default) and the
 * capital losses carried into each financial year. They follow the portfolio's scope: a client
 * key reads them, and changes them with ReadWrite only.
 */
export interface TaxSettingsView {
  portfolioId: number;
  entityType: PortfolioView["entityType"];
  defaultMethod: ParcelMethod;
  yearMethods: { financialYear: number; method: ParcelMethod }[];
  holdingOverrides: { holdingId: number; financialYear: number; method: ParcelMethod }[];
  carriedForwardLosses: { financialYear: number; amount: Decimal }[];
}

const select = {
  id: true,
  entityType: true,
  defaultMethod: true,
  yearMethods: { select: { financialYear: true, method: true }, orderBy: { financialYear: "asc" } },
  holdingMethods: {
    select: { holdingId: true, financialYear: true, method: true },
    orderBy: [{ holdingId: "asc" }, { financialYear: "asc" }],
  },
  carriedLosses: { select: { financialYear: true, amount: true }, orderBy: { financialYear: "asc" } },
} satisfies Prisma.PortfolioSelect;

type Row = Prisma.PortfolioGetPayload<{ select: typeof select }>;

const view = (p: Row): TaxSettingsView => ({
  portfolioId: p.id,
  entityType: p.entityType,
  defaultMethod: p.defaultMethod,
  yearMethods: p.yearMethods,
  holdingOverrides: p.holdingMethods,
  carriedForwardLosses: p.carriedLosses.map((l) => ({ financialYear: l.financialYear, amount: new Decimal(l.amount) })),
});

/** A table of lists kept per portfolio (year methods, holding overrides, carried losses). */
interface PortfolioList<R> {
  deleteMany(args: { where: { portfolioId: number } }): Promise<unknown>;
  createMany(args: { data: (R & { portfolioId: number })[] }): Promise<unknown>;
}

/** A list given replaces the portfolio's old one as a whole; an absent list stays. */
async function replaceList<R extends object>(table: PortfolioList<R>, portfolioId: number, rows: R[] | undefined) {
  if (!rows) return;
  await table.deleteMany({ where: { portfolioId } });
  await table.createMany({ data: rows.map((row) => ({ ...row, portfolioId })) });
}

/** GET /v1/tax-settings: the settings of every portfolio the caller may see, by portfolio id. */
export async function listTaxSettings(ctx: Context): Promise<TaxSettingsView[]> {
  const rows = await readAllById((after, take) =>
    ctx.db.portfolio.findMany({
      where: { ...portfolioWhere(ctx), id: { gt: after } },
      select,
      orderBy: { id: "asc" },
      take,
    }),
  );
  return rows.map(view);
}

export const findPortfolioTaxSettings = (ctx: Context, portfolioId: unknown) =>
  orNull(getPortfolioTaxSettings(ctx, portfolioId));

/** GET /v1/portfolios/{p}/tax-settings (GraphQL portfolioTaxSettings). */
export async function getPortfolioTaxSettings(ctx: Context, portfolioId: unknown): Promise<TaxSettingsView> {
  return view(await scopedPortfolio(ctx, portfolioId, ctx.db, select));
}

/**
 * PUT /v1/portfolios/{p}/tax-settings. Lists given replace the old ones as a whole. Methods decide
 * which parcels the recorded sells without a manual pick consumed, so a change can leave a later
 * manual pick without its units: every holding is folded again under the new methods, and a
 * broken rule refuses the whole change (BUSINESS_RULE, nothing written).
 */
export async function updateTaxSettings(ctx: Context, portfolioId: unknown, input: unknown): Promise<TaxSettingsView> {
  const id = parseId(portfolioId, "portfolioId");
  const data = parseInput(TaxSettingsInput, input, "The tax settings");
  assertCanWrite(ctx);
  const explain = (error: ParcelError, holdingId: number) =>
    businessRule(
      `Under these parcel methods a recorded sell of holding ${holdingId} breaks a rule: ${error.message} (${error.eventKey}). Nothing was changed.`,
    );
  await ledgerWrite(
    ctx,
    id,
    async ({ tx, lockHoldings, reload, load }) => {
      // The ledger's lock order: the portfolio, then every holding row in id order. A trade and a
      // method change of the same portfolio never validate against each other's stale state.
      const holdingIds = await lockHoldings();
      const ofPortfolio = new Set(holdingIds);
      const stranger = data.holdingOverrides?.find((o) => !ofPortfolio.has(o.holdingId));
      if (stranger) throw notFound(`Holding ${stranger.holdingId} of portfolio ${id}`);

      await tx.portfolio.update({
        where: { id },
        data: { entityType: data.entityType ?? undefined, defaultMethod: data.defaultMethod ?? undefined },
      });
      await replaceList(
        tx.taxYearMethod,
        id,
        data.yearMethods?.map((m) => ({ financialYear: m.financialYear, method: m.method })),
      );
      await replaceList(
        tx.holdingTaxMethod,
        id,
        data.holdingOverrides?.map((o) => ({
          holdingId: o.holdingId,
          financialYear: o.financialYear,
          method: o.method,
        })),
      );
      await replaceList(
        tx.carriedForwardLoss,
        id,
        data.carriedForwardLosses?.map((l) => ({ financialYear: l.financialYear, amount: l.amount.toFixed() })),
      );

      const methodsChanged = data.defaultMethod || data.yearMethods || data.holdingOverrides;
      if (methodsChanged && holdingIds.length > 0) {
        // Folded under the methods just written: the portfolio is read again for its default.
        await reload();
        const ledger = await load();
        for (const holdingId of holdingIds) ledger.fold(holdingId);
      }
    },
    { explain },
  );
  return getPortfolioTaxSettings(ctx, id);
}
