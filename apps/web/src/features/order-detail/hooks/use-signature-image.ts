// The customer's signature image for the "Digital signature" row: fetched as a file outside the store (like the
// defence packs' PDFs) and shown through an object URL, which is revoked when the row goes away. An order without
// an image on file is a 404 the row words itself, not an error toast.
import { useEffect, useState } from 'react';
import { fetchFile } from '../../../lib/api';

export type SignatureImage =
  | { state: 'loading' }
  | { state: 'shown'; url: string }
  | { state: 'missing' }
  /** Any other failure, shown as every call's is (an error toast with the server's message). */
  | { state: 'failed' };

export function useSignatureImage(orderId: string): SignatureImage {
  const [loaded, setLoaded] = useState<{ orderId: string; image: SignatureImage } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let address: string | null = null;
    void fetchFile({
      url: `admin/order-signature/${encodeURIComponent(orderId)}`,
      accept: 'image/png, image/jpeg',
      signal: controller.signal,
      silent: (error) => error.status === 404,
    }).then((result) => {
      if (controller.signal.aborted) return;
      if ('error' in result) {
        setLoaded({ orderId, image: { state: result.error.status === 404 ? 'missing' : 'failed' } });
        return;
      }
      address = URL.createObjectURL(result.file);
      setLoaded({ orderId, image: { state: 'shown', url: address } });
    });
    return () => {
      controller.abort();
      if (address) URL.revokeObjectURL(address);
    };
  }, [orderId]);

  return loaded?.orderId === orderId ? loaded.image : { state: 'loading' };
}
