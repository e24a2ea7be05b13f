import { AppError } from '../platform/errors.js';
import { isDecimalNumber } from '../engines/lexical/port.js';

/** One condition of a `filters` string. */
export type Clause =
  | { kind: 'term'; name: string; value: string }
  | { kind: 'range'; name: string; gte: number; lte: number }
  | { kind: 'compare'; name: string; op: '<' | '<=' | '>' | '>=' | '='; value: number };

const TOKEN = /\s*(?:(\()|(\))|(AND|OR|NOT|TO)(?=[\s()]|$)|("(?:[^"\\]|\\.)*")|(<=|>=|!=|<|>|=|:)|([^\s()"<>=!:]+))/y;

/**
 * The documented subset of Algolia's `filters` syntax: clauses joined by AND, each a condition or
 * a parenthesised OR of `attribute:value` terms; a condition is `attribute:value` (value quoted
 * when it has spaces), `attribute:a TO b`, or `attribute <op> number` with <, <=, >, >=, =.
 * Returns the AND groups, each a list of ORed clauses. NOT, nesting and `!=` are 400.
 */
export function parseFilterString(input: string, field = 'filters'): Clause[][] {
  const bad = (message: string) => badFilter(field, message);
  const tokens = lex(input, bad);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const groups: Clause[][] = [];
  for (;;) {
    if (peek() === '(') {
      next();
      const group = [clause()];
      while (peek() === 'OR') {
        next();
        group.push(clause());
      }
      if (next() !== ')') throw bad('a parenthesis is not closed');
      groups.push(group);
    } else {
      groups.push([clause()]);
    }
    if (i >= tokens.length) return groups;
    const op = next();
    if (op === 'OR') throw bad('OR is only supported inside parentheses: (brand:A OR brand:B)');
    if (op !== 'AND') throw bad(`expected AND, found "${op}"`);
  }

  function clause(): Clause {
    const name = next();
    if (name === 'NOT') throw bad('NOT is not supported');
    if (name === undefined || name === '(' || name === ')' || name === 'AND' || name === 'OR') throw bad(`expected an attribute, found "${name ?? 'the end'}"`);
    const op = next();
    const value = next();
    if (value === undefined) throw bad(`"${name}" has no value`);
    if (op === ':') {
      if (peek() === 'TO') {
        next();
        return { kind: 'range', name, gte: number(value, bad), lte: number(next(), bad) };
      }
      return { kind: 'term', name, value: unquote(value) };
    }
    if (op === '<' || op === '<=' || op === '>' || op === '>=' || op === '=') return { kind: 'compare', name, op, value: number(value, bad) };
    throw bad(op === '!=' ? '!= is not supported' : `expected ":" or a comparison after "${name}"`);
  }
}

function lex(input: string, bad: (message: string) => AppError): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < input.length) {
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(input);
    if (!m) {
      if (input.slice(start).trim() === '') break;
      throw bad(`cannot read "${input.slice(start, start + 20)}"`);
    }
    const token = m.slice(1).find((g) => g !== undefined);
    if (token !== undefined) out.push(token);
  }
  return out;
}

function unquote(v: string): string {
  return v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

function number(v: string | undefined, bad: (message: string) => AppError): number {
  // Decimal writing only: Number() read `0x10` as 16.
  if (v === undefined || !isDecimalNumber(unquote(v))) throw bad(`"${v ?? ''}" is not a number`);
  return Number(unquote(v));
}

/** 400 unsupported_filter at the parameter (`requests.<i>.filters`). */
function badFilter(field: string, message: string): AppError {
  return new AppError('unsupported_filter', 400, `${field}: ${message}`, [{ in: 'body', field, code: 'unsupported_filter', message }]);
}
