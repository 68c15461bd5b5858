import { createDatabase } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { emailDeliveryScenarios } from './email-delivery.scenario.ts';

// The Email Delivery app on PostgreSQL through a pool of several connections, where the outside
// part's own transactions and the step's run on different sessions (DATABASE_URL only), and two
// flow runners racing over many orders send each confirmation once.

emailDeliveryScenarios(
  async () => {
    const template = await createTestDatabase();
    const database = await createDatabase({ databaseUrl: template.url, migrate: false, maxConnections: 8 });
    return {
      database,
      close: async () => {
        await database.close();
        await template.close();
      },
    };
  },
  { racingRunners: true },
);
