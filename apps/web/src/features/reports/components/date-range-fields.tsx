// The date range every report form checks before asking the server (issue 22): a From after To is the form's own
// error, said on the To field, no request is sent, and the results on screen (of other dates) are cleared until a
// valid Submit. One hook for the state and one component for the two fields, shared by all report pages.
import { useState } from 'react';
import TextField from '@mui/material/TextField';

const RANGE_ORDER_TEXT = 'The To date must be on or after the From date.';

/** Whether both dates are given and To comes before From (ISO dates compare as text). */
const isRangeReversed = (fromDate: string, toDate: string): boolean =>
  fromDate !== '' && toDate !== '' && toDate < fromDate;

export interface DateRange {
  fromDate: string;
  toDate: string;
  setFromDate: (value: string) => void;
  setToDate: (value: string) => void;
  rangeError: string | null;
  /** A range was refused: what is on screen is of other dates, so it is not shown. */
  isCleared: boolean;
  /** On Submit: whether the dates may be asked for; a reversed range is said on To and the results cleared. */
  accept: () => boolean;
}

export function useDateRange(): DateRange {
  const [fromDate, setFrom] = useState('');
  const [toDate, setTo] = useState('');
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [isCleared, setIsCleared] = useState(false);
  return {
    fromDate,
    toDate,
    setFromDate: (value) => {
      setFrom(value);
      setRangeError(null);
    },
    setToDate: (value) => {
      setTo(value);
      setRangeError(null);
    },
    rangeError,
    isCleared,
    accept: () => {
      const reversed = isRangeReversed(fromDate, toDate);
      setRangeError(reversed ? RANGE_ORDER_TEXT : null);
      setIsCleared(reversed);
      return !reversed;
    },
  };
}

/** The From and To fields of a report form. */
export function DateRangeFields({ range }: { range: DateRange }) {
  return (
    <>
      <TextField
        type="date"
        size="small"
        label="From"
        value={range.fromDate}
        onChange={(e) => range.setFromDate(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        size="small"
        label="To"
        value={range.toDate}
        error={range.rangeError !== null}
        helperText={range.rangeError}
        onChange={(e) => range.setToDate(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </>
  );
}
