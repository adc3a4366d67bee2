/**
 * Every object field name a zod schema knows, at any depth (through arrays, optionals, pipes,
 * unions): the fuzz adds them to bodies with hostile values, so optional fields a valid body
 * leaves out (notes, parcels, exchangeRate...) are fuzzed too.
 */
export function schemaKeys(schema: unknown, out = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || seen.has(schema)) return out;
  seen.add(schema);
  if (def.type === "object" && def.shape) {
    for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) {
      out.add(name);
      schemaKeys(field, out, seen);
    }
  }
  const children = [def.element, def.innerType, def.in, def.out, def.valueType, ...((def.options as unknown[]) ?? [])];
  for (const child of children) if (child) schemaKeys(child, out, seen);
  return out;
}
