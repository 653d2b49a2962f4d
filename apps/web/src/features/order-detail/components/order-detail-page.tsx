// The order detail page (spec §2 "Order detail", issues 7 and 8): the whole application in the spec's section
// order, its mails and documents, history, comments, the holder and the Move-to buttons, the evidence actions and
// the timeline. Every change sends the version the page shows; the order reloads after each one. The live desk
// (issue 23) shows who else is on the order and says when someone else changed it meanwhile.
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { OrderDetails, ProcessStatus } from '@eta/contracts';
import { can, STATUS_LABELS } from '@eta/contracts/domain';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { LateChip, UrgentChip } from '../../../components/order-timing-chips';
import { paths } from '../../../config/paths';
import type { ApiError } from '../../../lib/api';
import type { SessionUser } from '../../../lib/auth/session';
import { describeTimeInStatus, isOpenStatus } from '../../../lib/order-timing';
import {
  decodeOrderParam,
  nextOrderId,
  orderDetailPath,
  readOrderLinkState,
  recallOrderOrigin,
  rememberOrderOrigin,
  type OrderLinkState,
  type OrderListOrigin,
} from '../../../lib/order-links';
import { useAppDispatch } from '../../../lib/store';
import { reloadDisputes } from '../api/disputes-api';
import {
  detailTag,
  orderDetailApi,
  useAssignOrderMutation,
  useGetOrderDetailsQuery,
  useMoveOrderStatusMutation,
} from '../api/order-detail-api';
import { hasMailDueSoon, MAIL_POLL_MS } from '../delivery-rules';
import { reportChange, useConfirmedAction } from '../hooks/use-confirmed-action';
import { useDefencePack } from '../hooks/use-defence-pack';
import { usePresenceHeartbeat } from '../hooks/use-presence-heartbeat';
import { FIELD_SECTIONS, rowsWithValues } from '../order-detail-fields';
import { hasEvidenceActions, holderActions, moveOptions, type MoveOption } from '../order-detail-actions';
import { ActivityTimeline } from './activity-timeline';
import { AddCommentForm } from './add-comment-form';
import { ChargebackPanel } from './chargeback-panel';
import { CommentHistory } from './comment-history';
import { DeliverySections } from './delivery-sections';
import { DetailRows, DetailSection } from './detail-section';
import { EvidenceActions } from './evidence-actions';
import { DownloadHistoryTable } from './history-tables';
import { MailContentDialog } from './mail-content-dialog';
import { MoveToButtons } from './move-to-buttons';
import { OrderChangedNotice } from './order-changed-notice';
import { OrderHolder } from './order-holder';
import { OrderNotFound } from './order-not-found';
import { OrderPresenceLine } from './order-presence-line';
import { PersonalDataPanel } from './personal-data-panel';
import { TransactionDetailsDialog } from './transaction-details-dialog';
import { ViewedBySection } from './viewed-by-section';

/** The spec's confirmation texts for the holder actions (spec §8), as the queues use them. */
const ASSIGN_CONFIRM_TEXT = 'Are you sure want to assigned orders.';
const MOVE_TO_NEW_CONFIRM_TEXT = 'Are you sure want to move orders to new orders.';

/** Back goes to the list the order was opened from; else one step back in history; else the dashboard. */
function useBack(origin: OrderListOrigin | null) {
  const navigate = useNavigate();
  const { key } = useLocation();
  if (origin) return { label: `Back to ${origin.title}`, go: () => void navigate(origin.path) };
  if (key !== 'default') return { label: 'Back', go: () => void navigate(-1) };
  return { label: 'Back to Dashboard', go: () => void navigate(paths.dashboard) };
}

/**
 * The list the order was opened from: from the router's state when it came with the link, else as this tab
 * remembered it for this order (the page was reloaded), else null.
 */
function useOrderOrigin(orderId: string | null): OrderListOrigin | null {
  const { state } = useLocation();
  useEffect(() => {
    const linked = readOrderLinkState(state);
    if (orderId && linked) rememberOrderOrigin(orderId, linked);
  }, [orderId, state]);
  return readOrderLinkState(state) ?? (orderId ? recallOrderOrigin(orderId) : null);
}

