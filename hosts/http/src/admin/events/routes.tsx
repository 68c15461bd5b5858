/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminArea } from '../kit.ts';
import { type EventStatus, EventsPage, type ShopEvent } from './pages.tsx';

// /admin/events (issue 20, decision 0047): the shop's outbox as `events.status` and `events.list`
// answer it (`settings.read`), read-only. The operation pages forward from a sequence number
// (`after`); the page starts at the latest window and steps back by a window to older events.

/** Events per page (the operation's limit allows up to 100). */
const WINDOW = 50;
const SEQUENCE = /^\d{1,15}$/;

export const eventsArea: AdminArea = (app, kit) => {
  app.get(
    '/admin/events',
    kit.page(async (c, page, session) => {
      if (!session.principal.permissions.has('settings.read')) return kit.notFound(c, page);
      const read = await kit.act(session, 'events.status', {});
      if (!read.ok) return kit.problem(c, page, read);
      const status = read.value as EventStatus;
      const name = (c.req.query('name') ?? '').trim();
      const rawAfter = c.req.query('after');
      let problem: string | null = null;
      // Without `after`: the latest window (for a type the projection counts at most a window of, all of them).
      const counted = status.counts.find((row) => row.name === name);
      let after =
        name !== '' && (!counted || counted.count <= WINDOW) ? 0 : Math.max(0, status.head - WINDOW);
      if (rawAfter !== undefined && rawAfter !== '') {
        if (SEQUENCE.test(rawAfter)) after = Number(rawAfter);
        else problem = page.t.t('events.badFilter', { detail: rawAfter });
      }
      let events: ShopEvent[] = [];
      let next: number | null = null;
      if (problem === null) {
        const listed = await kit.act(session, 'events.list', {
          after,
          limit: WINDOW,
          ...(name !== '' ? { name } : {}),
        });
        if (!listed.ok) {
          if (listed.code === 'FORBIDDEN') return kit.problem(c, page, listed);
          problem = page.t.t('events.badFilter', { detail: listed.detail });
        } else {
          ({ items: events, next } = listed.value as { items: ShopEvent[]; next: number | null });
        }
      }
      return kit.render(
        c,
        <EventsPage
          page={page}
          status={status}
          events={events}
          next={next}
          window={{ after, name, size: WINDOW }}
          problem={problem}
        />,
        problem === null ? 200 : 422,
      );
    }),
  );
};
