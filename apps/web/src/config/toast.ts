// Toast settings of spec §9 and DESIGN §7: top-right, 5 s, pause on hover and focus loss, swipe at 80 %.
import type { ToastContainerProps } from 'react-toastify';

/**
 * Toasts start below the console's header (its app bar is at most 64 px high), so they never cover the user
 * menu; the inline `top` also wins over the library's phone layout, which would put them at the very top.
 */
const BELOW_HEADER_PX = 64 + 8;

export const TOAST_OPTIONS = {
  position: 'top-right',
  autoClose: 5000,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 80,
  newestOnTop: true,
  style: { top: BELOW_HEADER_PX },
} as const satisfies ToastContainerProps;
