import { ledgerSnapshot, useTestApp } from "../support/app";
import { newPortfolio, newTrade } from "../factories";
import { expectOk, expectRejected, gqlOutcome, restCall, type Json } from "../support/outcomes";
import { brokerFixture, tradeImportApi } from "./trades-import.requests";

/**
 * Broker files through the trade import (docs/data.md §4): each fixture of test/fixtures/brokers as
 * downloaded, found by `format=auto`, creates the trades its golden unit test
 * (test/unit/broker-format.*.test.ts) reads, keeps each row's reference, and lists the rows that are
 * not trades. All or nothing, and duplicates by reference; the files it refuses are in
 * trades-import.broker-files-refused.test.ts.
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});

const { importFile } = tradeImportApi(t, () => key);
const fixture = brokerFixture;

/** A trade as GET /v1/trades/{t} shows it: [date, type, symbol, exchange, quantity, price, brokerage, currency, rate, reference]. */
type Golden = [string, string, string, string, number, number, number, string, number, string | null];

const GOLDEN_FIELDS = ["tradeDate", "tradeType", "symbol", "exchange", "quantity", "price", "brokerage"];
GOLDEN_FIELDS.push("currencyCode", "exchangeRate", "reference");

async function tradesOf(ids: number[]): Promise<Golden[]> {
  return Promise.all(
    ids.map(async (id) => {
      const res = await t.http.get(`/v1/trades/${id}`).set("authorization", key);
      expect(res.status).toBe(200);
      return GOLDEN_FIELDS.map((f) => (res.body as Json)[f]) as Golden;
    }),
  );
}

/** A USD trade recorded before the file, with its rate: units a file sells, and the FX rule's fallback rate. */
const usdBuy = (p: number, symbol: string, exchange: string, tradeDate: string, price: number) =>
  newTrade(t, key, {
    portfolioId: p,
    symbol,
    exchange,
    tradeType: "Buy",
    tradeDate,
    quantity: 10,
    price,
    currencyCode: "USD",
    exchangeRate: "1.5",
  });

interface BrokerCase {
  file: string;
  format: string;
  /** Trades recorded before the import: the units a file sells without buying them in it. */
  setup?: (p: number) => Promise<unknown>;
  trades: Golden[];
  ignored: number[];
  warnings: RegExp[];
}

