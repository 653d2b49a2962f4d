// A link inside the portal: a normal <a> (open in a new tab still works) that navigates without a reload.
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../hooks/use-portal-location';

export function PortalLink({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}
