// '/', a lazy chunk of its own: the sign-in page only, so the console's first screen does not carry the shell.
import { Navigate } from 'react-router';
import { paths } from '../../config/paths';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { SignInPage } from '../../features/auth/components/sign-in-page';
import { SsoCallbackPage } from '../../features/auth/components/sso-callback-page';

/** '/': sign-in while signed out, the dashboard once signed in (DESIGN §7). */
export function EntryRoute() {
  const user = useCurrentUser();
  return user ? <Navigate to={paths.dashboard} replace /> : <SignInPage redirectTo={paths.dashboard} />;
}

/** /login/sso: the single sign-on provider's answer, finished here (issue 34). */
export function SsoCallbackRoute() {
  return <SsoCallbackPage />;
}
