// What every page inside the staff shell reads: the signed-in user (handed down by StaffShell) and the capability
// guard. Imported by the page modules, not by the router, so it loads with the first page that needs it.
import type { ReactNode } from 'react';
import { useOutletContext } from 'react-router';
import Alert from '@mui/material/Alert';
import type { Capability } from '@eta/contracts';
import { can } from '@eta/contracts/domain';
import { PageHeader } from '../../components/page-header';
import type { SessionUser } from '../../lib/auth/session';

export interface StaffOutletContext {
  user: SessionUser;
}

export function useStaffUser(): SessionUser {
  return useOutletContext<StaffOutletContext>().user;
}

/** The page when the signed-in role holds the capability, else a refusal without any request for its data. */
export function Allowed({
  capability,
  title,
  children,
}: {
  capability?: Capability;
  title: string;
  children: ReactNode;
}) {
  const user = useStaffUser();
  if (!capability || can(user.type, capability)) return children;
  return (
    <>
      <PageHeader title={title} />
      <Alert severity="warning">You do not have access to this page.</Alert>
    </>
  );
}
