import { userClassifiedAfter } from "../../src/modules/holdings/user-classified";
import { assetClassOf, providerClassification } from "../../src/modules/market-data/classification";

/**
 * What the provider's instrument type and the ASX list say of a security, and which fields a
 * user's request makes the user's (docs/data.md §3). The writes are in
 * test/api/market-data-classification.test.ts.
 */
describe("the provider's classification of a security", () => {
  it("holding type and asset class from Yahoo's instrument type; shares split by market", () => {
    expect(providerClassification({ symbol: "CBA", exchange: "ASX" }, "EQUITY")).toEqual({
      holdingType: "Stock",
      assetClass: "Australian Equities",
      sector: "Financials",
      industry: "Banks",
    });
    expect(providerClassification({ symbol: "AAPL", exchange: "NASDAQ" }, "EQUITY")).toEqual({
      holdingType: "Stock",
      assetClass: "International Equities",
      sector: null,
      industry: null,
    });
    expect(providerClassification({ symbol: "VAS", exchange: "ASX" }, "ETF")).toEqual({
      holdingType: "Etf",
      assetClass: "ETFs",
      sector: null,
      industry: null,
    });
    expect(providerClassification({ symbol: "0P0000XYZ", exchange: "LSE" }, "MUTUALFUND")).toMatchObject({
      holdingType: "Fund",
      assetClass: "Managed Funds",
    });
    expect(providerClassification({ symbol: "BTC", exchange: "NASDAQ" }, "CRYPTOCURRENCY")).toMatchObject({
      holdingType: "Crypto",
      assetClass: "Cryptocurrency",
    });
  });

  it("an instrument type it does not map (or none) sets no type nor class; the ASX list still gives the sector", () => {
    for (const type of ["INDEX", "CURRENCY", "FUTURE", "OPTION", undefined])
      expect(assetClassOf(type, "ASX")).toBeNull();
    expect(providerClassification({ symbol: "BHP", exchange: "ASX" }, undefined)).toEqual({
      holdingType: null,
      assetClass: null,
      sector: "Materials",
      industry: "Materials",
    });
  });

  it("the ASX list is read for the ASX only", () => {
    expect(providerClassification({ symbol: "CBA", exchange: "NZX" }, "EQUITY")).toMatchObject({
      sector: null,
      industry: null,
    });
  });
});

describe("the fields a user's request makes theirs", () => {
  const stored = { assetClass: "ETFs", sector: null, industry: null };

  it("a value that changes the field claims it; left out, the field stays as it was", () => {
    expect(userClassifiedAfter([], stored, { sector: "Tech" })).toEqual(["sector"]);
    expect(userClassifiedAfter(["industry"], stored, { assetClass: "Growth" })).toEqual(["assetClass", "industry"]);
  });

  it("the value stored already (a GET answer sent back) claims nothing and drops nothing", () => {
    expect(userClassifiedAfter([], stored, { assetClass: "ETFs", sector: undefined })).toEqual([]);
    expect(userClassifiedAfter(["assetClass"], stored, { assetClass: "ETFs" })).toEqual(["assetClass"]);
  });

  it("an explicit null hands the field back to the provider", () => {
    expect(userClassifiedAfter(["assetClass", "sector"], stored, { sector: null })).toEqual(["assetClass"]);
    expect(userClassifiedAfter(null, stored, { industry: null })).toEqual([]);
  });

  it("stays a set: no duplicates, sorted", () => {
    expect(userClassifiedAfter(["sector", "sector"], {}, { sector: "A", holdingType: "Etf" })).toEqual([
      "holdingType",
      "sector",
    ]);
  });
});
