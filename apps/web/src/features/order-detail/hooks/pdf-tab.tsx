// A PDF from a staff call opened in a new tab (spec §7: "response is a blob (PDF) opened in a new window"): the
// defence packs and a chargeback's evidence preview. The tab is opened inside the click, so no popup blocker stops
// it, and shows the PDF once it arrives; a failure closes it again and is shown as an error toast. The PDF never
// enters the store.
import { toast } from 'react-toastify';
import Link from '@mui/material/Link';
import { fetchFile, type ApiRequest } from '../../../lib/api';

/** How long the PDF's address stays valid after the tab has it (reloading the tab after that shows nothing). */
const KEEP_PDF_MS = 60_000;

export interface PdfTabRequest {
  request: Pick<ApiRequest, 'url' | 'method' | 'params' | 'body'>;
  /** The tab's title while and after it loads. */
  title: string;
  /** What the tab says while the PDF is prepared. */
  preparingText: string;
  /** The link offered when the browser refused the new tab. */
  readyText: string;
}

function openWaitingTab(title: string, preparingText: string): Window | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  // The new tab cannot reach back into the console.
  tab.opener = null;
  tab.document.title = title;
  tab.document.body.textContent = preparingText;
  return tab;
}

/** Call inside the click handler (before any await), so the tab counts as opened by the person. */
export async function openPdfTab({ request, title, preparingText, readyText }: PdfTabRequest): Promise<void> {
  const tab = openWaitingTab(title, preparingText);
  const result = await fetchFile({ ...request, accept: 'application/pdf' });
  if ('error' in result) {
    tab?.close();
    return;
  }
  const pdf =
    result.file.type === 'application/pdf' ? result.file : new Blob([result.file], { type: 'application/pdf' });
  const address = URL.createObjectURL(pdf);
  window.setTimeout(() => URL.revokeObjectURL(address), KEEP_PDF_MS);
  if (tab) {
    tab.location.href = address;
    return;
  }
  // The browser refused the new tab: a link the person clicks opens it.
  toast.info(
    <Link href={address} target="_blank" rel="noopener noreferrer" color="inherit">
      {readyText}
    </Link>,
    { autoClose: false },
  );
}
