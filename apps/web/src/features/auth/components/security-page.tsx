// Sign-in & security (issue 34): the member's authenticator app and recovery codes, their sessions, and for an Admin
// the sign-in policy. Changes that take an account over ask for a recent proof first (useRecentProof).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { toast } from 'react-toastify';
import type { SignInPolicyBody, StaffType, TotpSetup } from '@eta/contracts';
import { STAFF_TYPES, can } from '@eta/contracts/domain';
import { PageHeader } from '../../../components/page-header';
import { TimeText } from '../../../components/time-text';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { CodeForm } from './code-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupCard } from './totp-setup-card';
import { makePasskey, passkeysSupported } from '../../../lib/auth/passkeys';
import {
  useAddPasskeyMutation,
  usePasskeyOptionsMutation,
  useRemovePasskeyMutation,
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
        {security.mfaRequired && !security.totpEnabled && security.passkeys.length === 0 && (
          <Alert severity="warning">
            Your role must use a second factor: set up an authenticator app or a passkey.
          </Alert>
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
              {security.passkeys.length > 0
                ? `Signing in asks for a passkey. ${security.recoveryCodesLeft} of 10 recovery codes left.`
                : 'Signing in asks for your password only.'}
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
            {(security.totpEnabled || security.passkeys.length > 0) && (
              <Button variant="outlined" disabled={making} onClick={() => void makeCodes()}>
                New recovery codes
              </Button>
            )}
            {security.totpEnabled && (!security.mfaRequired || security.passkeys.length > 0) && (
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

function PasskeysSection({ withProof }: { withProof: WithProof }) {
  const { data: security } = useMySecurityQuery();
  const [passkeyOptions, { isLoading: preparing }] = usePasskeyOptionsMutation();
  const [addPasskey, { isLoading: adding }] = useAddPasskeyMutation();
  const [removePasskey, { isLoading: removing }] = useRemovePasskeyMutation();
  const [name, setName] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  if (!security) return null;
  const supported = passkeysSupported();

  const add = async () => {
    const options = await attempt(withProof, () => passkeyOptions().unwrap());
    if (!options) return;
    const outcome = await makePasskey(options);
    if ('failure' in outcome) {
      toast.error(outcome.failure);
      return;
    }
    try {
      const { challenge } = options as { challenge: string };
      const added = await addPasskey({ challenge, name: name.trim(), response: outcome.answer }).unwrap();
      toast.success(`Passkey "${added.passkey.name}" added.`);
      setName('');
      if (added.recoveryCodes) setCodes(added.recoveryCodes);
    } catch {
      // Shown by the call.
    }
  };
  const remove = async (id: string) => {
    const message = await attempt(withProof, () => removePasskey(id).unwrap());
    if (message) toast.success(message);
  };

  return (
    <Section title="Passkeys">
      <Stack gap={2}>
        <Typography variant="body2" color="text.secondary">
          A passkey lives on this computer, your phone or a security key, and signs in with your fingerprint, face or
          PIN: nothing to type, and it cannot be phished.
          {security.passwordlessPasskeys ? ' Here a passkey can sign you in without your password.' : ''}
        </Typography>
        {codes && <RecoveryCodesPanel codes={codes} continueLabel="Done" onContinue={() => setCodes(null)} />}
        {security.passkeys.length > 0 ? (
          <List aria-label="Passkeys" disablePadding>
            {security.passkeys.map((passkey) => (
              <ListItem
                key={passkey.id}
                divider
                disableGutters
                sx={{ gap: 1, flexWrap: 'wrap', justifyContent: 'space-between' }}
              >
                <span>
                  <Typography component="span" fontWeight={600}>
                    {passkey.name}
                  </Typography>
                  <Typography component="span" variant="body2" color="text.secondary" display="block">
                    Added <TimeText value={passkey.createdAt} />
                    {' · '}
                    {passkey.lastUsedAt ? (
                      <>
                        last used <TimeText value={passkey.lastUsedAt} />
                      </>
                    ) : (
                      'not used yet'
                    )}
                  </Typography>
                </span>
                <Button size="small" color="error" disabled={removing} onClick={() => void remove(passkey.id)}>
                  Remove
                </Button>
              </ListItem>
            ))}
          </List>
        ) : (
          <Typography>No passkeys yet.</Typography>
        )}
        {supported ? (
          <Stack
            component="form"
            direction={{ xs: 'column', sm: 'row' }}
            gap={1}
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <TextField
              label="Passkey name"
              placeholder="Work laptop"
              size="small"
              value={name}
              onChange={(event) => setName(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 60 } }}
            />
            <Button type="submit" variant="contained" disabled={preparing || adding || name.trim() === ''}>
              Add a passkey
            </Button>
          </Stack>
        ) : (
          <Alert severity="info">This browser cannot make passkeys.</Alert>
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

function RoleBoxes({
  chosen,
  disabled = false,
  onChange,
}: {
  chosen: readonly StaffType[];
  disabled?: boolean;
  onChange: (roles: StaffType[]) => void;
}) {
  return (
    <FormGroup row>
      {STAFF_TYPES.map((role) => (
        <FormControlLabel
          key={role}
          disabled={disabled}
          control={
            <Checkbox
              checked={chosen.includes(role)}
              onChange={() => onChange(chosen.includes(role) ? chosen.filter((r) => r !== role) : [...chosen, role])}
            />
          }
          label={role}
        />
      ))}
    </FormGroup>
  );
}

function SignInPolicySection({ withProof }: { withProof: WithProof }) {
  const { data: policy } = useSignInPolicyQuery();
  const [save, { isLoading }] = useSaveSignInPolicyMutation();
  const [draft, setDraft] = useState<Required<SignInPolicyBody> | null>(null);
  if (!policy) return null;
  const current: Required<SignInPolicyBody> = draft ?? {
    mfaRoles: policy.mfaRoles,
    passwordlessPasskeys: policy.passwordlessPasskeys,
    ssoRoles: policy.ssoRoles,
    ssoCreateDomain: policy.ssoCreateDomain ?? '',
  };
  const change = (part: Partial<SignInPolicyBody>) => setDraft({ ...current, ...part });
  const submit = async () => {
    const body = { ...current, ssoCreateDomain: current.ssoCreateDomain?.trim() || null };
    const saved = await attempt(withProof, () => save(body).unwrap());
    if (saved) {
      setDraft(null);
      toast.success('Sign-in policy saved.');
    }
  };
  const sso = policy.sso;
  return (
    <Section title="Sign-in policy">
      <Stack gap={1.5}>
        <Typography variant="body2" color="text.secondary">
          Roles that must use a second factor. A member of such a role without one sets up an authenticator app right
          after their password. {policy.source === 'environment' ? 'Now from STAFF_MFA_ROLES.' : ''}
        </Typography>
        <RoleBoxes chosen={current.mfaRoles} onChange={(mfaRoles) => change({ mfaRoles })} />
        <FormControlLabel
          control={
            <Checkbox
              checked={current.passwordlessPasskeys}
              onChange={(event) => change({ passwordlessPasskeys: event.target.checked })}
            />
          }
          label="A passkey alone may sign in (no password: the device checks its owner's fingerprint, face or PIN)"
        />
        <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
          Single sign-on{sso.configured ? ` with ${sso.name}` : ''}
        </Typography>
        {sso.configured ? (
          <Typography variant="body2" color="text.secondary">
            Roles that must sign in with {sso.name}: their password no longer signs them in. To require it for Admins,
            sign in with {sso.name} first.
          </Typography>
        ) : (
          <Alert severity="info">
            Single sign-on is not set up on this server: set SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET.
          </Alert>
        )}
        <RoleBoxes chosen={current.ssoRoles} disabled={!sso.configured} onChange={(ssoRoles) => change({ ssoRoles })} />
        <TextField
          label="Give a Team account at the first sign-in to e-mail domain"
          placeholder="example.com"
          size="small"
          disabled={!sso.configured}
          value={current.ssoCreateDomain ?? ''}
          onChange={(event) => change({ ssoCreateDomain: event.target.value })}
          helperText="Empty: single sign-on signs in existing members only."
          sx={{ maxWidth: 460 }}
        />
        <Button
          variant="contained"
          disabled={isLoading || draft === null}
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
        <PasskeysSection withProof={withProof} />
        <SessionsSection />
        {user && can(user.type, 'manageSignIn') && <SignInPolicySection withProof={withProof} />}
      </Stack>
      {proofDialog}
    </>
  );
}
