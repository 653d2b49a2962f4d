// The public portal's route components, loaded lazily as their own chunk (no console code).
export { PublicLayout as PublicShell } from '../../features/portal/components/public-layout';
export { TrackOrderPage as TrackOrderRoute } from '../../features/portal/components/track-order-page';
export { OrderDownloadPage as OrderDownloadRoute } from '../../features/portal/components/order-download-page';
