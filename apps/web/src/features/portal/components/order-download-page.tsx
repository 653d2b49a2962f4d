// The order's download page (spec §2, §4): only for an order tracked in this tab (its proof), otherwise back to
// tracking. The success message, Download Now (enabled once the approved document exists; the download starts
// one second after the server agrees, spec §4/§9) and the Downloaded History, which shows the new download. An
// approved (Completed) order whose document is not there yet says so, not that it is still being processed.
import { useCallback, useEffect, useState } from 'react';
import {
  PortalError,
  fetchDownloadHistory,
  forgetProof,
  prepareDownload,
  storedProof,
  type DownloadHistory,
} from '../api/portal-client';
import { usePortal } from '../hooks/portal-context';
import { useErrorText } from '../hooks/use-error-text';
import { navigate } from '../hooks/use-portal-location';
import { DownloadHistoryTable } from './download-history-table';
import { PageHeading } from './page-heading';

/** "19 November 2031" / "19 novembre 2031": an approval's expiry date (YYYY-MM-DD) in the page's language. */
const longDate = (isoDate: string, language: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(language === 'fr' ? 'fr-CA' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Spec §4, §9: the download starts one second after the success reply. */
export const DOWNLOAD_DELAY_MS = 1000;
/** The server logs a download as it starts streaming; the history is read again a moment after. */
const HISTORY_REFRESH_MS = 1500;

/** Tells the tracking page why the customer is back there. */
export const TRACK_AGAIN_NOTICE = 'track';

export const trackOrderPath = (orderId: string) => `/track-order/${encodeURIComponent(orderId)}`;

function startDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

export function OrderDownloadPage({ orderId }: { orderId: string }) {
  const { t, language, withSite, notify } = usePortal();
  const errorText = useErrorText();
  // Read once: the page is keyed by its order, and a proof only goes away when the page sends the customer back.
  const [proof] = useState(() => storedProof(orderId)?.proof ?? null);
  const [history, setHistory] = useState<DownloadHistory | null>(null);
  const [busy, setBusy] = useState(false);

  const backToTracking = useCallback(() => {
    forgetProof(orderId);
    const to = withSite(trackOrderPath(orderId));
    navigate(`${to}${to.includes('?') ? '&' : '?'}notice=${TRACK_AGAIN_NOTICE}`, { replace: true });
  }, [orderId, withSite]);

  const load = useCallback(async () => {
    if (!proof) return;
    try {
      setHistory(await fetchDownloadHistory(orderId, proof));
    } catch (error) {
      if (error instanceof PortalError && error.code === 'TRACK_PROOF_REQUIRED') backToTracking();
      else notify('error', errorText(error));
    }
  }, [orderId, proof, backToTracking, notify, errorText]);

  useEffect(() => {
    if (proof) void load();
    else backToTracking();
    // Loaded once per order; `load` changes with the language, which does not change the data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId, proof]);

  if (!proof) return null;
  const fileName = history?.path.file1 ?? null;
  const waitingText = history?.mainResult.process_status === 'Completed' ? t.preparingMessage : t.processingMessage;

  const download = async () => {
    if (!fileName || !history) return;
    setBusy(true);
    try {
      const url = await prepareDownload(
        { orderId, customername: history.mainResult.customer_name, file1: fileName, timezone: browserTimeZone() },
        proof,
      );
      notify('success', t.downloadStarting);
      setTimeout(() => {
        startDownload(url, fileName);
        setTimeout(() => void load(), HISTORY_REFRESH_MS);
        setBusy(false);
      }, DOWNLOAD_DELAY_MS);
    } catch (error) {
      setBusy(false);
      if (error instanceof PortalError && error.code === 'TRACK_PROOF_REQUIRED') backToTracking();
      else notify('error', errorText(error));
    }
  };

  return (
    <section className="portal-card">
      <PageHeading title={t.downloadTitle} />
      <p className="portal-alert portal-alert--success" role="status">
        {t.foundMessage(orderId)} {history ? (fileName ? t.readyMessage : waitingText) : null}
      </p>
      {fileName && history?.approval ? (
        <p className="portal-facts" aria-label="Your eTA">
          {history.approval.applicationNumber ? t.applicationNumber(history.approval.applicationNumber) : null}{' '}
          {history.approval.expiresOn ? t.validUntil(longDate(history.approval.expiresOn, language)) : null}
        </p>
      ) : null}
      <div className="portal-actions">
        <button type="button" className="portal-button" disabled={!fileName || busy} onClick={() => void download()}>
          {t.downloadNow}
        </button>
        <a href={withSite('/track-order')} onClick={() => forgetProof(orderId)}>
          {t.trackAnother}
        </a>
      </div>
      <h2>{t.downloadedHistory}</h2>
      <DownloadHistoryTable rows={history?.data ?? []} isLoading={!history} />
    </section>
  );
}
