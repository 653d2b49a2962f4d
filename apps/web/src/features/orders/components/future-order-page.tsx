// Future Order (spec §2): month tiles with counts; a month opens its orders (?month=N in the URL) with a Back button.
import { useSearchParams } from 'react-router';
import Button from '@mui/material/Button';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import RefreshIcon from '@mui/icons-material/Refresh';
import { QUEUES } from '@eta/contracts/domain';
import { PageHeader } from '../../../components/page-header';
import type { SessionUser } from '../../../lib/auth/session';
import { useGetFutureOrderCountsQuery } from '../api/orders-api';
import { futureMonthLabel } from '../future-month-label';
import { FutureMonthTiles } from './future-month-tiles';
import { OrderListView } from './order-list-view';

function parseMonth(value: string | null): number | undefined {
  const month = Number(value);
  return Number.isInteger(month) && month >= 1 && month <= 12 ? month : undefined;
}

export function FutureOrderPage({ user }: { user: SessionUser }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const month = parseMonth(searchParams.get('month'));
  const counts = useGetFutureOrderCountsQuery(undefined, {
    refetchOnMountOrArgChange: true,
    skip: month !== undefined,
  });
  const title = QUEUES.futureOrder.title;

  if (month !== undefined) {
    return (
      <OrderListView
        key={month}
        title={`${title} — ${futureMonthLabel(month)}`}
        queue="futureOrder"
        user={user}
        month={month}
        searchable={false}
        extraActions={
          <Button variant="outlined" startIcon={<ArrowBackIcon />} onClick={() => setSearchParams({})}>
            Back
          </Button>
        }
      />
    );
  }

  return (
    <>
      <PageHeader
        title={title}
        actions={
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => void counts.refetch()}>
            Refresh
          </Button>
        }
      />
      <FutureMonthTiles counts={counts.data} onSelect={(selected) => setSearchParams({ month: String(selected) })} />
    </>
  );
}
