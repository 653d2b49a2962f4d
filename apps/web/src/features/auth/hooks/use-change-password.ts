// Change password (spec §4): success removes the stored user and sends the user to sign in again.
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { changePassword } from '../../../lib/auth/auth-slice';
import { hasStoredUser } from '../../../lib/auth/session';
import { useAppDispatch } from '../../../lib/store';
import { paths } from '../../../config/paths';

export function useChangePassword() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [isSaving, setIsSaving] = useState(false);

  const updatePassword = useCallback(
    async (newPassword: string) => {
      setIsSaving(true);
      const result = await dispatch(changePassword({ newPassword }));
      setIsSaving(false);
      if (changePassword.rejected.match(result)) {
        toast.error(result.error.message ?? 'The password could not be changed.');
        return;
      }
      const body = result.payload;
      if (body.status === 1) {
        toast.success(body.message ?? 'Password changed. Please sign in again.');
        void navigate(paths.entry, { replace: true });
      } else if (hasStoredUser()) {
        // Without a stored user the session has just expired, and the HTTP layer has said so already.
        toast.error(body.message ?? 'The password could not be changed.');
      }
    },
    [dispatch, navigate],
  );

  return { updatePassword, isSaving };
}
