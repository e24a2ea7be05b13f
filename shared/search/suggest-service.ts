import { createHash } from 'node:crypto';
import { AppError } from '../platform/errors.js';
import type { Notices } from '../platform/notices.js';
import type { LexicalEngine, ProductCard } from '../engines/lexical/port.js';
import { isCodeLike, normalizeText, tokenize } from '../text/normalize.js';
import { withoutArticle } from '../text/stem.js';
import { boundWords } from './query-bounds.js';
import type { TenantContexts, TenantSearchContext } from './tenant-context.js';
import type { SuggestDictionary } from './suggest-dictionary.js';
import { completions, prefixTerms } from './suggest-completions.js';
import { jsonBytes, RefreshingCache } from './refreshing-cache.js';
import { resolveRules, type Candidate } from '../merchandising/index.js';
import { detectLang } from '../text/language.js';
import { resolveRanking } from './ranking-config.js';
import { ruleFilterProblem } from './search-checks.js';
import type { MerchSnapshot, MerchState } from './merch-state.js';

export interface SuggestInput {
  q: string;
  limit: number;
  products: number;
  /** `auto` or a store locale (any other is a 400, as for search); completions come from every language of the store. */
  lang?: string;
}

/** Age limit of suggest's product previews (at least the result cache's). */
const PREVIEW_TTL_MS = 5 * 60_000;

/** Products the store's rules hide from the typed text, and a tag naming that set in the preview keys ('' for none). */
interface Hidden {
  ids: string[];
  tag: string;
}
const NONE: Hidden = { ids: [], tag: '' };

/**
 * As-you-type completions, product previews and category buckets. Never billed, never logged,
 * no AI. Completions come from the tenant's in-memory dictionary (each answer kept with it);
 * previews from the engine once per typed words, then from the preview cache until the index changes.
 */
export class SuggestService {
  /** Product previews; dropped per tenant on index changes (kept answering for `writeGraceMs` after one, while refreshed). */
  readonly previews: RefreshingCache<ProductCard[]>;
  /** The catalog-wide hides of each held merchandising state, made again when a rule's window opens or closes or the store's ranking changes. */
  private hides = new WeakMap<MerchSnapshot, { epoch: number; ranking: object; hidden: Hidden }>();
  /** Each store's last hides: equal hides after a reload keep their tag, so the previews cached under it still answer. */
  private lastHides = new Map<string, { content: string; hidden: Hidden }>();
  private hideTags = 0;

  /**
   * `cache.maxBytes`: the previews' budget, all tenants together; `writeGraceMs`: SEARCH_CACHE_WRITE_GRACE_MS, as for results.
   * `merch`: the merchandising state search holds (absent: no rule hides a preview).
   */
  constructor(
    private deps: { engine: LexicalEngine; contexts: TenantContexts; notices: Notices; merch?: Pick<MerchState, 'get'> },
    cache: { ttlMs: number; maxBytes: number; writeGraceMs?: number },
  ) {
    const resultTtlMs = cache.ttlMs;
    // Index changes drop previews (at once, or past the write grace); their age limit only covers a missed notice, so it can be long.
    this.previews = new RefreshingCache<ProductCard[]>(
      resultTtlMs > 0 ? Math.max(resultTtlMs, PREVIEW_TTL_MS) : 0,
      { maxBytes: cache.maxBytes, sizeOf: jsonBytes },
      cache.writeGraceMs ?? 0,
      'suggest_previews',
    );
    deps.notices.on('index', (tenantId) => this.previews.changed(tenantId));
  }

  /** The SuggestResponse as JSON text. */
  async suggest(tenantId: string, input: SuggestInput): Promise<string> {
    const started = performance.now();
    const { contexts } = this.deps;
    const ctx = await contexts.get(tenantId);
    if (!ctx) throw new AppError('not_found', 404, 'tenant not found');
    if (input.lang && input.lang !== 'auto' && !ctx.locales.includes(input.lang)) {
      throw new AppError('validation_failed', 400, `lang ${input.lang} is not one of this store's locales (${ctx.locales.join(', ')})`, [
        { in: 'query', field: 'lang', code: 'invalid_value', message: 'not a tenant locale' },
      ]);
    }
    const normalized = normalizeText(input.q);
    const tokens = boundWords(tokenize(normalized), { keepLast: true }).words;
    const hidden = normalized.length >= 3 && input.products > 0 ? await this.hidden(tenantId, ctx, normalized, input.lang ?? 'auto') : NONE;
    const [dictionary, typed] = await Promise.all([
      normalized ? contexts.dictionaries.get(tenantId) : null,
      this.preview(tenantId, normalized, tokens, input, hidden),
    ]);
    let products = typed;
    let done = dictionary ? dictionary.memo(`${input.limit}\u0000${normalized}`, () => serialized(completions(dictionary, normalized, input.limit))) : EMPTY;
    // Nothing starts with what was typed: complete its last word's closest spelling instead ("blutoo": bluetooth).
    if (dictionary && done.suggestions === '[]' && !typed.length) {
      const last = tokens[tokens.length - 1] ?? '';
      // Words below the typo budget's 4 characters get no correction (TypoIndex.prefixCorrection): too many spellings are that close.
      const vocab = last && !isCodeLike(last) ? await contexts.vocabularies.get(tenantId) : null;
      // Kept with the dictionary's answers: a word typed again is not looked up again.
      // A word typed with the Arabic article is corrected as the bare word the vocabulary holds ("القميض": قميص).
      const bare = withoutArticle(last);
      const correct = () => vocab!.typos.prefixCorrection(last) ?? (bare ? vocab!.typos.prefixCorrection(bare) : null) ?? '';
      const fix = vocab ? dictionary.memo(`\u0001${last}`, correct) : '';
      if (fix) {
        const fixed = [...tokens.slice(0, -1), fix];
        const text = fixed.join(' ');
        done = dictionary.memo(`${input.limit}\u0000${text}`, () => serialized(completions(dictionary, text, input.limit)));
        products = await this.preview(tenantId, text, fixed, input, hidden);
      }
    }
    const tookMs = Math.round((performance.now() - started) * 100) / 100;
    // The response as JSON text from parts serialized once per cached answer: the hot path only joins them.
    return `{"query":${JSON.stringify(input.q)},"suggestions":${done.suggestions},"products":${cardsJson(products)},"categories":${done.categories},"took_ms":${tookMs}}`;
  }

