// The order's download page (spec §2): success message, Download Now (disabled until a file exists) and the
// Downloaded History. The download itself is a later issue; a failed history call leaves an empty table.
import { useLocation, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { toast } from 'react-toastify';
import { PageTitle } from '../../../components/page-title';
import { useGetDownloadHistoryQuery } from '../api/portal-api';
import { DownloadHistoryTable } from './download-history-table';

function emailFromState(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('email' in state)) return undefined;
  return typeof state.email === 'string' ? state.email : undefined;
}

export function OrderDownloadPage() {
  const { orderId = '' } = useParams();
  const email = emailFromState(useLocation().state);
  const history = useGetDownloadHistoryQuery({ orderId, email });
  const fileName = history.data?.fileName ?? null;

  return (
    <Stack gap={3}>
      <PageTitle title="Download your eTA" />
      <Typography variant="h5" component="h1">
        Download your Electronic Travel Authorization (eTA)
      </Typography>
      <Alert severity="success">
        Your order {orderId} has been found. Your Electronic Travel Authorization can be downloaded from this page once
        it is ready.
      </Alert>
      <div>
        <Button
          variant="contained"
          startIcon={<DownloadIcon />}
          disabled={!fileName}
          onClick={() => toast.info('Downloading is not available yet. Please try again later.')}
        >
          Download Now
        </Button>
      </div>
      <Typography variant="h6" component="h2">
        Downloaded History
      </Typography>
      <DownloadHistoryTable rows={history.data?.rows ?? []} isLoading={history.isLoading} />
    </Stack>
  );
}