const CASES: BrokerCase[] = [
  {
    file: "commsec-transactions.csv",
    format: "commsec",
    // Dated on settlement: each trade date is 2 business days earlier (and the answer says so).
    trades: [
      ["2024-07-11", "Buy", "S32", "ASX", 2500, 3.42, 19.95, "AUD", 1, "C4417209"],
      ["2024-08-26", "Buy", "CBA", "ASX", 150, 131.2, 19.95, "AUD", 1, "C4452871"],
      ["2024-11-29", "Sell", "S32", "ASX", -1000, 3.65, 19.95, "AUD", 1, "C4528830"],
      ["2025-02-27", "Buy", "WDS", "ASX", 1050, 22.88, 29.95, "AUD", 1, "C4601194"],
      ["2025-05-14", "Sell", "CBA", "ASX", -150, 162.34, 29.95, "AUD", 1, "C4655342"],
    ],
    ignored: [4, 5, 8, 10, 12],
    warnings: [/settlement.*2 business days/],
  },
  {
    file: "commsec-summary.csv",
    format: "commsec-summary",
    trades: [
      ["2024-09-09", "Buy", "A200", "ASX", 75, 131.45, 19.95, "AUD", 1, "512345678"],
      ["2024-11-21", "Buy", "CSL", "ASX", 40, 298.12, 29.95, "AUD", 1, "523456789"],
      ["2025-06-12", "Sell", "CSL", "ASX", -15, 251.3, 19.95, "AUD", 1, "598765432"],
      ["2025-02-03", "Buy", "TLS", "ASX", 2400, 4.01, 19.95, "AUD", 1, "534567890"],
      ["2025-04-23", "Sell", "TLS", "ASX", -2400, 4.42, 29.95, "AUD", 1, "587654321"],
    ],
    ignored: [12, 14],
    warnings: [],
  },
  {
    file: "commsec-confirmations.csv",
    format: "commsec-confirmations",
    trades: [
      ["2024-07-02", "Buy", "MQG", "ASX", 40, 203.15, 19.95, "AUD", 1, "723456781"],
      ["2024-08-19", "Buy", "NXT", "ASX", 1250, 15.62, 29.95, "AUD", 1, "724567892"],
      ["2024-11-06", "Sell", "MQG", "ASX", -15, 226.4, 19.95, "AUD", 1, "725678903"],
      ["2025-03-31", "Sell", "NXT", "ASX", -1250, 16.08, 29.95, "AUD", 1, "727890125"],
    ],
    ignored: [6],
    warnings: [],
  },
  {
    file: "selfwealth.csv",
    format: "selfwealth",
    trades: [
      ["2024-07-22", "Buy", "VAS", "ASX", 60, 99.87, 9.5, "AUD", 1, "2481937"],
      ["2024-10-14", "Buy", "BHP", "ASX", 120, 43.56, 9.5, "AUD", 1, "2503318"],
      ["2025-04-07", "Sell", "BHP", "ASX", -120, 36.05, 9.5, "AUD", 1, "2561044"],
      ["2025-06-19", "Buy", "NDQ", "ASX", 1000, 52.335, 9.5, "AUD", 1, "2584467"],
    ],
    ignored: [3, 6],
    warnings: [],
  },
  {
    file: "sharesight.csv",
    format: "sharesight",
    // Sharesight's rate is USD per AUD: 1 / 0.64 = 1.5625, 1 / 0.6512, 1 / 0.6425 to 10 decimals.
    trades: [
      ["2024-08-05", "Buy", "VGS", "ASX", 45, 124.18, 19.95, "AUD", 1, null],
      ["2024-09-16", "Buy", "MSFT", "NASDAQ", 12, 430.5, 3, "USD", 1.5625, null],
      ["2024-11-29", "Buy", "GOOGL", "NASDAQ", 20, 168.95, 3, "USD", 1.5356265356, null],
      ["2025-03-18", "Sell", "VGS", "ASX", -20, 131.02, 19.95, "AUD", 1, null],
      ["2025-05-02", "Sell", "MSFT", "NASDAQ", -5, 436.1, 3, "USD", 1.5564202335, null],
      ["2025-06-27", "Buy", "WES", "ASX", 30, 81.4, 0, "AUD", 1, null],
    ],
    ignored: [7],
    warnings: [],
  },
  {
    file: "ibkr-flex.csv",
    format: "ibkr-flex",
    // The file sells 4 SPY it does not buy.
    setup: (p) => usdBuy(p, "SPY", "NYSE", "2024-08-01", 540),
    trades: [
      ["2024-09-03", "Buy", "MSFT", "NASDAQ", 20, 412.35, 1, "USD", 1.4892, "2871033012"],
      ["2024-09-10", "Buy", "VAS", "ASX", 150, 99.12, 6, "AUD", 1, "2871944120"],
      ["2024-10-15", "Sell", "SPY", "NYSE", -4, 584.1, 1.02, "USD", 1.4956, "2874522871"],
      ["2024-11-20", "Buy", "BRK.B", "NYSE", 3, 462.75, 1, "USD", 1.5318, "2877004519"],
    ],
    ignored: [3, 8, 10, 14, 15],
    warnings: [],
  },
  {
    file: "ibkr-activity.csv",
    format: "ibkr-activity",
    // The file sells 2 BRK.B it does not buy, and gives no rates: the FX rule's fallback is this trade's 1.5.
    setup: (p) => usdBuy(p, "BRK.B", "NYSE", "2024-07-01", 410),
    trades: [
      ["2024-07-16", "Buy", "BHP", "ASX", 200, 44.18, 6, "AUD", 1, null],
      ["2024-10-03", "Sell", "BHP", "ASX", -80, 45.9, 6, "AUD", 1, null],
      // The statement's NYSE guess resolved: AMZN is listed on NASDAQ alone.
      ["2024-08-05", "Buy", "AMZN", "NASDAQ", 15, 161.02, 1, "USD", 1.5, null],
      ["2024-11-11", "Buy", "KO", "NYSE", 1000, 62.15, 5.1, "USD", 1.5, null],
      ["2024-12-02", "Sell", "BRK.B", "NYSE", -2, 470.3, 1.02, "USD", 1.5, null],
    ],
    ignored: [11, 12, 15, 16, 18, 19, 21, 23, 24, 27, 29],
    warnings: [],
  },
  {
    file: "stake-trades.xlsx",
    format: "stake",
    // The sheet sells 3 NVDA it does not buy.
    setup: (p) => usdBuy(p, "NVDA", "NASDAQ", "2024-02-01", 650),
    trades: [
      ["2024-03-05", "Buy", "AAPL", "NASDAQ", 12, 170.25, 3, "USD", 1.5262506118, "T-4417-0091"],
      ["2024-06-18", "Buy", "BRK.B", "NYSE", 5.5, 412.8, 3, "USD", 1.5042107118, "T-4417-0352"],
      ["2024-09-12", "Sell", "AAPL", "NASDAQ", -7, 222.5, 3.05, "USD", 1.4898683788, "T-4417-0788"],
      ["2024-11-04", "Sell", "NVDA", "NASDAQ", -3, 136.05, 3.03, "USD", 1.5174568173, "T-4417-1020"],
    ],
    ignored: [],
    warnings: [],
  },
];
const CSV_CASES = CASES.filter((c) => !c.file.endsWith(".xlsx"));

