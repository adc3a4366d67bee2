import path from "node:path";
import { defineConfig } from "prisma/config";

// This network cannot download Prisma's native schema engine. `prisma generate` does not run it,
// but the CLI insists on finding one, so point the official override at our WASM-engine tool.
// Migrations are created with `npm run db:migrate` (prisma/migrate-tool.ts), not `prisma migrate`.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, "prisma/no-native-engine.sh");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
