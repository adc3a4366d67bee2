import type { Context } from "../../context";

export interface SourceView {
  id: string;
  name: string;
}

/** Seed 4.1: every broker and data source identifier, by name. */
export async function listSources(ctx: Pick<Context, "db">): Promise<SourceView[]> {
  return ctx.db.source.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}
