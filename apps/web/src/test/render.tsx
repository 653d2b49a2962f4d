// Renders a component inside the app's providers and a memory router, with the current URL shown in a
// 'location' element so tests can see where the app navigated.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AppProviders } from '../app/providers';
import { createAppStore } from '../lib/store';

function LocationDisplay() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

interface RenderOptions {
  route?: string;
  path?: string;
}

export function renderWithApp(ui: ReactElement, { route = '/', path = '*' }: RenderOptions = {}) {
  const store = createAppStore();
  const result = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
          {path === '*' ? null : <Route path="*" element={null} />}
        </Routes>
        <LocationDisplay />
      </MemoryRouter>
    </AppProviders>,
  );
  return { store, ...result };
}
