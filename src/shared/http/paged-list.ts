import type { FastifyRequest } from 'fastify';
import { PageEnvelope, pageEnvelope } from './page-envelope';
import { listPath } from './page-query';
import { Collection, Filter, SortOrder } from '../ports/document-store.port';

/**
 * One page of a collection in the page envelope (docs/api.md): its documents and their
 * total read together, the request's other parameters kept in the page links.
 */
export async function pagedList<T extends object, V>(
  collection: Collection<T>,
  filter: Filter,
  sort: SortOrder,
  page: { page: number; per_page: number },
  req: FastifyRequest,
  publicUrl: string,
  view: (doc: T) => V,
): Promise<PageEnvelope<V>> {
  const [docs, total] = await Promise.all([
    collection.find(filter, { sort, skip: (page.page - 1) * page.per_page, limit: page.per_page }),
    collection.count(filter),
  ]);
  return listPage(docs.map(view), total, page, req, publicUrl);
}

/** A page of a list in the page envelope, the request's other parameters kept in the page links. */
export function listPage<V>(data: V[], total: number, page: { page: number; per_page: number }, req: FastifyRequest, publicUrl: string): PageEnvelope<V> {
  const { page: _page, ...kept } = req.query as Record<string, string>;
  return pageEnvelope(data, total, { page: page.page, perPage: page.per_page, path: listPath(publicUrl, req.url.split('?')[0]), query: kept });
}
