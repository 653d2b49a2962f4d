// Track order (spec §2 "Public routes", §5): Order ID and Email ID find the order, then its download page.
import { useNavigate, useParams } from 'react-router';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormTextField } from '../../../components/form-text-field';
import { PageTitle } from '../../../components/page-title';
import { paths } from '../../../config/paths';
import { useTrackOrderMutation, type TrackOrderBody } from '../api/portal-api';
import { useLandingSite, useWithSite } from '../hooks/use-landing-site';

export const TRACK_ORDER_TITLE = 'Download your Electronic Travel Authorization (eTA)';

function supportHref(contact: string): string {
  return contact.includes('@') ? `mailto:${contact.trim()}` : '#site-footer';
}

export function TrackOrderPage() {
  const { orderId = '' } = useParams();
  const site = useLandingSite();
  const withSite = useWithSite();
  const navigate = useNavigate();
  const [trackOrder, { isLoading }] = useTrackOrderMutation();
  const { control, handleSubmit } = useForm<TrackOrderBody>({ defaultValues: { orderId, email: '' } });

  const submit = async (values: TrackOrderBody) => {
    const body = { orderId: values.orderId.trim(), email: values.email.trim() };
    try {
      const response = await trackOrder(body).unwrap();
      toast.success(response.message);
      void navigate(withSite(paths.orderDownload.build(body.orderId)), { state: { email: body.email } });
    } catch {
      // The API layer has shown the server's message.
    }
  };

  return (
    <Paper sx={{ p: { xs: 2, sm: 4 }, maxWidth: 640, mx: 'auto' }}>
      <PageTitle title="Track your order" />
      <Typography variant="h5" component="h1" gutterBottom>
        {TRACK_ORDER_TITLE}
      </Typography>
      <Stack component="form" noValidate gap={2.5} onSubmit={(event) => void handleSubmit(submit)(event)}>
        <FormTextField
          control={control}
          name="orderId"
          label="Order ID"
          fullWidth
          rules={{ required: 'Please enter your orderId' }}
        />
        <FormTextField
          control={control}
          name="email"
          label="Email ID"
          type="email"
          autoComplete="email"
          fullWidth
          rules={{ required: 'Please enter your email' }}
        />
        <Stack direction="row" alignItems="center" justifyContent="space-between" gap={2} flexWrap="wrap">
          <Button type="submit" variant="contained" size="large" disabled={isLoading}>
            TRACK ORDER
          </Button>
          <Link href={supportHref(site.footer_contact)}>Contact Support</Link>
        </Stack>
      </Stack>
    </Paper>
  );
}
