// The whole schema, one file per area (drizzle-kit reads src/schema/*.ts).
export * from './schema/admin.ts';
export * from './schema/apps.ts';
export * from './schema/basis.ts';
export * from './schema/catalog.ts';
export * from './schema/customers.ts';
export * from './schema/effects.ts';
export * from './schema/flows.ts';
export * from './schema/foundation.ts';
export * from './schema/intelligence.ts';
export * from './schema/media.ts';
export * from './schema/media-drafts.ts';
export * from './schema/orders.ts';
export * from './schema/payments.ts';
export * from './schema/proposals.ts';
