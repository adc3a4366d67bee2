import { byFirstSegment, templateMatcher } from "../../src/http/path-groups";

/** How the 405/415 guard and the metric route labels find a request's route template. */
describe("path templates by first segment", () => {
  const templates = ["/portfolios", "/portfolios/:portfolioId/holdings", "/trades/:tradeId", "/:anything/export"];
  const candidates = byFirstSegment(templates, (t) => t);

  it("a path gets its own segment's templates, case-insensitively, then those that start with a parameter", () => {
    expect(candidates("/Portfolios/7/holdings")).toEqual([
      "/portfolios",
      "/portfolios/:portfolioId/holdings",
      "/:anything/export",
    ]);
    expect(candidates("/trades/3")).toEqual(["/trades/:tradeId", "/:anything/export"]);
  });

  it("a segment no template names gets only the parameter-first ones", () => {
    expect(candidates("/holdings/1")).toEqual(["/:anything/export"]);
    expect(byFirstSegment(["/trades"], (t) => t)("/holdings")).toEqual([]);
    expect(byFirstSegment(["/trades"], (t) => t)("/")).toEqual([]);
  });
});

describe("a path against a template, as Express's router matches it", () => {
  const matches = templateMatcher("/portfolios/:portfolioId/holdings");
  it.each([
    ["/portfolios/7/holdings", true],
    ["/PORTFOLIOS/7/Holdings", true],
    ["/portfolios/7/holdings/", true],
    ["/portfolios/7/holdings/extra", false],
    ["/portfolios/holdings", false],
  ])("%s: %s", (path, expected) => {
    expect(matches(path)).toBe(expected);
  });
});
