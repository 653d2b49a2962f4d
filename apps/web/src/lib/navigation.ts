// Lets code outside React (the HTTP layer's expired-session handling) send the user to a route.
// The app registers the router's navigate once at start-up.

type Navigate = (to: string) => void;

let navigateImpl: Navigate = (to) => window.location.assign(to);

export function registerNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(to: string): void {
  navigateImpl(to);
}
