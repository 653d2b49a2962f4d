// Change password (spec §4): success removes the stored user and sends the user to sign in again. The current
// password is checked first (issue 34: a recent proof), so a wrong one changes nothing.
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { changePassword } from '../../../lib/auth/auth-slice';
import { hasStoredUser } from '../../../lib/auth/session';
import { useAppDispatch } from '../../../lib/store';
import { paths } from '../../../config/paths';
import type { ApiError } from '../../../lib/api';
import { useConfirmIdentityMutation } from '../../../lib/auth/account-api';

export function useChangePassword() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [isSaving, setIsSaving] = useState(false);

  const [confirmIdentity] = useConfirmIdentityMutation();

  const updatePassword = useCallback(
    async (currentPassword: string, newPassword: string) => {
      setIsSaving(true);
      try {
        await confirmIdentity({ password: currentPassword }).unwrap();
      } catch (error) {
        setIsSaving(false);
        toast.error((error as ApiError).message);
        return;
      }
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
    [confirmIdentity, dispatch, navigate],
  );

  return { updatePassword, isSaving };
}
