/** Laravel's length-aware paginator body (docs/api.md), shared by every paginated list. */
export interface PageEnvelope<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: Array<{ url: string | null; label: string; active: boolean }>;
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

export interface PageRequest {
  page: number;
  perPage: number;
  /** Absolute URL of the list without query. */
  path: string;
  /** Other query parameters (filters, per_page) kept in every page URL. */
  query?: Record<string, string | number | undefined>;
}

export function pageEnvelope<T>(data: T[], total: number, { page, perPage, path, query = {} }: PageRequest): PageEnvelope<T> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const url = (n: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && key !== 'page') params.set(key, String(value));
    params.set('page', String(n));
    return `${path}?${params.toString()}`;
  };
  const from = data.length ? (page - 1) * perPage + 1 : null;
  const prev = page > 1 ? url(Math.min(page - 1, lastPage)) : null;
  const next = page < lastPage ? url(page + 1) : null;
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from,
    last_page: lastPage,
    last_page_url: url(lastPage),
    links: [
      { url: prev, label: '« Previous', active: false },
      ...pageWindow(page, lastPage).map((n) =>
        n === null ? { url: null, label: '...', active: false } : { url: url(n), label: String(n), active: n === page },
      ),
      { url: next, label: 'Next »', active: false },
    ],
    next_page_url: next,
    path,
    per_page: perPage,
    prev_page_url: prev,
    to: from === null ? null : from + data.length - 1,
    total,
  };
}

/** Every page when there are few; else the ends and the neighbourhood of the current page, like Laravel's window. */
function pageWindow(page: number, last: number): Array<number | null> {
  if (last <= 13) return Array.from({ length: last }, (_, i) => i + 1);
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  if (page <= 7) return [...range(1, 10), null, last - 1, last];
  if (page >= last - 6) return [1, 2, null, ...range(last - 9, last)];
  return [1, 2, null, ...range(page - 3, page + 3), null, last - 1, last];
}
