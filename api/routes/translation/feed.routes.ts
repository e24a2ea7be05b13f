import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';
import { z } from 'zod';
import { cursorCodec } from '../../../shared/platform/cursor.js';
import { productsMissingColumns, toCsv, toJson, toOpenCartSql, toWriteItem } from '../../../shared/translation/index.js';
import { AckBody, AckResult, ApprovedPage, ApprovedQuery, ExportContent, ExportQuery } from './translation.schema.js';

const READ = { scope: 'translations:read' as const };
const WRITE = { scope: 'translations:write' as const };
// Spec 5.6: store modules pull with a secret key; neither public keys nor dashboard sessions.
const FEED = { ...READ, kinds: ['secret' as const] };

/** A position on the feed sequence. */
const feedCursor = cursorCodec(z.strictObject({ s: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }));
const badCursor = () =>
  new AppError('invalid_cursor', 400, 'since is not a cursor this API returned', [
    { field: 'since', code: 'invalid_cursor', message: 'pass back next_cursor unchanged' },
  ]);

/** Write-back for stores: the approved feed, acknowledgements and file exports. */
export function feedRoutes(deps: Deps): RouteSpec[] {
  const repo = deps.repos.translationReview;
  return [
    /**
     * Read-only: approved and human-edited rows after `since`, oldest first, on the feed sequence
     * (numbers are taken in commit order, so a row committed later never lands behind a cursor).
     */
    defineRoute({
      method: 'get',
      path: '/v1/translate/approved',
      tag: 'translation',
      summary: 'Approved translations since a cursor (store modules; secret key)',
      auth: FEED,
      query: ApprovedQuery,
      responses: { 200: { description: 'page of rows to write into the store', schema: ApprovedPage } },
      async handle(ctx, { query }) {
        let after = 0;
        try {
          after = feedCursor.decode(query.since)?.s ?? 0;
        } catch {
          throw badCursor();
        }
        const rows = await repo.feed(ctx.state.principal.tenantId, query.locale, after, query.limit);
        const last = rows[rows.length - 1];
        // The cursor always moves to the last row returned; an empty page hands back the same position.
        ctx.body = { data: rows.map(toWriteItem), next_cursor: feedCursor.encode({ s: last ? Number(last.feed_seq) : after }) };
      },
    }),
    /** Sets written_back_at on the acknowledged approved rows (other ids are not counted). */
    defineRoute({
      method: 'post',
      path: '/v1/translate/ack',
      tag: 'translation',
      summary: 'Acknowledge translations written into the store',
      auth: WRITE,
      body: AckBody,
      responses: { 200: { description: 'rows marked written back', schema: AckResult } },
      async handle(ctx, { body }) {
        ctx.body = { updated: await repo.ack(ctx.state.principal.tenantId, [...new Set(body.ids)]) };
      },
    }),
    /** Read-only: every approved translation of a locale as csv, json or OpenCart SQL (README "Translation exports"). */
    defineRoute({
      method: 'get',
      path: '/v1/translate/export',
      tag: 'translation',
      summary: 'Export approved translations (csv, json, sql_opencart)',
      auth: READ,
      query: ExportQuery,
      responses: { 200: { description: 'the file content as a JSON string', schema: ExportContent } },
      async handle(ctx, { query }) {
        const tenantId = ctx.state.principal.tenantId;
        const rows = await repo.approved(tenantId, query.target_locale);
        let content: string;
        if (query.format === 'csv') content = toCsv(rows);
        else if (query.format === 'json') content = toJson(rows);
        else {
          // A new OpenCart row needs every column: the products' own text fills those not translated.
          const own = await deps.repos.products.findMany(tenantId, productsMissingColumns(rows));
          const products = new Map(own.map((p) => [p.id, { name: p.data.name, description: p.data.description as Record<string, string> | undefined }]));
          content = toOpenCartSql(rows, { languageId: query.language_id, locale: query.target_locale, tablePrefix: query.table_prefix, products });
        }
        ctx.type = 'application/json';
        ctx.body = JSON.stringify(content);
      },
    }),
  ];
}
