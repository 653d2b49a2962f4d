// Renders a component inside the app's providers and a memory router, with the current URL shown in a
// 'location' element so tests can see where the app navigated; or the whole app (its route table) at a path.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, MemoryRouter, Route, RouterProvider, Routes, useLocation } from 'react-router';
import { AppProviders } from '../app/providers';
import { routeModules, routes } from '../app/router';
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

/**
 * Loads the lazy route modules ahead of a test file's first test: transforming the whole console on first import
 * can take longer than a `findBy` waits, which would measure the test machine rather than the app.
 */
export async function preloadRoutes(): Promise<void> {
  await Promise.all(Object.values(routeModules).map((load) => load()));
}

/** The whole app at `path`: layout, side menu, folder counts and the page, as a person sees them. */
export function renderRoutes(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders store={createAppStore()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}
