import fs from "node:fs";
import path from "node:path";
import { ProviderError } from "../../src/modules/market-data/providers/provider";
import { parseRbaF11 } from "../../src/modules/market-data/providers/rba";

/**
 * docs/data.md §1.3: a body that fails validation is an error ("invalid"), never rates. The RBA's
 * CDN answers scripted clients with an HTML "Access Denied" page; a proxy may pass one on with a 200.
 */
const FIXTURE = path.join(__dirname, "../fixtures/providers/rba");

describe("a body that is not F11.1", () => {
  const invalid = (text: string) => {
    try {
      parseRbaF11(text);
    } catch (error) {
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe("invalid");
      return (error as ProviderError).message;
    }
    throw new Error("parsed without complaint");
  };

  it("an HTML page", () => {
    const html = fs.readFileSync(path.join(FIXTURE, "access-denied.html"), "utf8");
    expect(invalid(html)).toMatch(/^The RBA F11\.1 file is not as expected: /);
  });

  it("an empty body, or text with no metadata rows", () => {
    expect(invalid("")).toBe("The RBA F11.1 file is not as expected: no Units row followed by a Series ID row");
    expect(invalid("02-Jan-2024,0.6812\n")).toMatch(/no Units row/);
  });

  it("a Units row but no Series ID row", () => {
    expect(invalid("Units,USD\n02-Jan-2024,0.6812\n")).toMatch(/no Units row followed by a Series ID row/);
  });

  it("no column in a currency", () => {
    expect(invalid("Units,Index,SDR\nSeries ID,FXRTWI,FXRSDR\n02-Jan-2024,61.70,0.5070\n")).toBe(
      "The RBA F11.1 file is not as expected: no column is in a currency",
    );
  });

  it("a data row not dated DD-Mon-YYYY, or on a day that does not exist", () => {
    const head = "Units,USD\nSeries ID,FXRUSD\n";
    expect(invalid(head + "2024-01-02,0.6812\n")).toBe(
      'The RBA F11.1 file is not as expected: a data row is dated "2024-01-02", not DD-Mon-YYYY',
    );
    expect(invalid(head + "31-Feb-2024,0.6812\n")).toMatch(/dated "31-Feb-2024"/);
    expect(invalid(head + "02-JAN-2024,0.6812\n")).toMatch(/dated "02-JAN-2024"/);
  });

  it("a rate that is not a positive number", () => {
    const head = "Units,USD\nSeries ID,FXRUSD\n";
    expect(invalid(head + "02-Jan-2024,n/a\n")).toBe(
      'The RBA F11.1 file is not as expected: A$1 in USD on 2024-01-02 is "n/a", not a positive number',
    );
    expect(invalid(head + "02-Jan-2024,-0.6812\n")).toMatch(/"-0.6812", not a positive number/);
    expect(invalid(head + "02-Jan-2024,0.0000\n")).toMatch(/"0.0000", not a positive number/);
  });

  it("CSV that does not parse", () => {
    expect(invalid('Units,USD\nSeries ID,FXRUSD\n02-Jan-2024,"0.6812\n')).toMatch(/it is not CSV/);
  });
});
