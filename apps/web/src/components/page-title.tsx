// Sets document.title for the page (React 19 hoists <title> into <head>); every title names the service.
import { pageTitle } from '../config/brand';

export function PageTitle({ title }: { title?: string }) {
  return <title>{pageTitle(title)}</title>;
}