  /**
   * Product previews from 3 typed characters (shorter prefixes match too much to be useful): the engine once per typed words, then
   * the preview cache. Products hidden by a catalog-wide rule are left out in the engine (the list still fills), and their tag is in the key.
   */
  private async preview(tenantId: string, normalized: string, tokens: string[], input: SuggestInput, hidden: Hidden): Promise<ProductCard[]> {
    if (normalized.length < 3 || input.products <= 0) return [];
    return this.previews.get(tenantId, `${tokens.join(' ')}\u0000${input.products}${hidden.tag}`, async () =>
      (
        await this.deps.engine.search({
          tenantId,
          tokens,
          terms: prefixTerms(tokens),
          prefixLast: true,
          noTextRank: true,
          offset: 0,
          limit: input.products,
          boost: { inStockFirst: true, popularity: 0, margin: 0 },
          ...(hidden.ids.length ? { exclude: hidden.ids } : {}),
        })
      ).hits.map((h) => h.card),
    );
  }

  /**
   * What the store's rules hide from a search for the typed text (search's "hidden products are never shown"), from the
   * merchandising state search holds: the rules without patterns (every search) made once per state, rule window and
   * ranking; a rule whose pattern matches the typed text (in its language, as search reads it) adds its hides. No filters
   * are typed: rules with a filter context do not apply, as in a search without filters. Memory only.
   */
  private async hidden(tenantId: string, ctx: TenantSearchContext, normalized: string, lang: string): Promise<Hidden> {
    if (!this.deps.merch) return NONE;
    const merch = await this.deps.merch.get(tenantId);
    if (!merch.rules.size) return NONE;
    const epoch = merch.rules.epoch();
    const held = this.hides.get(merch);
    let hidden = held && held.epoch === epoch && held.ranking === ctx.ranking ? held.hidden : null;
    if (!hidden) {
      // A query without words matches only the rules without patterns.
      hidden = this.hidesOf(tenantId, merch.rules.candidates('', ''), ctx);
      this.hides.set(merch, { epoch, ranking: ctx.ranking, hidden });
    }
    const matched = merch.rules.candidates(normalized, detectLang(normalized, lang, ctx.locales, ctx.defaultLocale));
    if (!matched.some((c) => c.specificity > 0 && c.rule.consequences.hides.length)) return hidden;
    return this.hidesOf(tenantId, matched, ctx, true);
  }

  /** The hides of `candidates` resolved as search resolves them; `typed`: for one typed text (tagged by content, not kept as the store's last). */
  private hidesOf(tenantId: string, candidates: Candidate[], ctx: TenantSearchContext, typed = false): Hidden {
    const ranking = resolveRanking(ctx.ranking);
    const plan = resolveRules(candidates, {
      filters: {},
      enabled: ranking.merch_rules,
      disabledIds: new Set(ranking.disabled_rule_ids),
      forcedIds: new Set(),
      now: Date.now(),
      filterProblem: ruleFilterProblem(ctx),
    });
    if (typed) {
      const ids = [...plan.hides].sort();
      return ids.length ? { ids, tag: `\u0000q${createHash('sha256').update(ids.join('\u0000')).digest('base64url').slice(0, 16)}` } : NONE;
    }
    if (!plan.hides.size) {
      this.lastHides.delete(tenantId);
      return NONE;
    }
    const ids = [...plan.hides].sort();
    const content = ids.join('\u0000');
    const last = this.lastHides.get(tenantId);
    if (last?.content === content) return last.hidden;
    const hidden = { ids, tag: `\u0000h${++this.hideTags}` };
    this.lastHides.set(tenantId, { content, hidden });
    return hidden;
  }
}

const EMPTY = { suggestions: '[]', categories: '[]' };
const previewJson = new WeakMap<object, string>();

function serialized(done: ReturnType<typeof completions>) {
  return { suggestions: JSON.stringify(done.suggestions), categories: JSON.stringify(done.categories) };
}

/** The previews' JSON, made once per cached list. */
function cardsJson(cards: object[]): string {
  if (!cards.length) return '[]';
  let json = previewJson.get(cards);
  if (json === undefined) previewJson.set(cards, (json = JSON.stringify(cards)));
  return json;
}
