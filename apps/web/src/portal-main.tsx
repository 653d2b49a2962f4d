// The customer portal's own entry (portal.html): React and the portal, nothing of the staff console.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PortalApp } from './features/portal/components/portal-app';
import './features/portal/portal.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <PortalApp />
  </StrictMode>,
);
