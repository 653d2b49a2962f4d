// A section of the order detail page: a titled box (a landmark named by its heading) and, for the field
// sections, the label/value rows that have a value. Rows stack under their labels on a phone.
import { Fragment, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
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

function RowValue({ row }: { row: DetailRow }) {
  if (row.display !== 'signature') return row.value;
  return (
    <>
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        {row.value}
      </Box>
      <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
        The signature image opens here once document delivery is built.
      </Typography>
    </>
  );
}

/** Label/value rows; two pairs a line on wide screens unless the labels are long questions. */
export function DetailRows({ rows, pairsPerLine = 2 }: { rows: readonly DetailRow[]; pairsPerLine?: 1 | 2 }) {
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
          <Box component="dt" sx={{ color: 'text.secondary', fontSize: '0.875rem', mt: { xs: 1, sm: 0 } }}>
            {row.label}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            <RowValue row={row} />
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}
