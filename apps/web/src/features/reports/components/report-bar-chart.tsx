// A horizontal bar chart of a report's rows, drawn with plain boxes (no chart library: the console's bundle
// stays small). Bars are scaled to the largest value shown; each row is labelled with its name and value.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export interface Bar {
  label: string;
  value: number;
}

export function ReportBarChart({ title, bars }: { title: string; bars: Bar[] }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <Box component="figure" aria-label={title} sx={{ m: 0 }}>
      <Typography component="figcaption" variant="subtitle2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {bars.length === 0 ? (
        <Typography color="text.secondary">No records found</Typography>
      ) : (
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.75 }}>
          {bars.map((bar, i) => (
            <Box
              component="li"
              key={`${bar.label}-${i}`}
              sx={{ display: 'grid', gridTemplateColumns: 'minmax(6rem, 35%) 1fr auto', alignItems: 'center', gap: 1 }}
            >
              <Typography variant="body2" noWrap title={bar.label}>
                {bar.label}
              </Typography>
              <Box sx={{ bgcolor: 'action.hover', borderRadius: 0.5, height: 14 }}>
                <Box
                  data-testid="bar"
                  sx={{
                    width: `${(bar.value / max) * 100}%`,
                    minWidth: bar.value > 0 ? 2 : 0,
                    height: '100%',
                    bgcolor: 'primary.main',
                    borderRadius: 0.5,
                  }}
                />
              </Box>
              <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {bar.value.toLocaleString('en')}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
