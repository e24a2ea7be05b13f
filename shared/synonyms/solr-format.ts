import { splitEscaped, splitList, stripBom, type ExportRule, type LineItem, type ParsedFile } from './formats.js';

/**
 * Solr synonyms layout (SynonymFilterFactory, format=solr):
 * - blank lines and lines starting with `#` are ignored;
 * - `a, b, c` is one equivalent rule;
 * - `a, b => c, d` is one one_way rule per left-hand term (input a -> outputs c, d; input b -> c, d).
 *   Solr REPLACES a and b by c and d; here the input keeps matching itself and the outputs are
 *   searched as well;
 * - `\` escapes the next character (`\,` `\=>` `\#` `\\`); terms are trimmed; multi-word terms are fine.
 * Extension, ignored by Solr: a line `#@ {json}` holding any of set_key, locale, enabled and conditions
 * applies them to the rule(s) of the next rule line. Exports write one when a rule is not all defaults.
 */
const DIRECTIVE_KEYS = ['set_key', 'locale', 'enabled', 'conditions'];

export function formatSolr(rules: ExportRule[]): string {
  const lines = [
    '# Synonyms in Solr format: "a, b, c" = equivalent; "a => b, c" = one_way (a also searches b and c).',
    '# "#@ {...}" lines (ignored by Solr) carry set_key, locale, enabled and conditions for the next rule.',
  ];
  for (const r of rules) {
    const extra: Record<string, unknown> = {};
    if (r.set_key && r.set_key !== 'default') extra.set_key = r.set_key;
    if (r.locale) extra.locale = r.locale;
    if (r.enabled === false) extra.enabled = false;
    if (r.conditions) extra.conditions = r.conditions;
    if (Object.keys(extra).length) lines.push(`#@ ${JSON.stringify(extra)}`);
    const list = (xs: string[] | undefined) => (xs ?? []).map(escapeTerm).join(', ');
    lines.push(r.kind === 'equivalent' ? list(r.terms) : `${escapeTerm(r.input ?? '')} => ${list(r.outputs)}`);
  }
  return lines.join('\n') + '\n';
}

function escapeTerm(term: string): string {
  return term.replace(/[\\,=#]/g, (c) => `\\${c}`);
}

export function parseSolr(raw: string): ParsedFile {
  const items: LineItem[] = [];
  const errors: ParsedFile['errors'] = [];
  let directive = null as { line: number; value: Record<string, unknown> | null } | null;
  for (const [i, text] of stripBom(raw)
    .split(/\r\n|\n|\r/)
    .entries()) {
    const line = i + 1;
    const trimmed = text.trim();
    if (!trimmed) continue;
    if (trimmed.startsWith('#@')) {
      if (directive) errors.push({ line: directive.line, message: 'a #@ line must be followed by a rule line' });
      directive = { line, value: readDirective(trimmed.slice(2), line, errors) };
      continue;
    }
    if (trimmed.startsWith('#')) continue;
    const extra = directive;
    directive = null;
    if (extra && !extra.value) {
      errors.push({ line, message: `not applied: its #@ line ${extra.line} is invalid` });
      continue;
    }
    const sides = splitEscaped(trimmed, '=>');
    if (sides.length > 2) {
      errors.push({ line, message: 'more than one "=>" on a line' });
      continue;
    }
    const base = extra?.value ?? {};
    if (sides.length === 1) {
      items.push({ line, value: { ...base, kind: 'equivalent', terms: splitList(sides[0], ',') } });
      continue;
    }
    const inputs = splitList(sides[0], ',');
    const outputs = splitList(sides[1], ',');
    if (!inputs.length) items.push({ line, value: { ...base, kind: 'one_way', input: null, outputs } });
    for (const input of inputs) items.push({ line, value: { ...base, kind: 'one_way', input, outputs } });
  }
  if (directive) errors.push({ line: directive.line, message: 'a #@ line must be followed by a rule line' });
  return { items, errors };
}

function readDirective(json: string, line: number, errors: ParsedFile['errors']): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    errors.push({ line, message: '#@ must be followed by a JSON object' });
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    errors.push({ line, message: '#@ must be followed by a JSON object' });
    return null;
  }
  const unknown = Object.keys(value).filter((k) => !DIRECTIVE_KEYS.includes(k));
  if (unknown.length) {
    errors.push({ line, message: `#@ may hold ${DIRECTIVE_KEYS.join(', ')} (not ${unknown.join(', ')})` });
    return null;
  }
  return value as Record<string, unknown>;
}
