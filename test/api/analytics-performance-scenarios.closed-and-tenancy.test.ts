import { useTestApp } from "../support/app";
import { newPortfolio, newTrade, postCreated } from "../factories";
import { expectError, expectOk } from "../support/outcomes";
import { expectIdentity } from "./analytics.transports";
import { performanceScenarioSetup } from "./analytics-performance-scenarios.setup";

/**
 * Performance with includeClosed=false, and who may read it: another account and a client key
 * (docs/reports.md §2; notation and identity in ./analytics-performance-scenarios.setup.ts).
 */

const t = useTestApp();
let key: string;

beforeEach(async () => {
  key = await t.newAccount();
});

const { transports, send, marketPrices, buy, sell } = performanceScenarioSetup(t, () => key);

describe.each(transports)("performance scenarios over $name", (tr) => {
  it("includeClosed=false lists only the holdings held at `to`; the portfolio's return is the same either way", async () => {
    const p = await newPortfolio(t, key, { name: "Closed" });
    await marketPrices("CBA", "ASX", [["2024-05-10", 104]]);
    // WBC: bought and sold out before the period: nothing of it is in the period, never listed.
    await buy(p, "WBC", "ASX", "2024-04-01", 10, 25);
    await sell(p, "WBC", "ASX", "2024-04-10", 10, 26);
    await buy(p, "CBA", "ASX", "2024-05-01", 10, 100);
    await buy(p, "NAB", "ASX", "2024-05-01", 20, 30);
    await sell(p, "NAB", "ASX", "2024-05-05", 20, 33);

    // 2024-05-01..2024-05-10: CBA in 1,000, EMV 10 × 104 = 1,040: +40; NAB in 600, out 660: +60.
    //   BMV 0, EMV 1,040, net flows 1,000 + 600 − 660 = 940, total 100.
    const period = { from: "2024-05-01", to: "2024-05-10" };
    const all = expectOk(await tr.performance(key, p, period));
    expect(all).toMatchObject({ openingValue: "0", totalValue: "1040", netFlows: "940" });
    expect(all.totalReturn).toMatchObject({ totalReturnValue: "100", capitalGainValue: "100" });
    expect(all.holdings.map((h) => [h.symbol, h.quantity, h.marketValue, h.totalReturn.totalReturnValue])).toEqual([
      ["CBA", "10", "1040", "40"],
      ["NAB", "0", "0", "60"],
    ]);
    expectIdentity(all);
    expect(expectOk(await tr.performance(key, p, { ...period, includeClosed: true }))).toEqual(all);

    const open = expectOk(await tr.performance(key, p, { ...period, includeClosed: false }));
    expect(open.holdings.map((h) => h.symbol)).toEqual(["CBA"]);
    expect(open.holdings[0]).toEqual(all.holdings[0]);
    const { holdings: _o, ...openRest } = open;
    const { holdings: _a, ...allRest } = all;
    expect(openRest).toEqual(allRest);
    expectIdentity(open);
  });

  describe("tenancy", () => {
    it("another account gets NOT_FOUND for your portfolio, with or without its own custom group; your custom group is NOT_FOUND to it and its to you", async () => {
      const p = await newPortfolio(t, key, { name: "Mine" });
      const { holdingId } = await buy(p, "CBA", "ASX", "2024-01-02", 10, 100);
      const mine = await postCreated<{ id: number }>(t, key, "/v1/custom-groups", { name: "Mine", labels: ["A"] });
      await send("put", `/v1/custom-groups/${mine.id}/assignments`, [{ holdingId, label: "A" }]);

      const intruder = await t.newAccount("intruder");
      const theirs = await newPortfolio(t, intruder, { name: "Theirs" });
      await newTrade(t, intruder, {
        portfolioId: theirs,
        symbol: "CBA",
        exchange: "ASX",
        tradeType: "Buy",
        tradeDate: "2024-01-02",
        quantity: 1,
        price: 100,
      });
      const theirGroup = await postCreated<{ id: number }>(t, intruder, "/v1/custom-groups", {
        name: "Theirs",
        labels: ["B"],
      });

      // Each side sees its own: the group works for its owner (sanity, so the refusals below mean tenancy).
      const own = expectOk(
        await tr.performance(key, p, { from: "2024-01-02", to: "2024-01-02", groupBy: `customGroup:${mine.id}` }),
      );
      expect(own.groups!.map((g) => g.label)).toEqual(["A"]);
      expectOk(
        await tr.performance(intruder, theirs, {
          from: "2024-01-02",
          to: "2024-01-02",
          groupBy: `customGroup:${theirGroup.id}`,
        }),
      );

      // Your portfolio, to them: NOT_FOUND whatever they ask with.
      expectError(await tr.performance(intruder, p, { from: "2024-01-02", to: "2024-01-02" }), "NOT_FOUND");
      expectError(await tr.performance(intruder, p, { groupBy: `customGroup:${theirGroup.id}` }), "NOT_FOUND");
      expectError(await tr.performance(intruder, p, { groupBy: `customGroup:${mine.id}` }), "NOT_FOUND");
      // Your custom group on their own portfolio: NOT_FOUND, as a group that does not exist.
      const foreignGroup = await tr.performance(intruder, theirs, { groupBy: `customGroup:${mine.id}` });
      expectError(foreignGroup, "NOT_FOUND");
      expect(foreignGroup.raw).not.toContain('"A"');
      // Their custom group on your portfolio: NOT_FOUND too.
      expectError(await tr.performance(key, p, { groupBy: `customGroup:${theirGroup.id}` }), "NOT_FOUND");
    });

    it("a client key of the account sees only its portfolios: another portfolio of the same account is NOT_FOUND", async () => {
      const p = await newPortfolio(t, key, { name: "Client's" });
      const other = await newPortfolio(t, key, { name: "Not the client's" });
      await buy(p, "CBA", "ASX", "2024-01-02", 10, 100);
      await buy(other, "CBA", "ASX", "2024-01-02", 10, 100);
      const client = await t.newClientKey(key, "Read", [p]);
      expectOk(await tr.performance(client, p, { from: "2024-01-02", to: "2024-01-02" }));
      expectError(await tr.performance(client, other, { from: "2024-01-02", to: "2024-01-02" }), "NOT_FOUND");
    });
  });
});
