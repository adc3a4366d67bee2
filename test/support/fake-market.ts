import type { HttpResponse, RawHttpClient } from "../../src/modules/market-data/providers/http";

/**
 * A fake of the network the market-data providers reach: Yahoo chart answers built from
 * [date, close] pairs, an RBA F11.1 file, and per-path overrides (a status, a failure). Records
 * every URL asked for, so a test can say which requests were made, and that no other was.
 */
export type Bar = [date: string, close: number];

const ts = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** A Yahoo chart body: bars at midnight UTC (10 am in Sydney: the same local date). */
export function chart(
  symbol: string,
  currency: string,
  bars: Bar[],
  events: { dividends?: [string, number][]; splits?: [string, number, number][] } = {},
  instrumentType = "EQUITY",
): string {
  return JSON.stringify({
    chart: {
      result: [
        {
          meta: { currency, symbol, exchangeName: "ASX", instrumentType, gmtoffset: 36000 },
          timestamp: bars.map(([d]) => ts(d)),
          events: {
            dividends: Object.fromEntries(
              (events.dividends ?? []).map(([d, amount]) => [ts(d), { amount, date: ts(d) }]),
            ),
            splits: Object.fromEntries(
              (events.splits ?? []).map(([d, n, m]) => [
                ts(d),
                { date: ts(d), numerator: n, denominator: m, splitRatio: `${n}:${m}` },
              ]),
            ),
          },
          indicators: { quote: [{ close: bars.map(([, c]) => c) }] },
        },
      ],
      error: null,
    },
  });
}

/** An RBA F11.1 file with a USD and a EUR column (and the TWI, which is skipped). */
export function rbaFile(rows: [date: string, usd: number | null, eur: number | null][]): string {
  const mon = (d: string) => {
    const [y, m, day] = d.split("-");
    const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    return `${day}-${months[Number(m) - 1]}-${y}`;
  };
  return [
    "F11.1  EXCHANGE RATES,,,",
    "Title,A$1=USD,Trade-weighted Index May 1970 = 100,A$1=EUR",
    "Description,AUD/USD Exchange Rate,Australian Dollar Trade-weighted Index,AUD/EUR Exchange Rate",
    "Frequency,Daily,Daily,Daily",
    "Type,Indicative,Indicative,Indicative",
    "Units,USD,Index,EUR",
    ",,,",
    "Source,WM/Reuters,RBA,RBA",
    "Publication date,03-Jan-2024,03-Jan-2024,03-Jan-2024",
    "Series ID,FXRUSD,FXRTWI,FXREUR",
    ...rows.map(([d, usd, eur]) => `${mon(d)},${usd ?? ""},61.5,${eur ?? ""}`),
  ].join("\r\n");
}

type Answer = { status: number; body: string } | Error;

export class FakeMarket {
  readonly asked: string[] = [];
  private readonly answers = new Map<string, Answer[]>();

  /** Answers `path` (e.g. `/v8/finance/chart/VAS.AX`) with these, one per request, the last repeating. */
  answer(path: string, ...answers: Answer[]): this {
    this.answers.set(path, answers);
    return this;
  }

  readonly http: RawHttpClient = async (url): Promise<HttpResponse> => {
    this.asked.push(url);
    const path = new URL(url).pathname;
    const queue = this.answers.get(path);
    const next = queue && (queue.length > 1 ? queue.shift()! : queue[0]);
    if (!next)
      return {
        status: 404,
        text: async () => '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}',
      };
    if (next instanceof Error) throw next;
    return { status: next.status, text: async () => next.body };
  };

  /** The paths asked for, in order. */
  paths(): string[] {
    return this.asked.map((u) => new URL(u).pathname);
  }
}
