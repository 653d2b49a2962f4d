import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './app/app';
import { createAppStore } from './lib/store';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const App = createApp(createAppStore());

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
