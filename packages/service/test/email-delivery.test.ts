import { createTestDatabase } from '@cartwright/repository/testing';
import { emailDeliveryScenarios } from './email-delivery.scenario.ts';

// The Email Delivery app on the test database: embedded PGlite (one connection, where a send from
// inside the step's transaction would wait on itself), or PostgreSQL with DATABASE_URL.

emailDeliveryScenarios(async () => {
  const database = await createTestDatabase();
  return { database, close: () => database.close() };
});
