// "Viewed by" (issue 24, Admin and Manager): every read of this order's personal data on the record — who, when,
// what (the detail, a defence pack, the signature) and from where — newest first, ten at a time with Show more.
// A read is written within about a second, so the page's own opening shows on its next load.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AccessRecordRow } from '@eta/contracts';
import { ACCESS_KIND_LABELS } from '@eta/contracts/domain';
import { TableMessageRow } from '../../../components/table-message-row';
import { TimeText } from '../../../components/time-text';
import { useGetViewedByQuery } from '../api/access-records-api';
import { DetailSection } from './detail-section';

const HEADINGS = ['When', 'Who', 'What', 'From where'] as const;

const whatOf = (row: AccessRecordRow): string =>
  row.detail ? `${ACCESS_KIND_LABELS[row.kind]}: ${row.detail}` : ACCESS_KIND_LABELS[row.kind];

const whereOf = (row: AccessRecordRow): string => `${row.ip} (${row.browser} on ${row.os})`;

interface PageProps {
  orderId: string;
  cursor: string | undefined;
  isLast: boolean;
  onMore: (cursor: string) => void;
}

/** One page of reads as table rows; the last page ends with Show more while there are older reads. */
function ViewedByPage({ orderId, cursor, isLast, onMore }: PageProps) {
  const page = useGetViewedByQuery({ orderId, ...(cursor ? { cursor } : {}) });
  if (page.isError) {
    return (
      <TableMessageRow colSpan={HEADINGS.length} py={2}>
        Who viewed this order could not be loaded.
      </TableMessageRow>
    );
  }
  if (!page.data) {
    return (
      <TableMessageRow colSpan={HEADINGS.length} py={2}>
        Loading…
      </TableMessageRow>
    );
  }
  const { rows, next } = page.data;
  if (!cursor && rows.length === 0) {
    return (
      <TableMessageRow colSpan={HEADINGS.length} py={2}>
        Nobody has opened this order&apos;s personal data yet.
      </TableMessageRow>
    );
  }
  return (
    <>
      {rows.map((row) => (
        <TableRow key={row.id}>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            <TimeText value={row.at} />
          </TableCell>
          <TableCell>{row.staff_name}</TableCell>
          <TableCell>{whatOf(row)}</TableCell>
          <TableCell sx={{ overflowWrap: 'anywhere' }}>{whereOf(row)}</TableCell>
        </TableRow>
      ))}
      {isLast && next ? (
        <TableRow>
          <TableCell colSpan={HEADINGS.length} sx={{ textAlign: 'center' }}>
            <Button size="small" onClick={() => onMore(next)}>
              Show more
            </Button>
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

export function ViewedBySection({ orderId }: { orderId: string }) {
  // The cursors of the older pages shown, for this order (another order starts from its newest again).
  const [shown, setShown] = useState<{ orderId: string; cursors: string[] }>({ orderId, cursors: [] });
  const cursors = shown.orderId === orderId ? shown.cursors : [];
  const pages: (string | undefined)[] = [undefined, ...cursors];
  return (
    <DetailSection id="viewed-by" title="Viewed by">
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        Every opening of this order&apos;s personal data, newest first.
      </Typography>
      <TableContainer sx={{ overflowX: 'auto', containerType: 'inline-size', border: 1, borderColor: 'divider' }}>
        <Table size="small" aria-label="Viewed by">
          <TableHead>
            <TableRow>
              {HEADINGS.map((heading) => (
                <TableCell key={heading} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {heading}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {pages.map((cursor, index) => (
              <ViewedByPage
                key={cursor ?? 'newest'}
                orderId={orderId}
                cursor={cursor}
                isLast={index === pages.length - 1}
                onMore={(next) => setShown({ orderId, cursors: [...cursors, next] })}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </DetailSection>
  );
}
