// Defence Pack 1 and 2 (spec §7: "response is a blob (PDF) opened in a new window"). The tab is opened inside the
// click, so no popup blocker stops it, and shows the PDF once it arrives; a failure closes it again and is shown
// as an error toast. The PDF never enters the store.
import { useState } from 'react';
import { toast } from 'react-toastify';
import Link from '@mui/material/Link';
import type { DefencePackType } from '@eta/contracts';
import { fetchFile } from '../../../lib/api';

/** How long the PDF's address stays valid after the tab has it (reloading the tab after that shows nothing). */
const KEEP_PDF_MS = 60_000;

function openWaitingTab(orderId: string, type: DefencePackType): Window | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  // The new tab cannot reach back into the console.
  tab.opener = null;
  tab.document.title = `Defence Pack ${type} | ${orderId}`;
  tab.document.body.textContent = `Preparing Defence Pack ${type} for order ${orderId}…`;
  return tab;
}

export function useDefencePack(orderId: string) {
  const [pending, setPending] = useState<DefencePackType | null>(null);

  const open = async (type: DefencePackType) => {
    const tab = openWaitingTab(orderId, type);
    setPending(type);
    const result = await fetchFile({
      url: 'admin/get-defence-pack-pdf',
      method: 'POST',
      body: { orderId, defencePackType: type },
      accept: 'application/pdf',
    });
    setPending(null);
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
        Defence Pack {type} is ready: open it
      </Link>,
      { autoClose: false },
    );
  };

  return { open: (type: DefencePackType) => void open(type), pending };
}
