// The Redux store: the auth slice, the live desk's presence and order changes, and the RTK Query cache. A factory,
// so each test gets a fresh store.
import { configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { authReducer } from './auth/auth-slice';
import { liveDeskReducer } from './live-desk/live-desk-slice';

export function createAppStore() {
  return configureStore({
    reducer: {
      auth: authReducer,
      liveDesk: liveDeskReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
