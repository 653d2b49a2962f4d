// What a search's answer covers, when it is not simply every order that contains the text (issue 31): an exact lookup
// of a whole value, only the queue's newest orders, or some of more matches than a search shows.
import Typography from '@mui/material/Typography';
import type { OrderListPage } from '@eta/contracts';
import { SEARCH_MATCHES_SHOWN } from '@eta/contracts/domain';

/** Three letters or digits in a row: what the search index needs to search every order. */
const searchableWhole = (text: string) => /[\p{L}\p{N}]{3}/u.test(text);

export function searchNoteText(page: OrderListPage | undefined, text: string): string | null {
  if (!page) return null;
  if (page.exactMatch) {
    return `Exact matches of “${text}” as an order id, e-mail address, telephone number, passport number or full name. Type part of it to find the orders that contain it.`;
  }
  if (page.searchedNewest) {
    const newest = page.searchedNewest.toLocaleString('en');
    return searchableWhole(text)
      ? `“${text}” is in too many orders to search them all quickly: only the newest ${newest} were searched. Type more of it to narrow the search.`
      : `Only the newest ${newest} orders were searched for a text this short. Type at least three letters or digits to search them all.`;
  }
  if (page.someMatches) {
    const shown = SEARCH_MATCHES_SHOWN.toLocaleString('en');
    return `More than ${shown} orders match “${text}”, too many to put in date order quickly: these are some of them, not the newest. Type more of it to narrow the search.`;
  }
  if (page.totalCapped && page.total >= SEARCH_MATCHES_SHOWN) {
    const shown = SEARCH_MATCHES_SHOWN.toLocaleString('en');
    return `More than ${shown} orders match “${text}”: a search shows the first ${shown}. Type more of it to narrow the search.`;
  }
  return null;
}

export function OrderSearchNote({ page, text }: { page: OrderListPage | undefined; text: string }) {
  const note = searchNoteText(page, text);
  return note ? (
    <Typography variant="body2" color="text.secondary" role="status" sx={{ mb: 1 }}>
      {note}
    </Typography>
  ) : null;
}
