/**
 * A loopback app external service (node:http) for testing the app service adapter: it checks the
 * bearer credential, answers configured actions, records every call (tenant, action, input,
 * idempotency key) and fails on demand (5xx, 4xx with a `detail`, slow, oversized, not JSON, not
 * UTF-8, a redirect, a dropped or cut connection).
 */
export type { AppServiceFault, AppServiceFaultKind } from './faults.ts';
export { OVERSIZED_BYTES } from './faults.ts';
export {
  type ActionCall,
  type ActionHandler,
  type AppServiceFixture,
  type AppServiceFixtureOptions,
  type ReceivedCall,
  type ReceivedDelivery,
  startAppServiceFixture,
} from './server.ts';
