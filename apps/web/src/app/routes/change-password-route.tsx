// Change Password, a lazy chunk of its own.
import { ChangePasswordPage } from '../../features/auth/components/change-password-page';
import { Allowed } from './staff-access';

export function ChangePasswordRoute() {
  return (
    <Allowed capability="changePassword" title="Change Password">
      <ChangePasswordPage />
    </Allowed>
  );
}
