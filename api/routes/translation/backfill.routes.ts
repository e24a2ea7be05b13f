import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { backfillKey, checkTargetLocale, startBackfill, STATUSES, usd, usageMonth } from '../../../shared/translation/index.js';
import { toJobOut } from '../../http/schemas.js';
import { requireFeature } from '../../../shared/billing/index.js';
import { BackfillBody, BackfillEstimate, LocaleQuery, SettingsBody, SettingsOut, TranslationStatusOut } from './translation.schema.js';

const READ = { scope: 'translations:read' as const };
const WRITE = { scope: 'translations:write' as const };

const NO_PROVIDER = 'no translation provider is configured (set OPENAI_BASE_URL or OPENAI_API_KEY): backfills create pending items for people to translate';

const settingsOut = (s: { target_locale: string; watch_enabled: boolean; auto_approve: boolean; auto_approve_min_score: number; updated_at: Date | null }) => ({
  ...s,
  updated_at: s.updated_at ? s.updated_at.toISOString() : null,
});

/** Backfill, status and the per-locale policy (watch mode, auto-approve). */
export function backfillRoutes(deps: Deps): RouteSpec[] {
  const { translationItems: items, translationSettings: settings, translationUsage: usage, jobs } = deps.repos;
  return [
    /**
     * Counts the fields the scope covers and estimates the cost; unless dry_run, starts the
     * translate_backfill job (a second request while one is live for the locale returns it).
     * Idempotency-Key honoured.
     */
    defineRoute({
      method: 'post',
      path: '/v1/translate/backfill',
      tag: 'translation',
      summary: 'Translate the catalog into a locale (or estimate it)',
      auth: WRITE,
      idempotent: true,
      body: BackfillBody,
      responses: { 202: { description: 'counts, estimated cost and the job (null for a dry run)', schema: BackfillEstimate } },
      async handle(ctx, { body }) {
        // An estimate on any plan; translating is the plan's translation feature.
        if (!body.dry_run) await requireFeature(deps.entitlements, ctx.state.principal.tenantId, 'translation');
        const { estimate, job } = await startBackfill(
          {
            repos: { jobs },
            queues: deps.queues,
            catalog: deps.repos.products,
            items,
            tenants: deps.repos.tenants,
            translator: deps.translator,
            batchFields: deps.config.translation.batchFields,
          },
          ctx.state.principal.tenantId,
          { ...body, product_ids: body.product_ids ?? null },
        );
        ctx.status = 202;
        ctx.body = { ...estimate, job: job ? toJobOut(job) : null };
      },
    }),
    /** Read-only: counts by status, this month's provider cost, watch mode, the live backfill, and whether a provider is set. */
    defineRoute({
      method: 'get',
      path: '/v1/translate/status',
      tag: 'translation',
      summary: 'Translation status of a locale',
      auth: READ,
      query: LocaleQuery,
      responses: { 200: { description: 'status', schema: TranslationStatusOut } },
      async handle(ctx, { query }) {
        const tenantId = ctx.state.principal.tenantId;
        const target = query.target_locale;
        const [counts, policy, cost, live] = await Promise.all([
          items.statusCounts(tenantId, target),
          settings.get(tenantId, target),
          usage.costMicros(tenantId, usageMonth(), target),
          Promise.all((['running', 'queued'] as const).map((status) => jobs.list(tenantId, { kind: 'translate_backfill', status, limit: 50 }))),
        ]);
        const running = live.flat().find((j) => j.dedupe_key === backfillKey(target)) ?? null;
        ctx.body = {
          target_locale: target,
          total_fields: counts.total,
          by_status: Object.fromEntries(STATUSES.map((s) => [s, counts.byStatus[s] ?? 0])),
          human_edited: counts.humanEdited,
          cost_month_usd: usd(cost),
          watch_enabled: policy.watch_enabled,
          running_job: running ? toJobOut(running) : null,
          provider: { configured: !!deps.translator, name: deps.translator?.name ?? null, message: deps.translator ? null : NO_PROVIDER },
        };
      },
    }),
    /** Read-only: the locale's policy (defaults until set). */
    defineRoute({
      method: 'get',
      path: '/v1/translate/settings',
      tag: 'translation',
      summary: 'Translation policy of a locale (watch mode, auto-approve)',
      auth: READ,
      query: LocaleQuery,
      responses: { 200: { description: 'settings', schema: SettingsOut } },
      async handle(ctx, { query }) {
        ctx.body = settingsOut(await settings.get(ctx.state.principal.tenantId, query.target_locale));
      },
    }),
    /** Changes the fields given (the rest keep their values); naturally idempotent. Watch mode applies to catalog changes from now on. */
    defineRoute({
      method: 'put',
      path: '/v1/translate/settings',
      tag: 'translation',
      summary: 'Set the translation policy of a locale',
      auth: WRITE,
      body: SettingsBody,
      responses: { 200: { description: 'settings as stored', schema: SettingsOut } },
      async handle(ctx, { body }) {
        const { target_locale: target, ...patch } = body;
        await checkTargetLocale(deps.repos.tenants, ctx.state.principal.tenantId, target);
        ctx.body = settingsOut(await settings.put(ctx.state.principal.tenantId, target, patch));
      },
    }),
  ];
}
