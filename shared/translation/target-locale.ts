import { AppError } from '../platform/errors.js';

export interface StoreLocales {
  find(id: string): Promise<{ locales: string[]; default_locale: string } | undefined>;
}

/**
 * The store's default locale, once `target` is checked to be one of its other languages: the only
 * locales a backfill translates into and a policy (PUT /v1/translate/settings) is kept for. 400
 * `validation_failed` on `target_locale` otherwise.
 */
export async function checkTargetLocale(tenants: StoreLocales, tenantId: string, target: string): Promise<string> {
  const tenant = await tenants.find(tenantId);
  if (!tenant) throw new AppError('not_found', 404, 'tenant not found');
  if (!tenant.locales.includes(target) || target === tenant.default_locale) {
    throw new AppError('validation_failed', 400, `target_locale ${target} is not one of this store's other languages (${tenant.locales.join(', ')})`, [
      { in: 'body', field: 'target_locale', code: 'invalid_value', message: 'a store locale other than the default one' },
    ]);
  }
  return tenant.default_locale;
}
