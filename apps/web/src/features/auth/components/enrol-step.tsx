// Setting up an app at sign-in, when the sign-in policy asks this member's role for a second factor they do not have
// yet (issue 34): the desk makes a secret for the challenge, the member scans it and confirms with a first code.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import type { TotpSetup } from '@eta/contracts';
import { envelopeDataOf, isSuccess, messageOf, sendRequest } from '../../../lib/http';
import { CodeForm } from './code-form';
import { TotpSetupCard } from './totp-setup-card';

interface EnrolStepProps {
  challenge: string;
  isSubmitting: boolean;
  onSubmit: (proof: { code?: string }) => Promise<void>;
  onCancel: () => void;
}

export function EnrolStep({ challenge, isSubmitting, onSubmit, onCancel }: EnrolStepProps) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void sendRequest({ url: 'admin/login-enrol', method: 'POST', body: { challenge }, staff: false }).then(
      (outcome) => {
        if (!live) return;
        if (isSuccess(outcome)) setSetup(envelopeDataOf(outcome.body) as TotpSetup);
        else setFailure(messageOf(outcome.body) ?? 'The set-up could not start. Please sign in again.');
      },
    );
    return () => {
      live = false;
    };
  }, [challenge]);

  if (failure) {
    return (
      <Stack gap={2} alignItems="flex-start">
        <Alert severity="error">{failure}</Alert>
        <Button onClick={onCancel}>Back to sign in</Button>
      </Stack>
    );
  }
  if (!setup) return <CircularProgress aria-label="Preparing your authenticator app" />;
  return (
    <Stack gap={2.5}>
      <Alert severity="info">
        Your role must use a second factor. Set up an authenticator app to finish signing in.
      </Alert>
      <TotpSetupCard setup={setup} />
      <CodeForm
        allowRecoveryCode={false}
        isSubmitting={isSubmitting}
        submitLabel="Confirm and sign in"
        onSubmit={onSubmit}
        onCancel={onCancel}
      />
    </Stack>
  );
}
