// jsdom runs no CSS animations, so a dismissed toast would wait forever for the end of its exit animation.
import { fireEvent } from '@testing-library/react';

/** Ends every toast's running animation as a browser would: dismissed toasts then leave the page. */
export function endToastAnimations(): void {
  document.querySelectorAll('.Toastify__toast').forEach((toast) => fireEvent.animationEnd(toast));
}
