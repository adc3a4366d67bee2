import { z } from "zod";

export const SourceResponse = z
  .object({ id: z.uuid().describe("Use as sourceId when recording a trade"), name: z.string() })
  .meta({ id: "Source" });
