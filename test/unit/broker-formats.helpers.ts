import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords } from "../../src/lib/csv";
import { Columns, type BrokerFormat, type BrokerRead } from "../../src/modules/trades/broker-formats/format";
import { readXlsxSheet } from "../../src/modules/trades/broker-formats/xlsx";

/** A broker fixture of test/fixtures/brokers read by one format, as the import reads it. */
export async function readBrokerFixture(
  format: BrokerFormat,
  file: string,
): Promise<BrokerRead & { headerLine: number }> {
  const body = readFileSync(join(__dirname, "../fixtures/brokers", file));
  const records =
    format.media === "xlsx"
      ? await readXlsxSheet(body, "Trades", "The import", 100_000)
      : await readCsvRecords(body.toString("utf8"), { what: "The import", maxRecords: 100_000 });
  const i = format.findHeader(records);
  if (i < 0) throw new Error(`${file} holds no ${format.name} header`);
  return {
    headerLine: records[i].line,
    ...format.read(new Columns(records[i].cells), records.slice(i + 1), records.slice(0, i)),
  };
}
