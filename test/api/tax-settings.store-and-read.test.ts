import { useTestApp } from "../support/app";
import { newPortfolio } from "../factories";
import { type TaxSettings, defaults, taxSettingsApi } from "./tax-settings.transports";

/**
 * The defaults, every field stored and read back (lists sorted, replaced as a whole, amounts exact),
 * the same on both transports.
 *
 * Tax settings (docs/reports.md §5, docs/rules.md §3): over REST and over GraphQL on the same scenarios. They
 * follow the portfolio's scope (another account's portfolio: NOT_FOUND; a client key reads them,
 * and changes them with ReadWrite only), lists are replaced as a whole, and a change of parcel
 * methods that would break a recorded manual parcel pick is refused with nothing written.
 */

const t = useTestApp();
let key: string;
const { trade, rest, graphql } = taxSettingsApi(t);

beforeEach(async () => {
  key = await t.newAccount();
});

describe.each([rest, graphql])("tax settings over $name", (tr) => {
  it("a new portfolio has the defaults: Individual, FIFO, empty lists", async () => {
    const p = await newPortfolio(t, key);
    const o = await tr.get(key, p);
    expect(o.code).toBeUndefined();
    expect(o.data).toEqual(defaults(p));
    if (tr.name === "REST") {
      expect(Object.keys(o.res.body).sort()).toEqual([
        "carriedForwardLosses",
        "defaultMethod",
        "entityType",
        "holdingOverrides",
        "portfolioId",
        "yearMethods",
      ]);
    }
    expect((await tr.list(key)).data).toEqual([defaults(p)]);
  });

  it("stores every field, answers the lists sorted, and reads them back the same", async () => {
    const p = await newPortfolio(t, key);
    const other = await newPortfolio(t, key, { name: "Other", entityType: "SMSF" });
    const a = (await trade(key, { portfolioId: p, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const b = (await trade(key, { portfolioId: p, symbol: "BHP", tradeType: "Buy", tradeDate: "2024-01-10" }))
      .holdingId;
    const o = await tr.update(key, p, {
      entityType: "Trust",
      defaultMethod: "MinimiseCGT",
      yearMethods: [
        { financialYear: 2026, method: "LIFO" },
        { financialYear: 2025, method: "MaximiseGain" },
      ],
      holdingOverrides: [
        { holdingId: b, financialYear: 2025, method: "FIFO" },
        { holdingId: a, financialYear: 2026, method: "MinimiseGain" },
        { holdingId: a, financialYear: 2025, method: "LIFO" },
      ],
      carriedForwardLosses: [
        { financialYear: 2025, amount: "1520.5" },
        { financialYear: 2024, amount: 99.1234 },
        { financialYear: 2023, amount: 0 },
      ],
    });
    expect(o.code).toBeUndefined();
    const expected: TaxSettings = {
      portfolioId: p,
      entityType: "Trust",
      defaultMethod: "MinimiseCGT",
      yearMethods: [
        { financialYear: 2025, method: "MaximiseGain" },
        { financialYear: 2026, method: "LIFO" },
      ],
      holdingOverrides: [
        { holdingId: a, financialYear: 2025, method: "LIFO" },
        { holdingId: a, financialYear: 2026, method: "MinimiseGain" },
        { holdingId: b, financialYear: 2025, method: "FIFO" },
      ],
      carriedForwardLosses: [
        { financialYear: 2023, amount: "0" },
        { financialYear: 2024, amount: "99.1234" },
        { financialYear: 2025, amount: "1520.5" },
      ],
    };
    expect(o.data).toEqual(expected);
    expect((await tr.get(key, p)).data).toEqual(expected);
    expect((await tr.list(key)).data).toEqual([expected, { ...defaults(other), entityType: "SMSF" }]);
    // entityType and defaultMethod are the portfolio's own.
    expect((await t.http.get(`/v1/portfolios/${p}`).set("authorization", key)).body.entityType).toBe("Trust");
  });

  it("replaces only the lists given; an empty list clears one", async () => {
    const p = await newPortfolio(t, key);
    await tr.update(key, p, {
      yearMethods: [{ financialYear: 2025, method: "LIFO" }],
      carriedForwardLosses: [{ financialYear: 2025, amount: 10 }],
    });
    const o = await tr.update(key, p, { carriedForwardLosses: [{ financialYear: 2026, amount: 20 }] });
    expect(o.data).toEqual({
      ...defaults(p),
      yearMethods: [{ financialYear: 2025, method: "LIFO" }],
      carriedForwardLosses: [{ financialYear: 2026, amount: "20" }],
    });
    const cleared = await tr.update(key, p, { yearMethods: [], defaultMethod: "LIFO" });
    expect(cleared.data).toEqual({
      ...defaults(p),
      defaultMethod: "LIFO",
      carriedForwardLosses: [{ financialYear: 2026, amount: "20" }],
    });
    // An empty change changes nothing.
    expect((await tr.update(key, p, {})).data).toEqual(cleared.data);
  });

  it("keeps amounts exact to 4 decimals", async () => {
    const p = await newPortfolio(t, key);
    const o = await tr.update(key, p, {
      carriedForwardLosses: [{ financialYear: 2025, amount: "123456789012345.1234" }],
    });
    expect(o.code).toBeUndefined();
    if (tr.name === "REST") expect(o.res.text).toContain('"amount":123456789012345.1234');
    else
      expect(o.res.body.data.updateTaxSettings.carriedForwardLosses).toEqual([
        { financialYear: 2025, amount: "123456789012345.1234" },
      ]);
    const [row] = await t.db.sql<{ amount: string }>("SELECT amount::text AS amount FROM carried_forward_loss");
    expect(row.amount).toBe("123456789012345.1234");
  });

  it("reads the same settings on both transports", async () => {
    const p = await newPortfolio(t, key);
    const h = (await trade(key, { portfolioId: p, tradeType: "Buy", tradeDate: "2024-01-10" })).holdingId;
    const o = await tr.update(key, p, {
      defaultMethod: "MaximiseGain",
      yearMethods: [{ financialYear: 2025, method: "LIFO" }],
      holdingOverrides: [{ holdingId: h, financialYear: 2025, method: "FIFO" }],
      carriedForwardLosses: [{ financialYear: 2025, amount: "12.5" }],
    });
    for (const reader of [rest, graphql]) {
      expect((await reader.get(key, p)).data).toEqual(o.data);
      expect((await reader.list(key)).data).toEqual([o.data]);
    }
  });
});
