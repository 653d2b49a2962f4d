// The order's chargebacks (issue 21), newest first: what the gateway says (dispute id, reason, amount, status, due
// date, outcome), what the desk sent and who sent it, and each dispute's history. Admins and Managers answer the
// newest one with Submit evidence until it is submitted or decided. Shown only when the order has a dispute.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import GavelIcon from '@mui/icons-material/Gavel';
import type { Dispute, DisputeHistoryEntry, StaffType } from '@eta/contracts';
import { can } from '@eta/contracts/domain';
import { dueState, EvidenceDueChip } from '../../../components/evidence-due-chip';
import type { ApiError } from '../../../lib/api';
import { formatAmount, formatGatewayCode, formatUtcDate, formatUtcDateTime } from '../../../lib/format';
import { useGetDisputesQuery } from '../api/disputes-api';
import type { DetailRow } from '../order-detail-fields';
import { TimedList } from './activity-timeline';
import { DetailRows, DetailSection } from './detail-section';
import { SubmitEvidenceDialog } from './submit-evidence-dialog';

function dueText(dispute: Dispute): string {
  if (!dispute.evidence_due_by) return 'Not given';
  const state = dueState({ ...dispute, evidence_state: null, outcome: null });
  return `${formatUtcDate(dispute.evidence_due_by)}${state && !dispute.outcome ? ` (${state.label})` : ''}`;
}

function outcomeText(dispute: Dispute): string {
  if (!dispute.outcome) return 'Not decided yet';
  const when = dispute.outcome_at ? ` on ${formatUtcDate(dispute.outcome_at)}` : '';
  return `${dispute.outcome === 'won' ? 'Won' : 'Lost'}${when}`;
}

function evidenceText(dispute: Dispute): string {
  if (!dispute.evidence_state) return dispute.outcome ? 'None sent from the desk' : 'Not sent yet';
  const pack = dispute.evidence_pack_type ? ` (defence pack ${dispute.evidence_pack_type})` : '';
  const by = dispute.evidence_by ? ` by ${dispute.evidence_by}` : '';
  const at = dispute.evidence_at ? ` on ${formatUtcDateTime(dispute.evidence_at)} UTC` : '';
  return dispute.evidence_state === 'submitted'
    ? `Submitted for review${by}${at}${pack}`
    : `Draft saved at ${dispute.gateway_name}${by}${at}${pack}`;
}

function disputeRows(dispute: Dispute): DetailRow[] {
  return [
    { key: 'gateway', label: 'Gateway', value: dispute.gateway_name },
    { key: 'dispute', label: 'Dispute id', value: dispute.dispute_id },
    { key: 'reason', label: 'Reason', value: formatGatewayCode(dispute.reason) },
    { key: 'amount', label: 'Amount', value: formatAmount(dispute.amount_cents, dispute.currency) },
    { key: 'status', label: 'Status', value: formatGatewayCode(dispute.status) },
    { key: 'opened', label: 'Opened', value: `${formatUtcDateTime(dispute.created_at)} UTC`, time: dispute.created_at },
    { key: 'due', label: 'Evidence due', value: dueText(dispute) },
    { key: 'outcome', label: 'Outcome', value: outcomeText(dispute) },
    { key: 'evidence', label: 'Evidence', value: evidenceText(dispute) },
  ];
}

function DisputeHistory({ history }: { history: readonly DisputeHistoryEntry[] }) {
  return (
    <TimedList
      label="Dispute history, oldest first"
      items={history}
      empty="No history yet."
      render={(entry) => (
        <>
          <strong>{entry.by}</strong> {entry.note}{' '}
          <Box component="span" sx={{ color: 'text.secondary' }}>
            ({formatGatewayCode(entry.status)}
            {entry.outcome ? `, ${entry.outcome}` : ''})
          </Box>
        </>
      )}
    />
  );
}

interface DisputeCardProps {
  orderId: string;
  dispute: Dispute;
  /** The newest dispute: the one the desk answers. */
  isAnswerable: boolean;
  role: StaffType;
  onSubmitEvidence: () => void;
}

function DisputeCard({ orderId, dispute, isAnswerable, role, onSubmitEvidence }: DisputeCardProps) {
  const isOpen = isAnswerable && dispute.evidence_state !== 'submitted' && !dispute.outcome;
  const mayAnswer = can(role, 'submitEvidence');
  return (
    <Box component="article" aria-label={`Dispute ${dispute.dispute_id}`}>
      <Stack
        direction="row"
        alignItems="center"
        justifyContent="space-between"
        gap={1}
        flexWrap="wrap"
        sx={{ mb: 1.5 }}
      >
        <Stack direction="row" alignItems="center" gap={0.5} flexWrap="wrap">
          <Chip
            size="small"
            variant="outlined"
            label={`${dispute.gateway_name}: ${formatGatewayCode(dispute.status)}`}
          />
          <EvidenceDueChip dispute={dispute} />
        </Stack>
        {isOpen && mayAnswer ? (
          <Button variant="contained" startIcon={<GavelIcon />} onClick={onSubmitEvidence}>
            Submit evidence
          </Button>
        ) : null}
      </Stack>
      {isOpen && !mayAnswer ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          An Admin or a Manager sends the evidence for this dispute.
        </Typography>
      ) : null}
      <DetailRows rows={disputeRows(dispute)} orderId={orderId} />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 0.5 }}>
        History
      </Typography>
      <DisputeHistory history={dispute.history} />
    </Box>
  );
}

export function ChargebackPanel({ orderId, role }: { orderId: string; role: StaffType }) {
  const disputes = useGetDisputesQuery(orderId, { refetchOnMountOrArgChange: true });
  const [answering, setAnswering] = useState<Dispute | null>(null);
  const error = disputes.error as ApiError | undefined;

  if (!disputes.data) {
    // Most orders have no dispute: nothing shows while it loads; a failure says so, as a line of its own.
    if (!error || error.code === 'ORDER_NOT_FOUND') return null;
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={() => void disputes.refetch()}>
            Try again
          </Button>
        }
      >
        The order&apos;s chargebacks could not be loaded. {error.message}
      </Alert>
    );
  }
  if (disputes.data.length === 0) return null;

  return (
    <DetailSection id="chargeback" title="Chargeback">
      <Stack gap={3} divider={<Divider flexItem />}>
        {disputes.data.map((dispute, index) => (
          <DisputeCard
            key={dispute.dispute_id}
            orderId={orderId}
            dispute={dispute}
            isAnswerable={index === 0}
            role={role}
            onSubmitEvidence={() => setAnswering(dispute)}
          />
        ))}
      </Stack>
      {answering ? (
        <SubmitEvidenceDialog orderId={orderId} dispute={answering} onClose={() => setAnswering(null)} />
      ) : null}
    </DetailSection>
  );
}
