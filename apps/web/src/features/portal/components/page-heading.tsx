// A portal page's heading and its document title (which names the landing site).
import { usePortal } from '../hooks/portal-context';

export function PageHeading({ title }: { title: string }) {
  const { site } = usePortal();
  return (
    <>
      <title>{`${title} | ${site.display_name}`}</title>
      <h1>{title}</h1>
    </>
  );
}
