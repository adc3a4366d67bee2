import { useTestApp } from "../support/app";
import { plannerLedger } from "../scenarios/tax-planner-ledger";
import { expectError, expectOk, type Json } from "../support/outcomes";
import { AS_OF, plannerTransports } from "./tax-planner.transports";

/**
 * The tax planner's what-if (docs/reports.md §6.1: POST /v1/portfolios/{p}/tax-planner/what-if,
 * GraphQL taxPlannerWhatIf) over REST and GraphQL: sells priced and matched to parcels as the
 * portfolio's method says, the before and after of the year, and a sell of more than is held.
 * The ledger and its figures: test/scenarios/tax-planner-ledger.ts.
 */
const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const transports = plannerTransports(t);

describe.each(transports)("over $name", (tr) => {
  it("what-if: two sells of one holding (the second after the first), and two holdings at once", async () => {
    const s = await plannerLedger(t, key);
    // CCC at 9 (asOf's price), FIFO: 60 of the 2024 parcel (cost 900, proceeds 540, loss 360), then
    // the other 40 (cost 600, proceeds 360, loss 240) and 5 of the 2026 parcel (45 for 45: 0).
    const two = expectOk(
      await tr.whatIf(key, s.portfolioId, {
        ...AS_OF,
        sells: [
          { holdingId: s.ccc, quantity: 60 },
          { holdingId: s.ccc, quantity: 45 },
        ],
      }),
    );
    expect((two.sells as Json[]).map((x) => [x.quantity, x.price, x.method, x.capitalGain, x.parcels])).toEqual([
      [
        "60",
        "9",
        "FIFO",
        "-360",
        [
          {
            acquisitionTradeId: s.cccFirst,
            acquisitionDate: "2024-03-01",
            quantity: "60",
            costBase: "900",
            proceeds: "540",
            capitalGain: "-360",
            isDiscountable: true,
          },
        ],
      ],
      [
        "45",
        "9",
        "FIFO",
        "-240",
        [
          {
            acquisitionTradeId: s.cccFirst,
            acquisitionDate: "2024-03-01",
            quantity: "40",
            costBase: "600",
            proceeds: "360",
            capitalGain: "-240",
            isDiscountable: true,
          },
          {
            acquisitionTradeId: s.cccSecond,
            acquisitionDate: "2026-05-01",
            quantity: "5",
            costBase: "45",
            proceeds: "45",
            capitalGain: "0",
            isDiscountable: false,
          },
        ],
      ],
    ]);
    // The 600 of losses: as the harvest row said, 700 → 300.
    expect([two.before, two.after].map((x) => (x as Json).netCapitalGain)).toEqual(["700", "300"]);
    expect(two.difference).toEqual({
      netCapitalGain: "-400",
      netCapitalLossesCarriedForward: "0",
      estimatedTax: "-148",
    });

    // CCC's 100 at 9 (loss 600) and DDD's 50 at 40 on 2026-06-01 (gain 1,000, not discountable):
    // short 200 + 1,000 − 600 = 600, long 1,000 → 500: 1,100; tax 407 − 259 = 148.
    const mixed = expectOk(
      await tr.whatIf(key, s.portfolioId, {
        ...AS_OF,
        sells: [
          { holdingId: s.ccc, quantity: 100 },
          { holdingId: s.ddd, quantity: 50, price: 40, date: "2026-06-01" },
        ],
      }),
    );
    expect((mixed.after as Json).netCapitalGain).toBe("1100");
    expect(mixed.difference).toEqual({
      netCapitalGain: "400",
      netCapitalLossesCarriedForward: "0",
      estimatedTax: "148",
    });
    expect((mixed.sells as Json[]).map((x) => [x.date, x.proceeds, x.costBase, x.capitalGain])).toEqual([
      ["2026-05-15", "900", "1500", "-600"],
      ["2026-06-01", "2000", "1000", "1000"],
    ]);
  });

  it("more units than held in a what-if: 422 naming the sell", async () => {
    const s = await plannerLedger(t, key);
    const o = await tr.whatIf(key, s.portfolioId, {
      ...AS_OF,
      sells: [
        { holdingId: s.ccc, quantity: 100 },
        { holdingId: s.ccc, quantity: 20 },
      ],
    });
    expectError(o, "BUSINESS_RULE");
    expect(!o.ok && o.message).toContain("sells[1]");
  });
});

it("both transports give the same plan and the same what-if, figure for figure", async () => {
  const s = await plannerLedger(t, key);
  const [rest, graphql] = transports;
  expect(expectOk(await graphql.planner(key, s.portfolioId, AS_OF))).toEqual(
    expectOk(await rest.planner(key, s.portfolioId, AS_OF)),
  );
  const input = { ...AS_OF, sells: [{ holdingId: s.ddd, quantity: 20, brokerage: 9.95, method: "LIFO" }] };
  expect(expectOk(await graphql.whatIf(key, s.portfolioId, input))).toEqual(
    expectOk(await rest.whatIf(key, s.portfolioId, input)),
  );
});
