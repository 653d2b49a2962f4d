// Sign-in & security (issue 34): the member's authenticator app and recovery codes, their sessions, and for an Admin
// the sign-in policy. Changes that take an account over ask for a recent proof first (useRecentProof).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from 'react-toastify';
import type { StaffType, TotpSetup } from '@eta/contracts';
import { STAFF_TYPES, can } from '@eta/contracts/domain';
import { PageHeader } from '../../../components/page-header';
import { TimeText } from '../../../components/time-text';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { CodeForm } from './code-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupCard } from './totp-setup-card';
import {
  useConfirmTotpMutation,
  useEndOtherSessionsMutation,
  useEndSessionMutation,
  useMySecurityQuery,
  useMySessionsQuery,
  useNewRecoveryCodesMutation,
  useRemoveTotpMutation,
  useSaveSignInPolicyMutation,
  useSignInPolicyQuery,
  useStartTotpMutation,
} from '../../../lib/auth/account-api';
import { useRecentProof } from '../../../lib/auth/use-recent-proof';
import { SessionsList } from '../../../components/sessions-list';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

type WithProof = ReturnType<typeof useRecentProof>['withProof'];

/** A change behind a recent proof; its failures were shown by the call (a toast in the server's words). */
async function attempt<T>(withProof: WithProof, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await withProof(call);
  } catch {
    return undefined;
  }
}

function AuthenticatorSection({ withProof }: { withProof: WithProof }) {
  const { data: security } = useMySecurityQuery();
  const [startTotp, { isLoading: starting }] = useStartTotpMutation();
  const [confirmTotp, { isLoading: confirming }] = useConfirmTotpMutation();
  const [removeTotp, { isLoading: removing }] = useRemoveTotpMutation();
  const [newCodes, { isLoading: making }] = useNewRecoveryCodesMutation();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  if (!security) return null;

  const start = async () => setSetup((await attempt(withProof, () => startTotp().unwrap())) ?? null);
  const confirm = async ({ code }: { code?: string }) => {
    try {
      setCodes(await confirmTotp({ code: code ?? '' }).unwrap());
      setSetup(null);
    } catch {
      // Shown by the call (a wrong code: try the next one the app shows).
    }
  };
  const remove = async () => {
    const message = await attempt(withProof, () => removeTotp().unwrap());
    if (message) toast.success(message);
  };
  const makeCodes = async () => setCodes((await attempt(withProof, () => newCodes().unwrap())) ?? null);

  return (
    <Section title="Authenticator app">
      <Stack gap={2}>
        {security.mfaRequired && !security.totpEnabled && (
          <Alert severity="warning">Your role must use a second factor: set up an authenticator app.</Alert>
        )}
        <Typography>
          {security.totpEnabled ? (
            <>
              <Chip label="On" color="success" size="small" sx={{ mr: 1 }} />
              Set up <TimeText value={security.totpEnrolledAt} />. Signing in asks for a code from the app.{' '}
              {security.recoveryCodesLeft} of 10 recovery codes left.
            </>
          ) : (
            <>
              <Chip label="Off" size="small" sx={{ mr: 1 }} />
              Signing in asks for your password only.
            </>
          )}
        </Typography>
        {codes ? (
          <RecoveryCodesPanel codes={codes} continueLabel="Done" onContinue={() => setCodes(null)} />
        ) : setup ? (
          <Stack gap={2} sx={{ maxWidth: 420 }}>
            <TotpSetupCard setup={setup} />
            <CodeForm
              allowRecoveryCode={false}
              isSubmitting={confirming}
              submitLabel="Confirm"
              onSubmit={confirm}
              onCancel={() => setSetup(null)}
            />
          </Stack>
        ) : (
          <Stack direction="row" gap={1} flexWrap="wrap">
            <Button variant="contained" disabled={starting} onClick={() => void start()}>
              {security.totpEnabled ? 'Move to a new phone' : 'Set up an authenticator app'}
            </Button>
            {security.totpEnabled && (
              <Button variant="outlined" disabled={making} onClick={() => void makeCodes()}>
                New recovery codes
              </Button>
            )}
            {security.totpEnabled && !security.mfaRequired && (
              <Button variant="outlined" color="error" disabled={removing} onClick={() => void remove()}>
                Remove
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </Section>
  );
}

function SessionsSection() {
  const { data: sessions } = useMySessionsQuery();
  const [endSession, { isLoading: ending }] = useEndSessionMutation();
  const [endOthers, { isLoading: endingOthers }] = useEndOtherSessionsMutation();
  const others = sessions?.filter((s) => !s.current && s.endedAt === null).length ?? 0;
  const run = async (call: () => Promise<string>) => {
    try {
      toast.success(await call());
    } catch {
      // Shown by the call.
    }
  };
  return (
    <Section title="Sessions">
      <Stack gap={2}>
        <Typography variant="body2" color="text.secondary">
          Every place you are signed in. End any you do not recognise, then change your password.
        </Typography>
        {sessions && (
          <SessionsList sessions={sessions} busy={ending} onEnd={(s) => void run(() => endSession(s.id).unwrap())} />
        )}
        <Button
          variant="outlined"
          color="error"
          disabled={endingOthers || others === 0}
          onClick={() => void run(() => endOthers().unwrap())}
          sx={{ alignSelf: 'flex-start' }}
        >
          End all other sessions
        </Button>
      </Stack>
    </Section>
  );
}

function SignInPolicySection({ withProof }: { withProof: WithProof }) {
  const { data: policy } = useSignInPolicyQuery();
  const [save, { isLoading }] = useSaveSignInPolicyMutation();
  const [roles, setRoles] = useState<StaffType[] | null>(null);
  if (!policy) return null;
  const chosen = roles ?? policy.mfaRoles;
  const toggle = (role: StaffType) =>
    setRoles(chosen.includes(role) ? chosen.filter((r) => r !== role) : [...chosen, role]);
  const submit = async () => {
    const saved = await attempt(withProof, () => save({ mfaRoles: chosen }).unwrap());
    if (saved) {
      setRoles(null);
      toast.success('Sign-in policy saved.');
    }
  };
  return (
    <Section title="Sign-in policy">
      <Stack gap={1.5}>
        <Typography variant="body2" color="text.secondary">
          Roles that must use a second factor. A member of such a role without one sets up an authenticator app right
          after their password. {policy.source === 'environment' ? 'Now from STAFF_MFA_ROLES.' : ''}
        </Typography>
        <FormGroup row>
          {STAFF_TYPES.map((role) => (
            <FormControlLabel
              key={role}
              control={<Checkbox checked={chosen.includes(role)} onChange={() => toggle(role)} />}
              label={role}
            />
          ))}
        </FormGroup>
        <Button
          variant="contained"
          disabled={isLoading || roles === null}
          onClick={() => void submit()}
          sx={{ alignSelf: 'flex-start' }}
        >
          Save policy
        </Button>
      </Stack>
    </Section>
  );
}

export function SecurityPage() {
  const user = useCurrentUser();
  const { withProof, proofDialog } = useRecentProof();
  return (
    <>
      <PageHeader title="Sign-in & Security" />
      <Stack gap={2} sx={{ maxWidth: 900 }}>
        <AuthenticatorSection withProof={withProof} />
        <SessionsSection />
        {user && can(user.type, 'manageSignIn') && <SignInPolicySection withProof={withProof} />}
      </Stack>
      {proofDialog}
    </>
  );
}
