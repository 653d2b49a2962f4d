// The service's own name, used in the page title, the console header and the portal's fallback branding.
export const SERVICE_NAME = 'Canada eTA';
export const CONSOLE_TITLE = 'Canada eTA — Back Office';

export function pageTitle(page?: string): string {
  return page
    ? `${page} | ${SERVICE_NAME} — Electronic Travel Authorization`
    : `${SERVICE_NAME} — Electronic Travel Authorization`;
}
