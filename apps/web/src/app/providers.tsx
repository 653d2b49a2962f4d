// Everything every page needs: the store, the theme and the toasts.
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastContainer } from 'react-toastify';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { TOAST_OPTIONS } from '../config/toast';
import type { AppStore } from '../lib/store';
import { theme } from './theme';

export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
        {/* MUI's layer for passing messages: above dialogs, below the open account menu (app-header). */}
        <ToastContainer {...TOAST_OPTIONS} style={{ ...TOAST_OPTIONS.style, zIndex: theme.zIndex.snackbar }} />
      </ThemeProvider>
    </Provider>
  );
}
