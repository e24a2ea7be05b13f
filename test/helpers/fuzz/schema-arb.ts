import fc from 'fast-check';

/** A JSON Schema node as the served OpenAPI document writes them (zod's draft 2020-12 output). */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

/**
 * Values that a schema accepts, or nearly: the fuzzer starts from these and breaks one part,
 * so most requests get past the outer checks and reach the code behind them.
 */
export function validArb(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => validArb(b, depth + 1)));
  if (s.allOf?.length) return validArb(s.allOf[0], depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => validArb({ ...s, type }, depth + 1)));
  switch (types[0]) {
    case 'object':
      return objectArb(s, depth);
    case 'array':
      return fc.array(validArb(s.items, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)) });
    case 'string':
      return stringArb(s);
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1000, -1e6), max: Math.min(s.maximum ?? 1000, 1e6) });
    case 'number':
      return fc.double({ min: s.minimum ?? s.exclusiveMinimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  if (Object.keys(props).length === 0) {
    if (typeof s.additionalProperties === 'object') {
      const keyArb = s.propertyNames ? stringArb(s.propertyNames) : fc.string({ maxLength: 8 });
      return fc.dictionary(keyArb, validArb(s.additionalProperties, depth + 1), { maxKeys: 3 });
    }
    return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  }
  const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validArb(v, depth + 1)]));
  return fc.record(model, { requiredKeys: s.required ?? [] });
}

const DATE_TIME = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'date-time') return DATE_TIME;
  const max = Math.min(s.maxLength ?? 24, 24);
  const min = Math.min(s.minLength ?? 0, max);
  if (s.pattern) {
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? Infinity) && v.length >= (s.minLength ?? 0));
  }
  return fc.string({ minLength: min, maxLength: max });
}
