// Page, page size and search text of a list live in the URL (?page=&limit=&q=), so a reload, the back button
// or a shared link shows the same page.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@eta/contracts/domain';

export type PageSize = number | 'all';

export interface ListParams {
  page: number;
  pageSize: PageSize;
  query: string;
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function parsePageSize(value: string | null): PageSize {
  if (value === 'all') return 'all';
  const size = Number(value);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
}

export function useListParams() {
  const [searchParams, setSearchParams] = useSearchParams();

  const params = useMemo<ListParams>(
    () => ({
      page: parsePage(searchParams.get('page')),
      pageSize: parsePageSize(searchParams.get('limit')),
      query: searchParams.get('q') ?? '',
    }),
    [searchParams],
  );

  const update = useCallback(
    (changes: Record<string, string | null>, replace = false) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          Object.entries(changes).forEach(([key, value]) => {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          });
          return next;
        },
        { replace },
      );
    },
    [setSearchParams],
  );

  const setPage = useCallback((page: number, replace = false) => update({ page: String(page) }, replace), [update]);
  const setPageSize = useCallback((size: PageSize) => update({ limit: String(size), page: '1' }), [update]);
  // Typing replaces the history entry, so Back leaves the list rather than replaying keystrokes.
  const setQuery = useCallback((query: string) => update({ q: query, page: '1' }, true), [update]);

  return { params, setPage, setPageSize, setQuery };
}
