// Saves a file a staff call answers with (a CSV export) under the name the server gave it, without leaving
// the page. Failures are reported like every other call's (error toast, expired session).
import { fetchFile } from './api';
import type { QueryParams } from './http';

export async function downloadFile(url: string, params: QueryParams, fileName: string): Promise<boolean> {
  const outcome = await fetchFile({ url, params, accept: 'text/csv' });
  if ('error' in outcome) return false;
  const href = URL.createObjectURL(outcome.file);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return true;
}
