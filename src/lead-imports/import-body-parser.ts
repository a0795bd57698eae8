import type { FastifyInstance } from 'fastify';
import { ImportFormat } from './lead-import.events';

export const IMPORT_ROUTE = '/api/user/campaigns/:id/leads/import';

const FORMATS: Record<string, ImportFormat> = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

/** The import's format from its `Content-Type` (parameters such as `charset` aside), or null. */
export function importFormat(contentType: string | undefined): ImportFormat | null {
  return FORMATS[(contentType ?? '').split(';')[0].trim().toLowerCase()] ?? null;
}

/**
 * CSV and NDJSON bodies are handed to the import route as the stream they arrive as, neither
 * buffered nor held to the 1 MiB of JSON bodies (the import counts them against its own limit);
 * any other route refuses them as it refuses every type but JSON.
 */
export function installImportBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(Object.keys(FORMATS), (request, payload, done) => {
    if (request.routeOptions.url === IMPORT_ROUTE) return done(null, payload);
    done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
  });
}