describe("format=auto names each broker's file and creates its golden trades", () => {
  it.each(CASES)("$file → $format", async (c) => {
    const p = await newPortfolio(t, key);
    await c.setup?.(p);
    const res = await importFile(p, c.file);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ dryRun: false, format: c.format, imported: c.trades.length, skipped: [] });
    expect((res.body.ignored as { line: number }[]).map((i) => i.line)).toEqual(c.ignored);
    for (const i of res.body.ignored as Json[])
      expect(i).toEqual({ line: expect.any(Number), reason: expect.any(String) });
    expect(res.body.warnings).toHaveLength(c.warnings.length);
    c.warnings.forEach((w, i) => expect(res.body.warnings[i]).toMatch(w));
    expect(await tradesOf(res.body.tradeIds)).toEqual(c.trades);
  });

  it("a quoted note of a Sharesight row is kept on the trade", async () => {
    const p = await newPortfolio(t, key);
    const res = await importFile(p, "sharesight.csv");
    const msft = await t.http.get(`/v1/trades/${res.body.tradeIds[1]}`).set("authorization", key);
    expect(msft.body.notes).toBe("Limit order, filled in two parts");
  });
});

describe("GraphQL importTrades(input: {csv, format})", () => {
  const IMPORT = `mutation($p: ID!, $input: TradeImportInput!) {
    importTrades(portfolioId: $p, input: $input) { dryRun imported valid newHoldings { symbol exchange } tradeIds skipped { line duplicateOf reference } format ignored { line reason } warnings }
  }`;
  /** The answer without its ids, which differ between portfolios. */
  const shape = ({ tradeIds, ...rest }: Json & { tradeIds: unknown[] }) => ({ ...rest, tradeIds: tradeIds.length });

  it.each(CSV_CASES)("$file answers as REST does, named or found", async (c) => {
    const [a, b, n] = [await newPortfolio(t, key), await newPortfolio(t, key), await newPortfolio(t, key)];
    for (const p of [a, b, n]) await c.setup?.(p);
    type Answer = Json & { tradeIds: unknown[] };
    const viaRest = expectOk(await restCall<Answer>(await importFile(a, c.file), 201));
    const csv = fixture(c.file).toString("utf8");
    const found = expectOk(
      gqlOutcome<Answer>(await t.gql(key, IMPORT, { p: String(b), input: { csv } }), "importTrades"),
    );
    const named = expectOk(
      gqlOutcome<Answer>(await t.gql(key, IMPORT, { p: String(n), input: { csv, format: c.format } }), "importTrades"),
    );
    expect(shape(found)).toEqual(shape(viaRest));
    expect(shape(named)).toEqual(shape(viaRest));
    const ids = (found.tradeIds as string[]).map(Number);
    expect(await tradesOf(ids)).toEqual(c.trades);
  });

  it("a Stake workbook is not CSV text: a named stake csv is VALIDATION_FAILED", async () => {
    const p = await newPortfolio(t, key);
    const res = await t.gql(key, IMPORT, { p: String(p), input: { csv: "a,b\n1,2\n", format: "stake" } });
    expect(gqlOutcome(res, "importTrades").code).toBe("VALIDATION_FAILED");
  });
});

