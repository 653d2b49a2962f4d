// Sign-in & Security (issue 34), a lazy chunk of its own: every member's own page.
import { SecurityPage } from '../../features/auth/components/security-page';

export function SecurityRoute() {
  return <SecurityPage />;
}
