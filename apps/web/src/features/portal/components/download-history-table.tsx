// Downloaded History (spec §2): who downloaded the document, when (EST, with UTC on hover) and from what device.
// On a phone each download becomes a card of labelled lines (portal.css), so nothing scrolls sideways. Lines break
// between words only (issue 22); an address may break after its separators.
import type { ReactNode } from 'react';
import { SoftBreaks } from '../../../components/soft-breaks';
import { TimeText } from '../../../components/time-text';
import type { CustomerDownload } from '../api/portal-client';
import { usePortal } from '../hooks/portal-context';

export function DownloadHistoryTable({ rows, isLoading }: { rows: readonly CustomerDownload[]; isLoading: boolean }) {
  const { t } = usePortal();
  const c = t.columns;
  const columns: [string, (row: CustomerDownload, index: number) => ReactNode][] = [
    [c.index, (_row, index) => String(index + 1)],
    // An order id is one word: never broken after its 'ETA-'.
    [c.orderId, (row) => <span className="portal-nowrap">{row.order_id}</span>],
    [c.date, (row) => <TimeText value={row.create_ts} format="eastern" />],
    [c.ip, (row) => <SoftBreaks text={row.ip} />],
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