describe("dryRun=true", () => {
  it.each(["commsec-transactions.csv", "stake-trades.xlsx"])(
    "%s answers the preview and writes nothing",
    async (file) => {
      const c = CASES.find((x) => x.file === file)!;
      const p = await newPortfolio(t, key);
      await c.setup?.(p);
      const before = await ledgerSnapshot(t.db);
      const res = await importFile(p, file, "?dryRun=true");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        dryRun: true,
        format: c.format,
        imported: 0,
        valid: c.trades.length,
        tradeIds: [],
      });
      expect((res.body.ignored as { line: number }[]).map((i) => i.line)).toEqual(c.ignored);
      expect(await ledgerSnapshot(t.db)).toBe(before);
    },
  );
});

describe("the same file again: rows whose reference the portfolio holds", () => {
  const FILE = "commsec-confirmations.csv";
  const REFERENCES = ["723456781", "724567892", "725678903", "727890125"];
  const LINES = [2, 3, 4, 7];

  it("by default 409 names each row with duplicateOf and its reference, and writes nothing", async () => {
    const p = await newPortfolio(t, key);
    const ids = (await importFile(p, FILE)).body.tradeIds as number[];
    const before = await ledgerSnapshot(t.db);
    const errors = expectRejected(await importFile(p, FILE), 409, "CONFLICT");
    expect(errors).toEqual(
      LINES.map((line, i) => ({
        path: `line ${line}`,
        line,
        duplicateOf: ids[i],
        message: `repeats trade ${ids[i]} (same broker reference ${REFERENCES[i]})`,
      })),
    );
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("duplicates=skip imports none and lists each with its reference", async () => {
    const p = await newPortfolio(t, key);
    const ids = (await importFile(p, FILE)).body.tradeIds as number[];
    const before = await ledgerSnapshot(t.db);
    const res = await importFile(p, FILE, "?duplicates=skip");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, valid: 0, tradeIds: [], format: "commsec-confirmations" });
    expect(res.body.skipped).toEqual(LINES.map((line, i) => ({ line, duplicateOf: ids[i], reference: REFERENCES[i] })));
    expect(await ledgerSnapshot(t.db)).toBe(before);
  });

  it("an overlapping file (the fixture plus one new row) with skip imports the new row only", async () => {
    const p = await newPortfolio(t, key);
    await importFile(p, FILE);
    const text =
      fixture(FILE).toString("utf8").trimEnd() +
      "\n728901236,N98765937,2/06/2025,B,WBC,100,33.50,19.95,3369.95,4/06/2025,Confirmed\n";
    const res = await importFile(p, { name: FILE, text }, "?duplicates=skip");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported: 1, valid: 1, newHoldings: [{ symbol: "WBC", exchange: "ASX" }] });
    expect((res.body.skipped as Json[]).map((s) => s.line)).toEqual(LINES);
    expect(await tradesOf(res.body.tradeIds)).toEqual([
      ["2025-06-02", "Buy", "WBC", "ASX", 100, 33.5, 19.95, "AUD", 1, "728901236"],
    ]);
  });
});

describe("a US share the file names no exchange for (Stake)", () => {
  it("AAPL rows go onto the portfolio's AAPL NASDAQ holding", async () => {
    const p = await newPortfolio(t, key);
    const aapl = await usdBuy(p, "AAPL", "NASDAQ", "2024-01-10", 185);
    await usdBuy(p, "NVDA", "NASDAQ", "2024-02-01", 650);
    const res = await importFile(p, "stake-trades.xlsx");
    expect(res.status).toBe(201);
    // Only BRK.B is new: AAPL and NVDA were held.
    expect(res.body.newHoldings).toEqual([{ symbol: "BRK.B", exchange: "NYSE" }]);
    const [buy, , sell] = await Promise.all(
      (res.body.tradeIds as number[]).map(
        async (id) => (await t.http.get(`/v1/trades/${id}`).set("authorization", key)).body,
      ),
    );
    expect([buy.holdingId, sell.holdingId]).toEqual([aapl.holdingId, aapl.holdingId]);
    const holding = await t.http.get(`/v1/holdings/${aapl.holdingId}`).set("authorization", key);
    expect(holding.body).toMatchObject({ symbol: "AAPL", exchange: "NASDAQ", quantity: 15 });
  });

  it("the portfolio's own US listing of a symbol wins over the master list's", async () => {
    const p = await newPortfolio(t, key);
    // BRK.B is master-listed on NYSE; this portfolio holds it on NASDAQ (a security of the account's own).
    const brk = await usdBuy(p, "BRK.B", "NASDAQ", "2024-01-10", 360);
    await usdBuy(p, "NVDA", "NASDAQ", "2024-02-01", 650);
    const res = await importFile(p, "stake-trades.xlsx");
    expect(res.status).toBe(201);
    expect(res.body.newHoldings).toEqual([{ symbol: "AAPL", exchange: "NASDAQ" }]);
    const trade = await t.http.get(`/v1/trades/${res.body.tradeIds[1]}`).set("authorization", key);
    expect(trade.body).toMatchObject({ symbol: "BRK.B", exchange: "NASDAQ", holdingId: brk.holdingId });
  });
});

