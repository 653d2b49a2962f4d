// The app: providers around the router. The router's navigate is handed to the HTTP layer for the
// expired-session redirect.
import { RouterProvider } from 'react-router/dom';
import { registerNavigate } from '../lib/navigation';
import type { AppStore } from '../lib/store';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

export function createApp(store: AppStore) {
  const router = createAppRouter();
  registerNavigate((to) => void router.navigate(to));
  return function App() {
    return (
      <AppProviders store={store}>
        <RouterProvider router={router} />
      </AppProviders>
    );
  };
}
