import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { SynonymService } from '../../../shared/synonyms/service.js';
import { MAX_IMPORT_CHARS } from '../../../shared/synonyms/import.js';
import { ExportContent, ExportQuery, ImportBody, SynonymImportResult } from './synonyms.schema.js';

export const IMPORT_PATH = '/v1/synonyms/import';
/**
 * The import's own body limit: `content` may hold MAX_IMPORT_CHARS characters (spec 8), and a JSON
 * encoder may write each as a six-byte \uXXXX escape; the default BODY_LIMIT_BYTES would refuse a
 * valid Arabic file of half that.
 */
export const IMPORT_BODY_BYTES = MAX_IMPORT_CHARS * 6 + 64 * 1024;

const READ = { scope: 'synonyms:read' as const };
const WRITE = { scope: 'synonyms:write' as const };

/** Synonym files (spec 4.2): export as a JSON string, import with per-line errors. */
export function importExportRoutes(service: SynonymService): RouteSpec[] {
  return [
    /** Read-only: the tenant's rules (optionally one set) as a json, csv or solr file. */
    defineRoute({
      method: 'get',
      path: '/v1/synonyms/export',
      tag: 'synonyms',
      summary: "Export the tenant's synonym rules as a file (json, csv or solr)",
      auth: READ,
      query: ExportQuery,
      responses: { 200: { description: 'the file content as a JSON string', schema: ExportContent } },
      async handle(ctx, { query }) {
        const content = await service.export(ctx.state.principal.tenantId, query.format, query.set_key);
        ctx.type = 'application/json';
        ctx.body = JSON.stringify(content);
      },
    }),
    /**
     * Applies a json, csv or solr file in one transaction (merge or replace); bad lines are reported
     * by number in `errors` while the valid ones apply; re-importing an export changes nothing.
     * Idempotency-Key honoured; announces the change when anything changed.
     */
    defineRoute({
      method: 'post',
      path: IMPORT_PATH,
      tag: 'synonyms',
      summary: 'Import synonym rules from a file',
      auth: WRITE,
      idempotent: true,
      itemFields: ['content'],
      body: ImportBody,
      responses: { 200: { description: 'counts per rule and per-line errors', schema: SynonymImportResult } },
      async handle(ctx, { body }) {
        ctx.body = await service.import(ctx.state.principal.tenantId, { format: body.format, content: body.content, mode: body.mode, setKey: body.set_key });
      },
    }),
  ];
}