describe("IBKR Flex: a listing exchange the service does not know", () => {
  it("is a 400 naming its line and the ListingExchange column, and nothing is written", async () => {
    // BVME (Borsa Italiana) is Euronext's: read as EURONEXT. XWAR (Warsaw) is not known: a typo or
    // an exchange the service has no currency for must not make a holding of its own.
    const text =
      "TradeDate,symbol,Description,BUY/SELL,quantity,tradeprice,IBCOMMISSION,currencyPrimary,fxRateToBase,ListingExchange,TransactionID,LevelOfDetail\n" +
      "20240610,ENI,ENI SPA,BUY,100,14.3220,-3,EUR,1.6215,BVME,3012009876,EXECUTION\n" +
      "20240611,PKO,PKO BP,BUY,10,50.00,-3,PLN,0.38,XWAR,3012009877,EXECUTION\n";
    const p = await newPortfolio(t, key);
    const res = await importFile(p, { name: "flex.csv", text });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "line 3.ListingExchange", line: 3 })]);
    expect(await t.db.sql("SELECT id FROM trade")).toEqual([]);
    const ok = await importFile(p, { name: "flex.csv", text: text.split("\n").slice(0, 2).join("\n") + "\n" });
    expect(ok.status).toBe(201);
    expect(await tradesOf(ok.body.tradeIds)).toEqual([
      ["2024-06-10", "Buy", "ENI", "EURONEXT", 100, 14.322, 3, "EUR", 1.6215, "3012009876"],
    ]);
  });
});

describe("IBKR Flex from an account whose base currency is not the portfolio's", () => {
  it("leaves FXRateToBase out, says so, and takes each trade's rate from the exchange rates", async () => {
    // An IBKR account in USD: FXRateToBase converts to USD, so its USD trade has the rate 1 and its
    // ASX trade 0.66 (USD per AUD). Stored as AUD rates, AAPL's cost base would be a third short.
    const text =
      "Buy/Sell,TradeDate,Symbol,Quantity,TradePrice,IBCommission,CurrencyPrimary,FXRateToBase,ListingExchange,TransactionID\n" +
      "BUY,20240805,AAPL,10,200,-1,USD,1,NASDAQ,5001\n" +
      "BUY,20240806,CBA,10,130,-6,AUD,0.66,ASX,5002\n";
    const p = await newPortfolio(t, key);
    // 1 USD buys 1.5 AUD from 1 August 2024 (the rate on and after the date: docs/rules.md §8).
    const fx = await t.http
      .post("/v1/fx-rates/bulk")
      .set("authorization", key)
      .send([{ base: "USD", quote: "AUD", date: "2024-08-01", rate: 1.5 }]);
    expect(fx.status).toBeLessThan(300);
    const res = await importFile(p, { name: "flex.csv", text });
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([expect.stringMatching(/^The file's exchange rates convert to USD .* AUD/)]);
    expect(await tradesOf(res.body.tradeIds)).toEqual([
      ["2024-08-05", "Buy", "AAPL", "NASDAQ", 10, 200, 1, "USD", 1.5, "5001"],
      ["2024-08-06", "Buy", "CBA", "ASX", 10, 130, 6, "AUD", 1, "5002"],
    ]);
  });
});
