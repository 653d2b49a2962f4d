export * from './domain.js';
export * from './envelope.js';
export * from './auth.js';
export * from './orders.js';
export * from './front.js';
export * from './order-detail.js';
