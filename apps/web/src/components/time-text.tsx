// Every time the console and the portal show (issue 22): in the format the spec fixes for its place, always
// labelled with its zone, and the same moment in the other zone on hover. Plain HTML (no MUI), so the portal's
// small bundle can use it too.
import { describeTime, type TimeFormat } from '../lib/format';

interface TimeTextProps {
  value: string | null | undefined;
  /** utc (default): '20/11/2026 00:49:19 UTC'; eastern: '19/11/2026 19:49:19 EST'; us-eastern: '11/19/2026 …'. */
  format?: TimeFormat;
}

export function TimeText({ value, format = 'utc' }: TimeTextProps) {
  const time = describeTime(value, format);
  if (!time) return null;
  return (
    <time dateTime={value ?? undefined} title={time.other}>
      {time.text}
    </time>
  );
}
