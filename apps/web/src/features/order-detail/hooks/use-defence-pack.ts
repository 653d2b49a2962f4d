// Defence Pack 1 and 2 (spec §7): the pack's PDF in a new tab, one at a time.
import { useState } from 'react';
import type { DefencePackType } from '@eta/contracts';
import { openPdfTab } from './pdf-tab';

export function useDefencePack(orderId: string) {
  const [pending, setPending] = useState<DefencePackType | null>(null);

  const open = async (type: DefencePackType) => {
    setPending(type);
    await openPdfTab({
      request: { url: 'admin/get-defence-pack-pdf', method: 'POST', body: { orderId, defencePackType: type } },
      title: `Defence Pack ${type} | ${orderId}`,
      preparingText: `Preparing Defence Pack ${type} for order ${orderId}…`,
      readyText: `Defence Pack ${type} is ready: open it`,
    });
    setPending(null);
  };

  return { open: (type: DefencePackType) => void open(type), pending };
}
