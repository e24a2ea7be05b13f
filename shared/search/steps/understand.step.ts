import { AppError } from '../../platform/errors.js';
import { detectLang } from '../../text/language.js';
import { normalizeText } from '../../text/normalize.js';
import type { SearchStep } from './state.js';

/** The query's language (a store locale) and its normalized text (Arabic layer, digits, case, diacritics). */
export const understand: SearchStep = {
  name: 'understand',
  run(s) {
    const { ctx, input } = s;
    s.lang = detectLang(input.q, input.lang, ctx.locales, ctx.defaultLocale);
    if (!ctx.locales.includes(s.lang)) {
      throw new AppError('validation_failed', 400, `lang ${s.lang} is not one of this store's locales (${ctx.locales.join(', ')})`, [
        { in: 'query', field: 'lang', code: 'invalid_value', message: 'not a tenant locale' },
      ]);
    }
    s.normalized = normalizeText(input.q);
  },
  trace: (s) => ({ lang: s.lang, normalized: s.normalized }),
};
