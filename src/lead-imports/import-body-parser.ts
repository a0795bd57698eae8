import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ImportFormat } from './lead-import.events';

/** The routes whose bodies are files to import: leads into a campaign, numbers into the do-not-call list. */
export const IMPORT_ROUTES = ['/api/user/campaigns/:id/leads/import', '/api/user/dnc/import'];

const FORMATS: Record<string, ImportFormat> = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson', 'text/plain': 'text' };

/** The import's format from its `Content-Type` (parameters such as `charset` aside), or null. */
export function importFormat(contentType: string | undefined): ImportFormat | null {
  return FORMATS[(contentType ?? '').split(';')[0].trim().toLowerCase()] ?? null;
}

/**
 * CSV, NDJSON and plain-text bodies are handed to the import routes as the stream they arrive as, neither
 * buffered nor held to the 1 MiB of JSON bodies (the import counts them against its own limit);
 * any other route refuses them as it refuses every type but JSON. A body of any other type, or
 * of none named, reaches the import routes too, to be refused there in the import's own words.
 */
export function installImportBodyParser(fastify: FastifyInstance): void {
  const parser = (request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: unknown) => void) => {
    if (IMPORT_ROUTES.includes(request.routeOptions.url ?? '')) return done(null, payload);
    // An unknown route answers 404 as it does for a type Fastify does not know.
    if (request.is404) return done(null, undefined);
    done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
  };
  fastify.addContentTypeParser(Object.keys(FORMATS), parser);
  fastify.addContentTypeParser('*', parser);
}
