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
  /** Lexemes as tsvector input quotes them. */
  quoted: string[];
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

const quote = (lexeme: string) => (lexeme.includes("'") || lexeme.includes('\\') ? `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'` : `'${lexeme}'`);

/** Chunks to ask Postgres for, by where they stand. */
interface Missing {
  first: Set<string>;
  after: Set<string>;
}

/** A text left to TSV_SQL: a chunk too long, or `<` (a tag may hold spaces). */
const LEFT = Symbol('left to TSV_SQL');

export class TsvectorLiterals {
  /**
   * Parses by chunk: `first` of chunks opening their text (Postgres's parser reads "./ab" or "~b"
   * there as a path), `after` of chunks following a space. Simple chunks are held as parsed too.
   */
  private first = new Map<string, Parsed>();
  private after = new Map<string, Parsed>();

  constructor(private db: Knex) {}

  /** Literals of `docs` (null where TSV_SQL must compute it); one query parses the chunks not yet held. */
  async of(docs: Parameters<typeof tsvFields>[0][], db: Knex = this.db): Promise<Array<string | null>> {
    const missing: Missing = { first: new Set(), after: new Set() };
    const out = docs.map((d) => this.literal(tsvFields(d), missing));
    if (!missing.first.size && !missing.after.size) return out.map((l) => (typeof l === 'string' ? l : null));
    await this.parse([...missing.first], [...missing.after], db);
    return out.map((l, i) => {
      const literal = l === undefined ? this.literal(tsvFields(docs[i])) : l;
      return typeof literal === 'string' ? literal : null;
    });
  }

  /** Asks Postgres for chunks' parses: alone, or after a word ("x "), whose position is then dropped. */
  private async parse(first: string[], after: string[], db: Knex): Promise<void> {
    for (const map of [this.first, this.after]) if (map.size + first.length + after.length > CACHE_SIZE) map.clear();
    const { rows } = await db.raw(
      `SELECT u.n, t.lexeme, t.positions FROM unnest(?::text[]) WITH ORDINALITY AS u(c, n), unnest(to_tsvector('simple', u.c)) AS t`,
      [[...first, ...after.map((c) => `x ${c}`)]],
    );
    const found = new Map<number, Array<[string, number]>>();
    for (const r of rows as Array<{ n: string; lexeme: string; positions: number[] }>) {
      const list = found.get(Number(r.n)) ?? found.set(Number(r.n), []).get(Number(r.n))!;
      for (const p of r.positions) list.push([r.lexeme, p]);
    }
    [...first, ...after].forEach((chunk, i) => {
      const shift = i < first.length ? 0 : 1;
      const list = (found.get(i + 1) ?? []).sort((a, b) => a[1] - b[1]).filter((e) => e[1] > shift);
      (shift ? this.after : this.first).set(chunk, {
        quoted: list.map((e) => quote(e[0])),
        positions: list.map((e) => e[1] - shift),
        width: list.length ? list[list.length - 1][1] - shift : 0,
      });
    });
  }

  /**
   * The literal of one document's fields; LEFT for TSV_SQL; undefined when a chunk is not held
   * yet (added to `missing`, or, without it, left to TSV_SQL). A lexeme is written once per
   * occurrence: tsvector input merges a lexeme's positions.
   */
  private literal(fields: Array<[string, Weight]>, missing?: Missing): string | typeof LEFT | undefined {
    let out = '';
    let offset = 0;
    let complete = true;
    for (const [text, weight] of fields) {
      const suffix = weight === 'D' ? ' ' : `${weight} `;
      for (let from = 0; from < text.length;) {
        let to = text.indexOf(' ', from);
        if (to < 0) to = text.length;
        if (to > from) {
          const p = this.held(text.slice(from, to), from === 0, missing);
          if (p === LEFT) return LEFT;
          if (p === undefined) complete = false;
          else if (complete) {
            for (let i = 0; i < p.quoted.length; i++) out += `${p.quoted[i]}:${offset + p.positions[i]}${suffix}`;
            offset += p.width;
          }
        }
        from = to + 1;
      }
      if (offset > MAX_POSITION) return LEFT;
    }
    if (!complete) return undefined;
    if (offset > MAX_PER_LEXEME && this.crowded(fields)) return LEFT;
    return out;
  }

  /** A chunk's parse when held (a simple chunk is held at first sight), else LEFT or undefined (noted in `missing`). */
  private held(chunk: string, first: boolean, missing?: Missing): Parsed | typeof LEFT | undefined {
    const map = first ? this.first : this.after;
    const p = map.get(chunk);
    if (p !== undefined) return p;
    if (chunk.length > MAX_CHUNK || chunk.includes('<')) return LEFT;
    if (SIMPLE.test(chunk)) {
      const simple = { quoted: [`'${chunk}'`], positions: [1], width: 1 };
      map.set(chunk, simple);
      return simple;
    }
    if (!missing) return LEFT;
    (first ? missing.first : missing.after).add(chunk);
    return undefined;
  }

  /** Whether a lexeme of the document has more positions than a tsvector keeps (all chunks held). */
  private crowded(fields: Array<[string, Weight]>): boolean {
    const counts = new Map<string, number>();
    for (const [text] of fields) {
      text.split(' ').forEach((chunk, i) => {
        const p = chunk ? this.held(chunk, i === 0) : undefined;
        if (typeof p === 'object') for (const q of p.quoted) counts.set(q, (counts.get(q) ?? 0) + 1);
      });
    }
    return [...counts.values()].some((n) => n > MAX_PER_LEXEME);
  }
}
