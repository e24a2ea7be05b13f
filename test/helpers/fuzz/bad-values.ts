import fc from 'fast-check';

/** Any UTF-16 code unit, lone surrogates included (fast-check's own units only make whole code points). */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));

/** Text that has broken services before: lone surrogates, NUL, bidi controls, huge, odd scripts. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\ud800',
    'a\udfffb',
    'x\u0000y',
    '\u0000',
    '\u202eevil',
    '\ufeffbom',
    '\u200b',
    'ﷺ'.repeat(40),
    '🙂'.repeat(300),
    '\\',
    '"',
    "'; DROP TABLE products;--",
    '%00',
    '../../etc/passwd',
    '${7*7}',
    '<script>alert(1)</script>',
    ' ',
    '',
    '\n\r\t',
    'null',
    'undefined',
    'NaN',
    '-0',
    '1e309',
    '٣٤٥',
    'أحمر',
    'a'.repeat(70_000),
  ),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 5000 }),
);

/** JSON text put into a body as it is (a value too deep for JSON.stringify to write). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A value nested `depth` levels deep, arrays or objects, as raw text. */
export const deepJson = fc
  .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => new RawJson(arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

/** JSON.stringify that writes RawJson parts verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A wrong value for any field: another type, an odd string, an extreme number, a deep value. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddString },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(oddString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => `x${i}`)) },
  { weight: 1, arbitrary: deepJson },
);

/** Changes one thing about a (mostly valid) JSON value. */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  if (value === null || typeof value !== 'object') return badValue;
  if (Array.isArray(value)) {
    if (value.length === 0)
      return fc.oneof(
        badValue,
        fc.constant([{}]),
        badValue.map((v) => [v]),
      );
    return fc.integer({ min: 0, max: value.length - 1 }).chain((i) => mutate(value[i]).map((v) => Object.assign([...value], { [i]: v })));
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  const options: fc.Arbitrary<unknown>[] = [fc.tuple(oddString, badValue).map(([k, v]) => ({ ...obj, [k]: v })), badValue];
  if (keys.length) {
    options.push(fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(obj).filter(([key]) => key !== k))));
    options.push(fc.constantFrom(...keys).chain((k) => mutate(obj[k]).map((v) => ({ ...obj, [k]: v }))));
    options.push(fc.constantFrom(...keys).chain((k) => mutate(obj[k]).map((v) => ({ ...obj, [k]: v }))));
  }
  return fc.oneof(...options);
}

/** Cursors a client could forge: not base64, not JSON, wrong fields, dates JavaScript accepts and Postgres refuses. */
export const badCursor: fc.Arbitrary<string> = fc.oneof(
  oddString,
  fc
    .constantFrom(
      { at: '1', id: 'x' },
      { at: '275760-09-13T00:00:00Z', id: 'x' },
      { at: '2020-02-30T00:00:00Z', id: 'x' },
      { created_at: '0', id: 'x' },
      { created_at: '2020-01-01T00:00:00.000Z', id: 5 },
      { after: { $gt: '' } },
      { after: 'x\u0000' },
      { at: '2020-01-01T00:00:00Z', id: '\ud800' },
      { after: 'a'.repeat(10_000) },
      [],
      null,
      'x',
    )
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
);

/** Path segments: unknown ids, percent-encoded junk (invalid UTF-8, NUL), very long ones. */
export const badPathId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%ED%A0%80', '%00', '%FF%FE', 'x%00y', '..', '%2E%2E%2F%2E%2E', '%F0%9F%99%82', 'key_does_not_exist', ' ', '%20', '%25', 'a'.repeat(5000)),
  fc
    .string({ unit: 'binary', maxLength: 200 })
    .filter((s) => s.length > 0)
    .map(encodeURIComponent),
  fc.stringMatching(/^[a-z]{3}_[a-z0-9]{16}$/),
);