export function OrderDetailPage({ user }: { user: SessionUser }) {
  const { encodedId } = useParams();
  const orderId = decodeOrderParam(encodedId);
  const origin = useOrderOrigin(orderId);
  const back = useBack(origin);
  if (!orderId) return <OrderNotFound orderId={null} backLabel={back.label} onBack={back.go} />;
  // A new order (Next order) starts with a fresh page: nothing typed or expanded carries over.
  return <OrderDetailView key={orderId} orderId={orderId} user={user} origin={origin} back={back} />;
}

interface OrderDetailViewProps {
  orderId: string;
  user: SessionUser;
  origin: OrderListOrigin | null;
  back: ReturnType<typeof useBack>;
}

function OrderDetailView({ orderId, user, origin, back }: OrderDetailViewProps) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [isMailDue, setIsMailDue] = useState(false);
  // While a mail is about to go out, the order reloads every few seconds until Email History shows it sent.
  const details = useGetOrderDetailsQuery(orderId, {
    refetchOnMountOrArgChange: true,
    pollingInterval: isMailDue ? MAIL_POLL_MS : 0,
  });
  const order = details.data;
  const isDueNow = order ? hasMailDueSoon(order.mailHistory) : false;
  if (isDueNow !== isMailDue) setIsMailDue(isDueNow);
  const error = details.error as ApiError | undefined;
  const [isEditingRemarks, setIsEditingRemarks] = useState(false);
  usePresenceHeartbeat(order ? orderId : null, isEditingRemarks ? 'editing-remarks' : 'viewing');

  if (!order && details.isFetching) return <PageLoader />;
  if (!order && error?.code === 'ORDER_NOT_FOUND') {
    return <OrderNotFound orderId={orderId} backLabel={back.label} onBack={back.go} />;
  }
  if (!order) {
    return (
      <>
        <PageHeader title={orderId} />
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void details.refetch()}>
              Try again
            </Button>
          }
        >
          The order could not be loaded. {error?.message ?? ''}
        </Alert>
      </>
    );
  }

  const next = nextOrderId(origin, String(order.order_id ?? orderId));
  const openNext = () => {
    if (!next || !origin) return;
    const state: OrderLinkState = { fromList: origin };
    void navigate(orderDetailPath(next), { state });
  };
  const reloadAfterChange = () => {
    dispatch(orderDetailApi.util.invalidateTags([detailTag(orderId)]));
    dispatch(reloadDisputes(orderId));
  };

  return (
    <>
      <PageHeader
        title={String(order.order_id ?? orderId)}
        actions={
          <>
            <Button variant="outlined" startIcon={<ArrowBackIcon />} onClick={back.go}>
              {back.label}
            </Button>
            {next ? (
              <Button variant="outlined" endIcon={<ArrowForwardIcon />} onClick={openNext}>
                Next order
              </Button>
            ) : null}
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              onClick={() => {
                void details.refetch();
                dispatch(reloadDisputes(orderId));
              }}
            >
              Refresh
            </Button>
          </>
        }
      />
      <OrderPresenceLine orderId={orderId} />
      <Box sx={{ height: 4, mb: 1 }}>
        {details.isFetching ? <LinearProgress aria-label="Reloading the order" /> : null}
      </Box>
      <OrderChangedNotice order={order} user={user} onReload={reloadAfterChange} />
      <OrderDetailContent
        order={order}
        user={user}
        openedAt={details.fulfilledTimeStamp}
        onEditingRemarksChange={setIsEditingRemarks}
      />
    </>
  );
}

interface OrderDetailContentProps {
  order: OrderDetails;
  user: SessionUser;
  /** When the order's detail was last answered: the reader's own opening, which "Viewed by" shows at once. */
  openedAt: number | undefined;
  onEditingRemarksChange: (isEditing: boolean) => void;
}

