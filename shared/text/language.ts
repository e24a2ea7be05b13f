import { scriptOf } from './normalize.js';

/**
 * Picks the query language: an explicit tenant locale wins; `auto` takes Arabic for Arabic
 * script (when the tenant has it), English for Latin script, else the tenant's default.
 */
export function detectLang(text: string, requested: string, locales: string[], defaultLocale: string): string {
  if (requested !== 'auto') return requested;
  const script = scriptOf(text);
  if ((script === 'arabic' || script === 'mixed') && locales.includes('ar')) return 'ar';
  if (script === 'latin' && locales.includes('en')) return 'en';
  return defaultLocale;
}
