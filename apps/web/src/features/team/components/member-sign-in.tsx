// A member's sign-in as whoever manages them sees it, under the member's edit form (issue 34): their sessions, each
// with End, and for an Admin "Reset second factor" (a lost phone: the factor goes, every session ends, and the next
// sign-in sets up a new app). Never shows a factor itself.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from 'react-toastify';
import type { TeamMember } from '@eta/contracts';
import { can } from '@eta/contracts/domain';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { SessionUser } from '../../../lib/auth/session';
import { useEndSessionMutation, useMemberSessionsQuery, useResetFactorsMutation } from '../../../lib/auth/account-api';
import { useRecentProof } from '../../../lib/auth/use-recent-proof';
import { SessionsList } from '../../../components/sessions-list';

export function MemberSignIn({ member, caller }: { member: TeamMember; caller: SessionUser }) {
  const sessions = useMemberSessionsQuery(member.id);
  const [endSession, ending] = useEndSessionMutation();
  const [resetFactors, resetting] = useResetFactorsMutation();
  const [asking, setAsking] = useState(false);
  const { withProof, proofDialog } = useRecentProof();

  const end = async (id: string) => {
    try {
      toast.success(await endSession(id).unwrap());
    } catch {
      // Shown by the call.
    }
  };
  const reset = async () => {
    setAsking(false);
    try {
      const message = await withProof(() => resetFactors(member.id).unwrap());
      if (message) toast.success(message);
    } catch {
      // Shown by the call.
    }
  };

  return (
    <Paper sx={{ p: 3, mt: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {member.name}: sign-in
      </Typography>
      <Stack gap={2}>
        {sessions.data && (
          <SessionsList sessions={sessions.data} busy={ending.isLoading} onEnd={(s) => void end(s.id)} />
        )}
        {can(caller.type, 'manageSignIn') && (
          <Button
            variant="outlined"
            color="error"
            disabled={resetting.isLoading}
            onClick={() => setAsking(true)}
            sx={{ alignSelf: 'flex-start' }}
          >
            Reset second factor
          </Button>
        )}
      </Stack>
      <ConfirmDialog
        open={asking}
        text={`Reset ${member.name}'s second factor? Their authenticator app and recovery codes stop working, they are signed out everywhere, and their next sign-in sets up a new app.`}
        busy={resetting.isLoading}
        onCancel={() => setAsking(false)}
        onConfirm={() => void reset()}
      />
      {proofDialog}
    </Paper>
  );
}
