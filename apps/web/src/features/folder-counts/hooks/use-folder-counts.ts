import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import type { FolderCountsPayload } from '@eta/contracts';
import { useAppDispatch } from '../../../lib/store';
import { replaceFolderCounts, useGetFolderCountsQuery } from '../api/folder-counts-api';

export function useFolderCounts(userName: string): FolderCountsPayload | undefined {
  return useGetFolderCountsQuery(userName).data ?? undefined;
}

/** Reloads the counts on every route change (spec §2 "Counts reload ... on every route change"). */
export function useReloadFolderCountsOnRouteChange(userName: string): void {
  const { refetch } = useGetFolderCountsQuery(userName);
  const { pathname } = useLocation();
  const previousPathname = useRef(pathname);

  useEffect(() => {
    // The first render loads the counts already; only later route changes need a reload.
    if (pathname === previousPathname.current) return;
    previousPathname.current = pathname;
    void refetch();
  }, [pathname, refetch]);
}

/** Puts counts that arrived some other way (the live desk's stream) in the cache the menu and tiles read. */
export function useReplaceFolderCounts(userName: string): (counts: FolderCountsPayload) => void {
  const dispatch = useAppDispatch();
  return useCallback(
    (counts: FolderCountsPayload) => void dispatch(replaceFolderCounts(userName, counts)),
    [dispatch, userName],
  );
}
