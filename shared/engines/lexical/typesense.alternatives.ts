import { createHash } from 'node:crypto';
import type { Client } from 'typesense';
import type { EngineQuery } from './port.js';
import { REFRESH_MS, type SetUsage } from './typesense.set-usage.js';

/**
 * A term's alternatives on Typesense. `q` has no OR, but a search's synonym sets are expanded
 * inside that one search: Typesense runs the query once per combination of roots and their
 * synonyms and keeps one set of matching ids, so `found` and the facet counts count a document
 * matched by two alternatives once, and the hits are ranked together (text_match, sort_by).
 * Each query with alternatives gets a synonym set of its own (named by its content, written once
 * per process): one one-way item per term, root the shopper's own words, synonyms the other
 * alternatives. A set shared by the tenant would apply stale corrections and context-bound
 * alternatives (the bare last word as a prefix) to every later query.
 */

/** Combinations one search may expand to, the shopper's own words included: later terms' alternatives beyond it are left out. */
export const MAX_COMBINATIONS = 32;

export interface SynonymItem {
  id: string;
  root: string;
  synonyms: string[];
}

/** A word as `q` carries it: no exclusion or phrase operators. */
const clean = (t: string) => t.replace(/"/g, ' ').replace(/^-+/, '').trim();
const phrase = (tokens: string[]) => tokens.map(clean).filter(Boolean).join(' ');

/**
 * Query words: the shopper's own alternative of each term, each word once (a model number's
 * term repeats its word: "iphone 6" is iphone, then iphone 6).
 */
export function queryWords(q: Pick<EngineQuery, 'tokens' | 'terms'>): string[] {
  const tokens = q.terms ? q.terms.flatMap((t) => t.alternatives[0] ?? []) : q.tokens;
  return [...new Set(tokens.map(clean).filter(Boolean))];
}

/**
 * One item per term with alternatives whose own words stand together in `q` (Typesense finds a
 * root as consecutive query words). Terms are taken in order while the combinations stay within
 * MAX_COMBINATIONS; a term past it keeps as many of its first alternatives as fit, or none.
 */
export function alternativeItems(q: Pick<EngineQuery, 'tokens' | 'terms'>): SynonymItem[] {
  if (!q.terms) return [];
  const text = ` ${queryWords(q).join(' ')} `;
  const items: SynonymItem[] = [];
  let combinations = 1;
  for (const term of q.terms) {
    const root = phrase(term.alternatives[0] ?? []);
    if (!root || !text.includes(` ${root} `)) continue;
    const others = [...new Set(term.alternatives.slice(1).map(phrase))].filter((p) => p && p !== root);
    const kept = others.slice(0, Math.max(0, Math.floor(MAX_COMBINATIONS / combinations) - 1));
    if (!kept.length) continue;
    combinations *= kept.length + 1;
    items.push({ id: `term-${items.length}`, root, synonyms: kept });
  }
  return items;
}

/** `<alias>_alt_<16 hex>`: the set of these items for the tenant behind `alias`. */
export function alternativesSetName(alias: string, items: SynonymItem[]): string {
  return `${alias}_alt_${createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 16)}`;
}

/** Whether `name` is one of the tenant's sets (and not one of a tenant whose id starts with this one's). */
export function isAlternativesSetOf(alias: string, name: string): boolean {
  return name.startsWith(`${alias}_alt_`) && /^[0-9a-f]{16}$/.test(name.slice(alias.length + 5));
}

/** Typesense's answer when a search names a synonym set it does not have (deleted since this process wrote it). */
export const isMissingSet = (message: string | undefined) => /Synonym index not found|Could not find synonym index/.test(message ?? '');

/**
 * Sets one process keeps at Typesense: past this, the set it used least recently is deleted there. Every
 * distinct correction makes a set, so without a bound a store's long tail of typos would pile them up.
 * Another process still using a deleted set writes it again on its next search (isMissingSet, one retry).
 * Sets written by a process that has since stopped are left to the sweep (sweep below, SetUsage).
 */
export const MAX_SETS = 2_000;

/** A set of alternatives of this deployment (any tenant's): `<prefix>_<tenant>_alt_<16 hex>`. */
const isAlternativesSet = (head: string, name: string) => name.startsWith(head) && /^.+_alt_[0-9a-f]{16}$/.test(name.slice(head.length));

/**
 * The synonym sets of alternatives this process has written, least recently used first, each with
 * when this process last marked it used (SetUsage); a forgotten one is written again (an upsert by name).
 */
export class AlternativeSets {
  private written = new Map<string, number>();

  constructor(
    private client: Promise<Client>,
    private maxSets = MAX_SETS,
    private readonly usage: SetUsage | null = null,
  ) {}

  /**
   * Writes the set unless this process already has (`again`: it was found missing) and marks it used;
   * a set it already has is marked again once REFRESH_MS has passed, so the sweep keeps it. Deletes
   * the least recently used one past maxSets.
   */
  async ensure(name: string, items: SynonymItem[], again = false): Promise<void> {
    const now = this.usage?.now() ?? 0;
    const marked = this.written.get(name);
    this.written.delete(name);
    if (marked !== undefined && !again) {
      const due = this.usage !== null && now - marked >= REFRESH_MS;
      if (due) this.usage.mark(name);
      this.written.set(name, due ? now : marked);
      return;
    }
    // Marked as it is written (in Redis within FLUSH_MS): a sweep listing it before then deletes it, and the next search writes it again.
    this.usage?.mark(name);
    const client = await this.client;
    await client.synonymSets(name).upsert({ items });
    this.written.set(name, now);
    if (this.written.size <= this.maxSets) return;
    const oldest = this.written.keys().next().value!;
    this.written.delete(oldest);
    // Not awaited: the search that wrote its own set does not wait on another one's deletion.
    client
      .synonymSets(oldest)
      .delete()
      .catch(() => undefined);
  }

  /** Deletes every set of the tenant behind `alias`. */
  async dropTenant(alias: string, ignoreNotFound: (e: unknown) => null): Promise<void> {
    const client = await this.client;
    const names = (await client.synonymSets().retrieve()).map((s) => s.name).filter((n) => isAlternativesSetOf(alias, n));
    for (const name of names) await client.synonymSets(name).delete().catch(ignoreNotFound);
    for (const name of [...this.written.keys()]) if (isAlternativesSetOf(alias, name)) this.written.delete(name);
  }

  /**
   * Deletes this deployment's sets of alternatives (names starting `head`) not marked used within
   * `olderThanMs`, and forgets their marks. A set without a mark (written before marks were kept, by
   * a process whose marks were not sent yet, or its mark lost with Redis) is marked now and kept: it
   * goes at a later sweep only if nothing uses it within the retention. Any other synonym set is left
   * alone. A process still holding a deleted set finds it missing on its next search and writes it
   * again (one retry).
   */
  async sweep(
    head: string,
    olderThanMs: number,
    ignoreNotFound: (e: unknown) => null,
    signal?: AbortSignal,
  ): Promise<{ deleted: number; kept: number; unmarked: number }> {
    // Without marks every set would look unused.
    if (!this.usage) throw new Error('sweeping sets of alternatives needs their marks (SetUsage)');
    const client = await this.client;
    const now = this.usage.now();
    const cutoff = now - olderThanMs;
    const names = (await client.synonymSets().retrieve()).map((s) => s.name).filter((n) => isAlternativesSet(head, n));
    const marks = await this.usage.lastUsed(names);
    const unmarked = names.filter((_, i) => marks[i] === null);
    await this.usage.markFirstSeen(unmarked, now);
    const stale = names.filter((_, i) => marks[i] !== null && marks[i]! < cutoff);
    for (const name of stale) {
      signal?.throwIfAborted();
      await client.synonymSets(name).delete().catch(ignoreNotFound);
      this.written.delete(name);
    }
    await this.usage.forgetBefore(cutoff);
    return { deleted: stale.length, kept: names.length - stale.length, unmarked: unmarked.length };
  }
}
