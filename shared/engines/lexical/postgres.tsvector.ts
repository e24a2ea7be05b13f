import type { Knex } from 'knex';
import type { SearchDoc } from './port.js';

/**
 * A document's weighted tsvector built in the indexing process as a tsvector literal, equal to
 * what TSV_SQL computes in Postgres (five `to_tsvector('simple', ...)` with weights, concatenated).
 *
 * Postgres's default parser is not re-implemented: a text is split at spaces into chunks, and each
 * chunk's parse (its lexemes and their positions) is Postgres's own, asked once per distinct chunk
 * and held. Only lower-case ASCII words and digit strings are read here (always one lexeme, the
 * chunk itself, under the `simple` configuration). The parser never joins tokens across a space
 * but in an HTML tag ("<a href=x>"), so a document holding `<` is left to TSV_SQL (null literal),
 * as is one near the tsvector's limits (positions up to 16,383, 256 per lexeme). Positions run on
 * from field to field as `||` shifts them. Saves Postgres parsing every word of every document at
 * every write (test/engines/postgres-tsvector.test.ts compares with to_tsvector).
 */

/** Weighted text fields in TSV_SQL's order (its SQL joins brand and codes, categories and attributes the same way). */
export function tsvFields(
  d: Pick<SearchDoc, 'nameNorm' | 'brandNorm' | 'codes' | 'categoryText' | 'attributeText' | 'nameStem' | 'descriptionNorm'>,
): Array<[string, Weight]> {
  return [
    [d.nameNorm, 'A'],
    [`${d.brandNorm ?? ''} ${d.codes.join(' ')}`, 'A'],
    [`${d.categoryText} ${d.attributeText}`, 'B'],
    [d.nameStem, 'C'],
    [d.descriptionNorm, 'D'],
  ];
}

type Weight = 'A' | 'B' | 'C' | 'D';

/** A chunk's parse: lexemes in position order with their positions (from 1), and the positions it uses. */
interface Parsed {
  lexemes: string[];
  positions: number[];
  width: number;
}

/** One lexeme, the chunk itself: `[a-z]+` is an asciiword, `[0-9]+` an unsigned integer. */
const SIMPLE = /^(?:[a-z]{1,100}|[0-9]{1,100})$/;
/** Longer chunks go to Postgres whole (a word over 2,047 bytes is dropped there, with a notice). */
const MAX_CHUNK = 500;
const MAX_POSITION = 16_000;
const MAX_PER_LEXEME = 250;
/** Distinct chunks held per process; the map starts again when full. */
const CACHE_SIZE = 200_000;

/** Key prefixes: the chunk opens its text (Postgres's parser reads "./ab" or "~b" there as a path), or follows a space. */
const START = '^';
const AFTER = '_';

/**
 * Calls `each` with every chunk of `text` and its key (START or AFTER, then the chunk); false when
 * the text is left to TSV_SQL (a chunk too long, or `<`: a tag may hold spaces) or `each` says so.
 */
function chunks(text: string, each: (chunk: string, key: string) => boolean): boolean {
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf(' ', from);
    if (to < 0) to = text.length;
    if (to > from) {
      const chunk = text.slice(from, to);
      if (chunk.length > MAX_CHUNK || chunk.includes('<')) return false;
      if (!each(chunk, (from === 0 ? START : AFTER) + chunk)) return false;
    }
    from = to + 1;
  }
  return true;
}

const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export class TsvectorLiterals {
  private parsed = new Map<string, Parsed>();

  constructor(private db: Knex) {}

  /** Literals of `docs` (null where TSV_SQL must compute it); one query parses the chunks not yet held. */
  async of(docs: Parameters<typeof tsvFields>[0][], db: Knex = this.db): Promise<Array<string | null>> {
    const fields = docs.map(tsvFields);
    const missing = new Set<string>();
    for (const doc of fields) {
      for (const [text] of doc) {
        chunks(text, (chunk, key) => {
          if (!SIMPLE.test(chunk) && !this.parsed.has(key)) missing.add(key);
          return true;
        });
      }
    }
    if (missing.size) await this.parse([...missing], db);
    return fields.map((doc) => this.literal(doc));
  }

  /** Parses chunks by their keys: a chunk opening its text alone, any other after a word ("x "), whose position it then drops. */
  private async parse(keys: string[], db: Knex): Promise<void> {
    if (this.parsed.size + keys.length > CACHE_SIZE) this.parsed.clear();
    const { rows } = await db.raw(
      `SELECT u.n, t.lexeme, t.positions FROM unnest(?::text[]) WITH ORDINALITY AS u(c, n), unnest(to_tsvector('simple', u.c)) AS t`,
      [keys.map((k) => (k[0] === START ? k.slice(1) : `x ${k.slice(1)}`))],
    );
    const found = new Map<number, Array<[string, number]>>();
    for (const r of rows as Array<{ n: string; lexeme: string; positions: number[] }>) {
      const list = found.get(Number(r.n)) ?? found.set(Number(r.n), []).get(Number(r.n))!;
      for (const p of r.positions) list.push([r.lexeme, p]);
    }
    keys.forEach((key, i) => {
      const shift = key[0] === START ? 0 : 1;
      const list = (found.get(i + 1) ?? []).sort((a, b) => a[1] - b[1]).filter((e) => e[1] > shift);
      this.parsed.set(key, {
        lexemes: list.map((e) => e[0]),
        positions: list.map((e) => e[1] - shift),
        width: list.length ? list[list.length - 1][1] - shift : 0,
      });
    });
  }

  private literal(fields: Array<[string, Weight]>): string | null {
    const entries = new Map<string, string[]>();
    let offset = 0;
    const add = (lexeme: string, position: number, weight: Weight) => {
      const list = entries.get(lexeme) ?? entries.set(lexeme, []).get(lexeme)!;
      list.push(weight === 'D' ? String(position) : `${position}${weight}`);
    };
    for (const [text, weight] of fields) {
      const whole = chunks(text, (chunk, key) => {
        if (SIMPLE.test(chunk)) {
          add(chunk, ++offset, weight);
          return true;
        }
        const p = this.parsed.get(key);
        if (!p) return false;
        for (let i = 0; i < p.lexemes.length; i++) add(p.lexemes[i], offset + p.positions[i], weight);
        offset += p.width;
        return true;
      });
      if (!whole || offset > MAX_POSITION) return null;
    }
    const out: string[] = [];
    for (const [lexeme, positions] of entries) {
      if (positions.length > MAX_PER_LEXEME) return null;
      out.push(`${quote(lexeme)}:${positions.join(',')}`);
    }
    return out.join(' ');
  }
}
