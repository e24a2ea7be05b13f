/** One row of the attribute mapping (spec 2.6 AttributeMappingItem). */
export interface MappingItem {
  raw_name: string;
  canonical_name: string;
  unit?: string | null;
  value_map?: Record<string, string>;
  facet?: boolean;
}

export type AttributeValue = string | number | boolean | string[];

export interface MappedAttribute {
  name: string;
  value: AttributeValue;
  facet: boolean;
  unit: string | null;
}

/** Index of a mapping by raw name, case-insensitive, built once per batch. */
export function mappingIndex(items: MappingItem[]): Map<string, MappingItem> {
  return new Map(items.map((i) => [i.raw_name.toLowerCase(), i]));
}

/**
 * Applies the mapping to raw attributes: canonical names, normalized values (value_map, matched
 * case-insensitively), facet flags. Unmapped attributes keep their raw name and are not facets.
 */
export function applyMapping(raw: Record<string, AttributeValue> | undefined, index: Map<string, MappingItem>): MappedAttribute[] {
  if (!raw) return [];
  const out: MappedAttribute[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const item = index.get(name.toLowerCase());
    if (!item) {
      out.push({ name, value, facet: false, unit: null });
      continue;
    }
    out.push({ name: item.canonical_name, value: mapValue(value, item.value_map), facet: item.facet ?? true, unit: item.unit ?? null });
  }
  return out;
}

function mapValue(value: AttributeValue, valueMap: Record<string, string> | undefined): AttributeValue {
  if (!valueMap) return value;
  // Own entries only: a value such as "constructor" or "__proto__" is the store's word, not the object's property.
  const lookup = (v: string) => own(valueMap, v) ?? own(valueMap, v.toLowerCase()) ?? findInsensitive(valueMap, v) ?? v;
  if (typeof value === 'string') return lookup(value);
  if (Array.isArray(value)) return [...new Set(value.map(lookup))];
  return value;
}

const own = (map: Record<string, string>, key: string): string | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);

function findInsensitive(map: Record<string, string>, v: string): string | undefined {
  const lower = v.trim().toLowerCase();
  for (const [k, mapped] of Object.entries(map)) if (k.trim().toLowerCase() === lower) return mapped;
  return undefined;
}
