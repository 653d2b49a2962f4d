// Downloaded History (spec §2): who downloaded the document, when (EST) and from what device. On a phone each
// download becomes a card of labelled lines (portal.css), so nothing scrolls sideways.
import { formatEasternDateTime } from '../../../lib/format';
import type { CustomerDownload } from '../api/portal-client';
import { usePortal } from '../hooks/portal-context';

export function DownloadHistoryTable({ rows, isLoading }: { rows: readonly CustomerDownload[]; isLoading: boolean }) {
  const { t } = usePortal();
  const c = t.columns;
  const columns: [string, (row: CustomerDownload, index: number) => string][] = [
    [c.index, (_row, index) => String(index + 1)],
    [c.orderId, (row) => row.order_id],
    [c.date, (row) => formatEasternDateTime(row.create_ts)],
    [c.ip, (row) => row.ip],
    [c.device, (row) => row.device],
    [c.deviceType, (row) => row.device_type],
    [c.browser, (row) => row.browser],
    [c.os, (row) => row.os],
    [c.location, (row) => row.location],
  ];
  return (
    <table className="portal-table" aria-label={t.downloadedHistory}>
      <thead>
        <tr>
          {columns.map(([heading]) => (
            <th key={heading} scope="col">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr className="portal-table__empty">
            <td colSpan={columns.length}>{isLoading ? t.loading : t.noDownloads}</td>
          </tr>
        ) : (
          rows.map((row, index) => (
            <tr key={`${row.create_ts}-${index}`}>
              {columns.map(([heading, value]) => (
                <td key={heading} data-label={heading}>
                  {value(row, index)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
