// A section of the order detail page: a titled box (a landmark named by its heading) and, for the field
// sections, the label/value rows that have a value. Rows stack under their labels on a phone.
import { Fragment, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { TimeText } from '../../../components/time-text';
import { useSignatureImage } from '../hooks/use-signature-image';
import type { DetailRow } from '../order-detail-fields';

interface DetailSectionProps {
  id: string;
  title: string;
  children: ReactNode;
}

export function DetailSection({ id, title, children }: DetailSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * The customer's signature as the image on file, in a light frame. The row's value (the image's storage key) is an
 * internal name and stays out of view.
 */
function SignatureValue({ orderId }: { orderId: string }) {
  const image = useSignatureImage(orderId);
  if (image.state === 'shown') {
    return (
      <Box
        component="img"
        src={image.url}
        alt="Customer's signature"
        sx={{
          display: 'block',
          maxWidth: 'min(320px, 100%)',
          maxHeight: 120,
          p: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'common.white',
        }}
      />
    );
  }
  const text = {
    loading: 'Loading the signature image…',
    missing: 'No signature image on file.',
    failed: 'The signature image could not be loaded.',
  }[image.state];
  return (
    <Typography component="span" variant="body2" color="text.secondary">
      {text}
    </Typography>
  );
}

function RowValue({ row, orderId }: { row: DetailRow; orderId: string }) {
  if (row.display === 'signature') return <SignatureValue orderId={orderId} />;
  return row.time ? <TimeText value={row.time} /> : row.value;
}

const alignOf = (row: DetailRow) => (row.display === 'signature' ? 'start' : undefined);

interface DetailRowsProps {
  rows: readonly DetailRow[];
  /** The order the rows belong to (the signature row loads its image by it). */
  orderId: string;
  pairsPerLine?: 1 | 2;
}

/** Label/value rows; two pairs a line on wide screens unless the labels are long questions. */
export function DetailRows({ rows, orderId, pairsPerLine = 2 }: DetailRowsProps) {
  if (rows.length === 0) {
    return <Typography color="text.secondary">No details given.</Typography>;
  }
  const pair = 'minmax(120px, 34%) minmax(0, 1fr)';
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          sm: pair,
          lg:
            pairsPerLine === 2
              ? 'repeat(2, minmax(110px, 180px) minmax(0, 1fr))'
              : 'minmax(160px, 420px) minmax(0, 1fr)',
        },
        columnGap: 2,
        rowGap: { xs: 0, sm: 1 },
        alignItems: 'baseline',
      }}
    >
      {rows.map((row) => (
        <Fragment key={row.key}>
          <Box
            component="dt"
            // An image has no text baseline: its label sits at its top, not level with its bottom edge.
            sx={{ color: 'text.secondary', fontSize: '0.875rem', mt: { xs: 1, sm: 0 }, alignSelf: alignOf(row) }}
          >
            {row.label}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere', alignSelf: alignOf(row) }}>
            <RowValue row={row} orderId={orderId} />
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}
