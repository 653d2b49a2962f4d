// Who is signed in: a stored session whose token decodes, while the auth state says signed in.
import { useAppSelector } from '../store';
import { useSessionUser, type SessionUser } from './session';

export function useCurrentUser(): SessionUser | null {
  const isAuth = useAppSelector((state) => state.auth.isAuth);
  const user = useSessionUser();
  return isAuth ? user : null;
}
