// The guarded layout of every /admin page, a lazy chunk loaded alongside the page's own chunk.
import { Outlet, useLocation } from 'react-router';
import type { SessionUser } from '../../lib/auth/session';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { SignInPage } from '../../features/auth/components/sign-in-page';
import {
  useFolderCounts,
  useReloadFolderCountsOnRouteChange,
  useReplaceFolderCounts,
} from '../../features/folder-counts/hooks/use-folder-counts';
import { useLiveDesk } from '../../features/live-desk/hooks/use-live-desk';
import { StaffLayout } from '../../features/layout/components/staff-layout';
import type { StaffOutletContext } from './staff-access';

function SignedInShell({ user }: { user: SessionUser }) {
  const counts = useFolderCounts(user.name);
  useReloadFolderCountsOnRouteChange(user.name);
  // One live stream per tab while signed in; its counts move the menu and the tiles between navigations.
  useLiveDesk(useReplaceFolderCounts(user.name));
  const context: StaffOutletContext = { user };
  return (
    <StaffLayout user={user} counts={counts}>
      <Outlet context={context} />
    </StaffLayout>
  );
}

/** Every /admin page: signed out, sign-in shows in its place and comes back to it afterwards. */
export function StaffShell() {
  const user = useCurrentUser();
  const location = useLocation();
  if (!user) return <SignInPage redirectTo={`${location.pathname}${location.search}`} />;
  return <SignedInShell user={user} />;
}
