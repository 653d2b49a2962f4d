// Toast settings of spec §9 and DESIGN §7: top-right, 5 s, pause on hover and focus loss, swipe at 80 %.
import type { ToastContainerProps } from 'react-toastify';

export const TOAST_OPTIONS = {
  position: 'top-right',
  autoClose: 5000,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 80,
  newestOnTop: true,
} as const satisfies ToastContainerProps;
