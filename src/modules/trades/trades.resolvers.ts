import type { Resolvers } from "../../../generated/graphql/resolvers";
import { dropNulls } from "../../graphql/args";
import { deleteTradeAttachment } from "./trade-attachments.service";
import { exportTrades } from "./trades-export.service";
import { listTradeImportFormats } from "./import-formats.service";
import { importTrades } from "./trades-import.service";
import { createTrade, deleteTrade, findTrade, pageOfTrades, updateTrade } from "./trades.service";

/**
 * The import's body as REST takes it: CSV text or the JSON array of rows. Both or neither is
 * handed on as an object, which the service refuses as it refuses such a REST body.
 */
const importBody = ({ rows, csv }: { rows?: object[] | null; csv?: string | null }) =>
  (rows == null) === (csv == null) ? { rows, csv } : (csv ?? rows!.map((row) => dropNulls(row)));

export const tradeResolvers: Resolvers = {
  Query: {
    trade: (_parent, args, ctx) => findTrade(ctx, args.id),
    exportTrades: (_parent, { portfolioId, format }, ctx) => exportTrades(ctx, portfolioId, { format }),
    tradeImportFormats: () => listTradeImportFormats(),
  },
  Mutation: {
    createTrade: (_parent, args, ctx) => createTrade(ctx, dropNulls(args.input)),
    updateTrade: (_parent, args, ctx) => updateTrade(ctx, args.id, dropNulls(args.input)),
    deleteTrade: (_parent, args, ctx) => deleteTrade(ctx, args.id),
    importTrades: (_parent, { portfolioId, input }, ctx) =>
      importTrades(ctx, portfolioId, importBody(input), {
        dryRun: input.dryRun,
        duplicates: input.duplicates,
        format: input.format,
      }),
    deleteTradeAttachment: (_parent, args, ctx) => deleteTradeAttachment(ctx, args.id),
  },
  Holding: {
    trades: async (holding, args, ctx) =>
      pageOfTrades(await ctx.loaders.tradesByHoldingId.load(holding.id), dropNulls(args)),
  },
};
