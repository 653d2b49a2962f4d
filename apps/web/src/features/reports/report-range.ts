// The date range both report frames check before asking the server (issue 22): a From after To is the form's
// own error, said on the To field, and no request is sent.
export const RANGE_ORDER_TEXT = 'The To date must be on or after the From date.';

/** Whether both dates are given and To comes before From (ISO dates compare as text). */
export const isRangeReversed = (fromDate: string, toDate: string): boolean =>
  fromDate !== '' && toDate !== '' && toDate < fromDate;
