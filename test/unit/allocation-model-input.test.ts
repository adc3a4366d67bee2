import { SaveAllocationModelInput } from "../../src/modules/allocation-models/allocation-models.schemas";
import { DomainError } from "../../src/lib/domain-errors";
import { parseInput } from "../../src/lib/validation";

const valid = {
  name: "Balanced",
  dimension: "assetClass",
  buckets: [
    { label: "Australian shares", targetPct: 60, tolerancePct: 5 },
    { label: "Bonds", targetPct: "40" },
  ],
};

function errorsOf(input: unknown): { path: string; message: string }[] {
  try {
    parseInput(SaveAllocationModelInput, input);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("VALIDATION_FAILED");
    return (error as DomainError).errors ?? [];
  }
  throw new Error("expected a validation error");
}

describe("allocation model input rules", () => {
  it("accepts a valid model, with numbers or decimal strings, and defaults tolerance and sort order", () => {
    const parsed = parseInput(SaveAllocationModelInput, valid);
    expect(parsed.buckets[0].targetPct.toFixed()).toBe("60");
    expect(parsed.buckets[1].targetPct.toFixed()).toBe("40");
    expect(parsed.buckets[1].tolerancePct).toBeUndefined();
  });

  it("targets must add up to 100 within ±0.01", () => {
    const withTargets = (a: string, b: string) => ({
      ...valid,
      buckets: [
        { label: "A", targetPct: a },
        { label: "B", targetPct: b },
      ],
    });
    expect(() => parseInput(SaveAllocationModelInput, withTargets("60.005", "40"))).not.toThrow();
    expect(() => parseInput(SaveAllocationModelInput, withTargets("59.995", "40"))).not.toThrow();
    expect(() => parseInput(SaveAllocationModelInput, withTargets("60.01", "40"))).not.toThrow();
    expect(errorsOf(withTargets("60.0101", "40"))).toEqual([
      { path: "buckets", message: expect.stringContaining("100.0101") },
    ]);
    expect(errorsOf(withTargets("59.98", "40"))).toEqual([
      { path: "buckets", message: expect.stringContaining("99.98") },
    ]);
  });

  it("percentages are in [0, 100] with at most 4 decimals; strings must be plain decimals", () => {
    const bucket = (targetPct: unknown, tolerancePct?: unknown) => ({
      ...valid,
      buckets: [{ label: "A", targetPct, tolerancePct }],
    });
    expect(errorsOf(bucket(-1)).map((e) => e.path)).toEqual(["buckets[0].targetPct"]);
    expect(errorsOf(bucket(100.5)).map((e) => e.path)).toEqual(["buckets[0].targetPct"]);
    expect(errorsOf(bucket("99.99999")).map((e) => e.message)).toEqual(["must have at most 4 decimal places"]);
    expect(errorsOf(bucket("1e2")).map((e) => e.path)).toEqual(["buckets[0].targetPct"]);
    expect(errorsOf(bucket("abc")).map((e) => e.path)).toEqual(["buckets[0].targetPct"]);
    expect(errorsOf(bucket(100, 101)).map((e) => e.path)).toEqual(["buckets[0].tolerancePct"]);
  });

  it("labels are non-empty and unique in the model, ignoring case", () => {
    const errors = errorsOf({
      ...valid,
      buckets: [
        { label: "Cash", targetPct: 50 },
        { label: "cash", targetPct: 25 },
        { label: " ", targetPct: 25 },
      ],
    });
    expect(errors.map((e) => e.path).sort()).toEqual(["buckets[1].label", "buckets[2].label"]);
    const dup = errorsOf({
      ...valid,
      buckets: [
        { label: "Cash", targetPct: 50 },
        { label: "cash", targetPct: 50 },
      ],
    });
    expect(dup).toEqual([{ path: "buckets[1].label", message: expect.stringContaining("buckets[0]") }]);
  });

  it("a holding model labels its buckets SYMBOL.EXCHANGE, or Cash", () => {
    const holding = (label: string) => ({ ...valid, dimension: "holding", buckets: [{ label, targetPct: 100 }] });
    for (const ok of ["CBA.ASX", "BRK.B.NYSE", "Cash"])
      expect(() => parseInput(SaveAllocationModelInput, holding(ok))).not.toThrow();
    for (const bad of ["CBA", "CBA.", "Commonwealth Bank"])
      expect(errorsOf(holding(bad)).map((e) => e.path)).toEqual(["buckets[0].label"]);
  });

  it("dimension is one of the documented set or customGroup:{id}", () => {
    for (const ok of ["assetClass", "sector", "currency", "exchange", "holdingType", "customGroup:12"]) {
      expect(() => parseInput(SaveAllocationModelInput, { ...valid, dimension: ok })).not.toThrow();
    }
    for (const bad of ["Sector", "customGroup:", "customGroup:0", "customGroup:x", ""]) {
      expect(errorsOf({ ...valid, dimension: bad }).map((e) => e.path)).toEqual(["dimension"]);
    }
  });

  it("holds 1 to 500 buckets and a name of 1 to 200 characters", () => {
    expect(errorsOf({ ...valid, buckets: [] }).map((e) => e.path)).toEqual(["buckets"]);
    const many = Array.from({ length: 501 }, (_, i) => ({ label: `B${i}`, targetPct: 0 }));
    expect(errorsOf({ ...valid, buckets: many }).map((e) => e.path)).toEqual(["buckets"]);
    const max = Array.from({ length: 500 }, (_, i) => ({ label: `B${i}`, targetPct: "0.2" }));
    expect(() => parseInput(SaveAllocationModelInput, { ...valid, buckets: max })).not.toThrow();
    expect(errorsOf({ ...valid, name: "" }).map((e) => e.path)).toEqual(["name"]);
    expect(errorsOf({ ...valid, name: "x".repeat(201) }).map((e) => e.path)).toEqual(["name"]);
  });

  it("lists every bad path at once", () => {
    const errors = errorsOf({ name: "", dimension: "nope", buckets: [{ label: "", targetPct: 200, sortOrder: 1.5 }] });
    expect(errors.map((e) => e.path).sort()).toEqual([
      "buckets[0].label",
      "buckets[0].sortOrder",
      "buckets[0].targetPct",
      "dimension",
      "name",
    ]);
  });

  it("runs the rules between buckets in the same pass as the fields' own checks (issue 7)", () => {
    const errors = errorsOf({
      ...valid,
      name: "",
      buckets: [
        { label: "Cash", targetPct: 50, tolerancePct: 101 },
        { label: "cash", targetPct: 30 },
      ],
    });
    expect(errors.map((e) => e.path).sort()).toEqual([
      "buckets",
      "buckets[0].tolerancePct",
      "buckets[1].label",
      "name",
    ]);
    // A target already refused leaves the sum out: it would only repeat that error.
    const badTarget = errorsOf({
      ...valid,
      buckets: [
        { label: "A", targetPct: "abc" },
        { label: "a", targetPct: 30 },
      ],
    });
    expect(badTarget.map((e) => e.path).sort()).toEqual(["buckets[0].targetPct", "buckets[1].label"]);
    // A holding model checks its labels even when another field failed.
    expect(
      errorsOf({ ...valid, name: "", dimension: "holding", buckets: [{ label: "CBA", targetPct: 100 }] })
        .map((e) => e.path)
        .sort(),
    ).toEqual(["buckets[0].label", "name"]);
  });

  it("refuses unknown fields at their full path, suggesting the field meant", () => {
    expect(errorsOf({ ...valid, buckets: [{ label: "A", targetPct: 100, tolerancePc: 1 }], notse: "x" })).toEqual([
      { path: "buckets[0].tolerancePc", message: "is not a known field; did you mean tolerancePct?" },
      { path: "notse", message: "is not a known field; did you mean notes?" },
    ]);
  });
});
