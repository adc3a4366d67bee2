import { match } from "path-to-regexp";

/** Whether a path matches a route template as Express's router matches it (case-insensitive, optional trailing slash). */
export function templateMatcher(template: string): (path: string) => boolean {
  const test = match(template, { decode: false, end: true, sensitive: false, trailing: true });
  return (path) => test(path) !== false;
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
