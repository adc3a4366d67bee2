/**
 * The abusive GraphQL operations of OWASP API4 (unrestricted resource consumption) that once took
 * the service down, shared by B14 and test/api/graphql-limits.test.ts:
 * 1. many aliases of a nested list: 1,000 × portfolios{holdings{trades}} ran 114 s and 3 GB;
 * 2. many aliased writes in one request: 1,000 × createPortfolio, one rate-limit token;
 * 3. a long chain of fragments: 3,000 of them overflowed the stack (500) before any key check.
 */

export function aliasedNestedLists(n: number): string {
  const fields = Array.from({ length: n }, (_, i) => `a${i}: portfolios { id holdings { id trades { id } } }`);
  return `query Abuse { ${fields.join(" ")} }`;
}

export function aliasedCreates(n: number, prefix = "Abuse"): string {
  const fields = Array.from(
    { length: n },
    (_, i) => `m${i}: createPortfolio(input: { name: "${prefix} ${i}" }) { id }`,
  );
  return `mutation Abuse { ${fields.join(" ")} }`;
}

/** `query { ...F0 }` with F0 spreading F1 ... and the last one selecting `last`. */
export function fragmentChain(n: number, last = "__typename"): string {
  const parts = ["query Chain { ...F0 }"];
  for (let i = 0; i < n; i++) parts.push(`fragment F${i} on Query { ${i === n - 1 ? last : `...F${i + 1}`} }`);
  return parts.join("\n");
}
