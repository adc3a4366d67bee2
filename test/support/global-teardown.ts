import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export default async function globalTeardown(): Promise<void> {
  const snapshot = process.env.TEST_PGLITE_SNAPSHOT;
  if (snapshot) fs.rmSync(path.dirname(snapshot), { recursive: true, force: true });
  const url = process.env.TEST_DATABASE_URL;
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (url && template) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await admin.end();
  }
}
