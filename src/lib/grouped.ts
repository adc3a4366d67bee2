/**
 * `items` under their keys, in the items' order, every one of `keys` present (empty when it has
 * none) and items of other keys left out: the answer of a DataLoader's batch.
 */
export function groupedBy<K, T>(keys: readonly K[], items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const by = new Map<K, T[]>(keys.map((key) => [key, []]));
  for (const item of items) by.get(keyOf(item))?.push(item);
  return by;
}
