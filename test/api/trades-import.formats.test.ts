import { BROKER_FORMATS } from "../../src/modules/trades/broker-formats/registry";
import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { expectRejected } from "../support/outcomes";
import { tradeImportApi } from "./trades-import.requests";

/**
 * The formats the trade import reads, listed (GET /v1/trade-import-formats, Query.tradeImportFormats;
 * docs/imports.md): what a client offers its user to pick from. The list is the import's own: every
 * format it takes but auto, in the order auto tries them, each with the header its 400 names.
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});

const { importFile } = tradeImportApi(t, () => key);

interface Format {
  id: string;
  name: string;
  media: string;
  header: string[];
}

const listed = async (): Promise<Format[]> => {
  const res = await t.http.get("/v1/trade-import-formats").set("authorization", key);
  expect(res.status).toBe(200);
  return res.body;
};

it("lists this service's columns, then every broker's export in the order auto tries them, alike over GraphQL", async () => {
  const formats = await listed();
  expect(formats.map((f) => f.id)).toEqual(["native", ...BROKER_FORMATS.map((f) => f.id)]);
  expect(formats[0]).toEqual({
    id: "native",
    name: "This service's own columns",
    media: "csv",
    header: expect.arrayContaining(["date", "type", "quantity", "symbol", "exchange", "price", "reference"]),
  });
  expect(formats.find((f) => f.id === "stake")).toMatchObject({
    media: "xlsx",
    name: "Stake Wall St transaction report",
  });
  expect(formats.filter((f) => f.media === "xlsx").map((f) => f.id)).toEqual(["stake"]);
  const gql = await t.gql(key, "{ tradeImportFormats { id name media header } }");
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.tradeImportFormats).toEqual(formats);
});

it("each listed format is one the import takes by its id, and its header is the one the import looks for", async () => {
  const p = await newPortfolio(t, key);
  const csv = (await listed()).filter((f) => f.media === "csv" && f.id !== "native");
  // A file no format places: the 400 names each format's header, as listed.
  const errors = expectRejected(
    await importFile(p, { name: "x.csv", text: "When,What,How much\n2024-07-01,Bought CBA,100\n" }),
    400,
    "VALIDATION_FAILED",
  );
  expect(errors.map((e) => e.message)).toEqual(csv.map((f) => `is not ${f.id} (${f.name}): ${f.header.join(",")}`));
  expect(errors[0].message).toBe(
    "is not commsec (CommSec Transactions): Date,Reference,Details,Debit($),Credit($),Balance($)",
  );
  // Each id is a format the import names: its header alone is a file of that format with no trades.
  for (const f of csv) {
    const res = await importFile(p, { name: `${f.id}.csv`, text: f.header.join(",") + "\n" }, `?format=${f.id}`);
    expect([f.id, res.status, res.body.detail]).toEqual([f.id, 400, expect.stringMatching(/holds no trades/)]);
  }
});

it("asks for a key, as every /v1 operation does", async () => {
  const res = await t.http.get("/v1/trade-import-formats");
  expectRejected(res, 401, "UNAUTHENTICATED");
});
