// Logout of spec §2 (header dropdown and side menu): revokes the token, clears the stored user, resets the auth
// state and goes to '/'.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useAppDispatch } from '../store';
import { logout } from './auth-slice';

export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    dispatch(logout());
    void navigate(paths.entry, { replace: true });
  }, [dispatch, navigate]);
}
