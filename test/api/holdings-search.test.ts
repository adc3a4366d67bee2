import { expectInvalid, expectOk } from "../support/outcomes";
import { type Security, holdingsApi } from "./holdings.transports";
import { useTestApp } from "../support/app";

/**
 * Securities search: exact symbol, then prefix, then name words.
 * (Split from holdings.test.ts by story; the transports and setup functions are in ./holdings.transports.ts.)
 */

const t = useTestApp();
let key: string;
beforeEach(async () => {
  key = await t.newAccount();
});
const { TRANSPORTS } = holdingsApi(t, () => key);

describe.each(TRANSPORTS)("holdings over $name", (tr) => {
  describe("securities search: exact symbol, then prefix, then name words", () => {
    const ids = (list: Security[]) => list.map((s) => `${s.symbol}.${s.exchange}`);

    it("finds CBA by words of its name, and answers the security master's fields", async () => {
      const found = expectOk(await tr.search(key, { q: "commonwealth bank" }), 200);
      expect(found).toEqual([
        {
          symbol: "CBA",
          exchange: "ASX",
          name: "Commonwealth Bank of Australia",
          currencyCode: "AUD",
          securityType: "Stock",
        },
      ]);
      expect(ids(expectOk(await tr.search(key, { q: "Commonwealth" })))).toEqual(["CBA.ASX"]);
    });

    it("puts the exact symbol first, then symbol prefixes (shorter first), case-insensitively", async () => {
      expect(ids(expectOk(await tr.search(key, { q: "cb" }))).slice(0, 2)).toEqual(["CB.NYSE", "CBA.ASX"]);
      expect(ids(expectOk(await tr.search(key, { q: "CBA" })))[0]).toBe("CBA.ASX");
      const v = expectOk(await tr.search(key, { q: "v" }));
      expect(ids(v)[0]).toBe("V.NYSE");
      const lengths = v
        .slice(1)
        .filter((s) => s.symbol.startsWith("V"))
        .map((s) => s.symbol.length);
      expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    });

    it("ranks names whose words start with the query before names merely containing it", async () => {
      const bank = expectOk(await tr.search(key, { q: "bank", limit: 100 }));
      const names = bank.map((s) => s.name);
      const wordStart = names.filter((n) => /\bbank/i.test(n));
      expect(names).toContain("Commonwealth Bank of Australia");
      expect(names).toContain("Medibank Private Limited");
      expect(names.slice(0, wordStart.length)).toEqual(wordStart);
      expect(names.indexOf("Medibank Private Limited")).toBeGreaterThanOrEqual(wordStart.length);
    });

    it("filters by exchange and honours limit", async () => {
      expect(ids(expectOk(await tr.search(key, { q: "CB", exchange: "asx" })))[0]).toBe("CBA.ASX");
      expect(ids(expectOk(await tr.search(key, { q: "CB", exchange: "ASX" })))).not.toContain("CB.NYSE");
      const three = expectOk(await tr.search(key, { q: "V", limit: 3 }));
      expect(three).toHaveLength(3);
      expect(ids(three)[0]).toBe("V.NYSE");
      expect(expectOk(await tr.search(key, { q: "V", limit: 1 }))).toHaveLength(1);
    });

    it("treats LIKE and regex characters as plain text", async () => {
      for (const q of ["%", "_", "(", "\\", ".*", "[a"]) {
        const found = expectOk(await tr.search(key, { q }));
        for (const s of found)
          expect({
            q,
            match: s.name.toLowerCase().includes(q.toLowerCase()) || s.symbol.startsWith(q.toUpperCase()),
          }).toEqual({ q, match: true });
      }
      // "(" is in names such as "... (Hedged) ETF"; "%" and "_" are in none.
      expect(expectOk(await tr.search(key, { q: "(" })).length).toBeGreaterThan(0);
      expect(expectOk(await tr.search(key, { q: "%" }))).toEqual([]);
      expect(expectOk(await tr.search(key, { q: "_" }))).toEqual([]);
    });

    it("rejects an empty or over-long q and a bad limit, naming them", async () => {
      expectInvalid(await tr.search(key, { q: "" }), ["q"]);
      expectInvalid(await tr.search(key, { q: "   " }), ["q"]);
      expectInvalid(await tr.search(key, { q: "x".repeat(51) }), ["q"]);
      expectInvalid(await tr.search(key, { q: "CBA", limit: 0 }), ["limit"]);
      expectInvalid(await tr.search(key, { q: "CBA", limit: 101 }), ["limit"]);
      expectInvalid(await tr.search(key, { q: "CBA", exchange: "A S X" }), ["exchange"]);
    });
  });
});