function OrderDetailContent({ order, user, openedAt, onEditingRemarksChange }: OrderDetailContentProps) {
  const orderId = String(order.order_id);
  const status = order.process_status as ProcessStatus;
  const [moveOrderStatus] = useMoveOrderStatusMutation();
  const [assignOrder] = useAssignOrderMutation();
  const action = useConfirmedAction();
  const [isTransactionOpen, setIsTransactionOpen] = useState(false);
  /** View Email Content: open on the order's latest approval mail (no id) or on a mail of Email History. */
  const [mailView, setMailView] = useState<{ mailId?: number } | null>(null);
  const defencePack = useDefencePack(orderId);
  const holder = holderActions(order, user);
  const { version } = order;

  const move = (option: MoveOption) =>
    action.request(option.confirmText, () =>
      reportChange(moveOrderStatus({ orderId, updatingStatus: option.status, version })),
    );
  const assign = (assignto: string, text: string) =>
    action.request(text, () => reportChange(assignOrder({ orderId, assignto, version })));

  return (
    <Stack gap={2}>
      <Paper variant="outlined" component="section" aria-label="Order summary" sx={{ p: { xs: 2, md: 3 } }}>
        <Stack direction="row" flexWrap="wrap" alignItems="center" gap={1} sx={{ mb: 1.5 }}>
          <Chip color="primary" label={`Status: ${STATUS_LABELS[status] ?? status}`} />
          {order.processing_type ? <Chip variant="outlined" label={`Processing: ${order.processing_type}`} /> : null}
          {isOpenStatus(status) ? (
            <Typography variant="body2" component="span" data-testid="time-in-status">
              {describeTimeInStatus(status, order.timing.status_since)}
            </Typography>
          ) : null}
          <UrgentChip timing={order.timing} />
          <LateChip timing={order.timing} processingType={String(order.processing_type ?? '')} />
        </Stack>
        <OrderHolder
          order={order}
          actions={holder}
          disabled={action.isBusy}
          onAssignToMe={() => assign(user.name, ASSIGN_CONFIRM_TEXT)}
          onAssignTo={(name) => assign(name, `Are you sure want to assign this order to ${name}?`)}
          onMoveToNew={() => assign('', MOVE_TO_NEW_CONFIRM_TEXT)}
        />
      </Paper>

      <PersonalDataPanel order={order} role={user.type} />
      <ChargebackPanel orderId={orderId} role={user.type} />
      <DeliverySections order={order} onViewMail={(mailId) => setMailView({ mailId })} />
      {FIELD_SECTIONS.map((section) => (
        <DetailSection key={section.id} id={section.id} title={section.title}>
          <DetailRows
            rows={rowsWithValues(section, order)}
            orderId={orderId}
            pairsPerLine={section.id === 'background' ? 1 : 2}
          />
        </DetailSection>
      ))}
      <DetailSection id="download-history" title="Download History">
        <DownloadHistoryTable downloads={order.downloadHistory} />
      </DetailSection>
      <DetailSection id="comment-history" title="Comment History">
        <CommentHistory remarks={order.remark} />
      </DetailSection>
      <DetailSection id="add-comment" title="Add Comment Below">
        <AddCommentForm orderId={orderId} userName={user.name} onEditingChange={onEditingRemarksChange} />
        <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1 }}>
          Move to
        </Typography>
        <MoveToButtons
          options={moveOptions(status, user.type, order.uploadDoc.length > 0)}
          disabled={action.isBusy}
          onMove={move}
        />
      </DetailSection>
      <DetailSection id="order-actions" title="Actions">
        <EvidenceActions
          showEvidence={hasEvidenceActions(status)}
          onViewEmail={() => setMailView({})}
          onDefencePack={defencePack.open}
          pendingPack={defencePack.pending}
          onEnterTransaction={() => setIsTransactionOpen(true)}
        />
      </DetailSection>
      <DetailSection id="activity" title="Activity">
        <ActivityTimeline
          activity={order.activity}
          recordsPath={
            can(user.type, 'viewActivity') ? `${paths.activity}?orderId=${encodeURIComponent(orderId)}` : undefined
          }
        />
      </DetailSection>
      {can(user.type, 'viewAccessRecords') ? (
        <ViewedBySection
          orderId={orderId}
          opening={openedAt === undefined ? undefined : { at: openedAt, reader: user }}
        />
      ) : null}

      <ConfirmDialog {...action.confirmDialog} />
      {mailView ? (
        <MailContentDialog orderId={orderId} mailId={mailView.mailId} onClose={() => setMailView(null)} />
      ) : null}
      {hasEvidenceActions(status) ? (
        <TransactionDetailsDialog
          open={isTransactionOpen}
          orderId={orderId}
          version={version}
          transactionId={typeof order.transaction_id === 'string' ? order.transaction_id : undefined}
          merchantName={typeof order.merchant_name === 'string' ? order.merchant_name : undefined}
          onClose={() => setIsTransactionOpen(false)}
        />
      ) : null}
    </Stack>
  );
}
