import { type AppRow, insertAppDeliveries, listApps, type NewAppDelivery } from '@cartwright/repository';
import type { Services } from '../../kernel/services.ts';
import type { Projection } from '../../outbox/projections.ts';
import { manifestOf } from '../lifecycle.ts';

// Events → app deliveries (issue 16, decision 0040). Consumed with receipts like every projection,
// so each event is matched once; each delivery is one row under a unique (shop, app, event) key,
// so a batch replayed after a lost lease inserts nothing twice.

/** Whether an event name is one of an app's subscriptions (an exact name, or `prefix.*`). */
export function isSubscribed(subscriptions: readonly string[], eventName: string): boolean {
  return subscriptions.some((subscription) =>
    subscription.endsWith('.*')
      ? eventName.startsWith(subscription.slice(0, -1))
      : subscription === eventName,
  );
}

function subscriptionsOf(app: AppRow): readonly string[] {
  return manifestOf(app).subscriptions ?? [];
}

/**
 * The projection that queues one delivery per installed app of the shop subscribed to each event
 * (app-worker role): a batch's deliveries in one statement, with one NOTIFY.
 */
export const appDeliveryMatchingProjection: Projection = {
  name: 'app-delivery-matching',
  role: 'app-worker',
  async apply(tx, services: Services, tenantId, events) {
    const subscribers = (await listApps(tx, tenantId)).filter((app) => subscriptionsOf(app).length > 0);
    if (subscribers.length === 0) return;
    const deliveries: NewAppDelivery[] = [];
    for (const event of events) {
      for (const app of subscribers) {
        // An app hears what happened while it was installed, not a backlog from before.
        if (event.occurredAt < app.createdAt || !isSubscribed(subscriptionsOf(app), event.name)) continue;
        deliveries.push({
          tenantId,
          id: services.ids.next(),
          appId: app.appId,
          eventId: event.id,
          eventName: event.name,
          sequence: event.sequence,
          payload: (event.payload ?? {}) as Record<string, unknown>,
          occurredAt: event.occurredAt,
        });
      }
    }
    await insertAppDeliveries(tx, deliveries);
  },
};
