import type { Knex } from 'knex';

/** A store's translation policy for one target locale. */
export interface TranslationSettings {
  target_locale: string;
  /** Translate new and changed products automatically (watch mode). */
  watch_enabled: boolean;
  /** Machine translations that pass every check with at least `auto_approve_min_score` go straight to approved. */
  auto_approve: boolean;
  auto_approve_min_score: number;
  updated_at: Date | null;
}

export const defaultSettings = (target: string): TranslationSettings => ({
  target_locale: target,
  watch_enabled: false,
  auto_approve: false,
  auto_approve_min_score: 0.9,
  updated_at: null,
});

export function settingsRepo(db: Knex) {
  return {
    async get(tenantId: string, target: string): Promise<TranslationSettings> {
      const row = await db('translation_settings').where({ tenant_id: tenantId, target_locale: target }).first();
      return row ? strip(row) : defaultSettings(target);
    },
    /** Locales with watch mode on. */
    async watched(tenantId: string): Promise<TranslationSettings[]> {
      return (await db('translation_settings').where({ tenant_id: tenantId, watch_enabled: true })).map(strip);
    },
    /**
     * Changes the fields given; the others keep their stored (or default) values. Only the given
     * columns are merged into a stored row, so two PUTs of different fields at once both stay (a
     * merge of every column wrote back the values this request had read before the other committed).
     */
    async put(tenantId: string, target: string, patch: Partial<Omit<TranslationSettings, 'target_locale' | 'updated_at'>>): Promise<TranslationSettings> {
      const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const next = { ...defaultSettings(target), ...given };
      const [row] = await db('translation_settings')
        .insert({
          tenant_id: tenantId,
          target_locale: target,
          watch_enabled: next.watch_enabled,
          auto_approve: next.auto_approve,
          auto_approve_min_score: next.auto_approve_min_score,
          updated_at: db.fn.now(),
        })
        .onConflict(['tenant_id', 'target_locale'])
        .merge([...Object.keys(given), 'updated_at'])
        .returning('*');
      return strip(row);
    },
  };
}

function strip(row: TranslationSettings & { tenant_id?: string }): TranslationSettings {
  const { tenant_id: _t, ...rest } = row;
  return rest;
}
