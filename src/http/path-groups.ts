import { match } from "path-to-regexp";

/** Whether a path matches a route template as Express's router matches it (case-insensitive, optional trailing slash). */
export function templateMatcher(template: string): (path: string) => boolean {
  const test = templateParams(template);
  return (path) => test(path) !== undefined;
}

/**
 * A route template's matcher, as Express's router matches (case-insensitive, optional trailing
 * slash): the path's parameters as they stand in the path (still percent-encoded: decodeParams
 * decodes them), or undefined when the path does not match.
 */
export function templateParams(template: string): (path: string) => Record<string, string> | undefined {
  const test = match(template, { decode: false, end: true, sensitive: false, trailing: true });
  return (path) => {
    const found = test(path);
    return found ? (found.params as Record<string, string>) : undefined;
  };
}

/**
 * Path parameters decoded as Express's router decodes them: percent-decoded, and a malformed
 * escape is its error (400, "Failed to decode param '%E0'").
 */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!value.includes("%")) params[name] = value;
    else
      try {
        params[name] = decodeURIComponent(value);
      } catch (error) {
        if (!(error instanceof URIError)) throw error;
        throw Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
      }
  }
  return params;
}

/**
 * Path templates grouped by their first segment (case-insensitive), so a request path is tested
 * against the few templates that can match it, not a whole table. A template whose first segment
 * is a parameter (`/:id/...`) can match any path: it is among every lookup's candidates, after the
 * path's own group.
 */
export function byFirstSegment<T>(items: Iterable<T>, pathOf: (item: T) => string): (path: string) => T[] {
  const groups = new Map<string, T[]>();
  const anyFirst: T[] = [];
  for (const item of items) {
    const first = firstSegment(pathOf(item));
    if (/^[:*{(]/.test(first)) anyFirst.push(item);
    else groups.set(first, [...(groups.get(first) ?? []), item]);
  }
  return (path) => {
    const group = groups.get(firstSegment(path));
    if (!group) return anyFirst;
    return anyFirst.length ? [...group, ...anyFirst] : group;
  };
}

const firstSegment = (path: string): string => (path.split("/", 2)[1] ?? "").toLowerCase();
