/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { type AdminSession, ATTEMPT_STATUSES } from '@cartwright/service';
import type { Context } from 'hono';
import { AppBlocks, appBlocksFor, ORDER_MOUNTS } from '../apps/blocks.tsx';
import { parseAmount } from '../channel-form.ts';
import type { AdminArea } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  type Activity,
  type Attempt,
  exampleAmount,
  type Notice,
  type OrderDocument,
  OrderListPage,
  OrderPage,
  type OrderRow,
} from './pages.tsx';
import { type AttemptStatus, PaymentListPage, type PaymentRow } from './payments.tsx';

// The orders area (decision 0047): /admin/orders lists the shop's orders newest first a page at
// a time (orders.list, `before`), /admin/orders/{id} shows one with its timeline (orders.get),
// documents (orders.documents.*, documents.download), payments ledger (orders.payments.get), a
// refund form (orders.payments.refund with an Idempotency-Key made for each render) and the state
// moves the machines allow (orders.transition at the revision the page was rendered with).
// /admin/payments lists the shop's provider payment attempts across orders (payments.list).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_SIZE = 25;

export const ordersArea: AdminArea = (app, kit) => {
  type Permission = Parameters<AdminSession['principal']['permissions']['has']>[0];
  const has = (session: AdminSession, permission: Permission) =>
    session.principal.permissions.has(permission);

  app.get(
    '/admin/orders',
    kit.page(async (c, page, session) => {
      if (!has(session, 'orders.read')) return kit.notFound(c, page);
      const before = Number(c.req.query('before'));
      const listed = await kit.act(session, 'orders.list', {
        limit: PAGE_SIZE,
        ...(Number.isSafeInteger(before) && before > 0 ? { before } : {}),
      });
      if (!listed.ok) return kit.problem(c, page, listed);
      const { items, next } = listed.value as { items: OrderRow[]; next: number | null };
      return kit.render(
        c,
        <OrderListPage page={page} items={items} next={next} first={c.req.query('before') === undefined} />,
      );
    }),
  );

  // The shop's payments (payments.list): those that need a look, or those in one status, a page
  // at a time (`before`: the operation's cursor); each order's number read through orders.get.
  app.get(
    '/admin/payments',
    kit.page(async (c, page, session) => {
      if (!has(session, 'orders.read')) return kit.notFound(c, page);
      const asked = c.req.query('status') ?? '';
      const status = (ATTEMPT_STATUSES as readonly string[]).includes(asked)
        ? (asked as AttemptStatus)
        : null;
      const before = c.req.query('before');
      const listed = await kit.act(session, 'payments.list', {
        limit: PAGE_SIZE,
        ...(status ? { status } : {}),
        ...(before ? { before } : {}),
      });
      if (!listed.ok) return kit.problem(c, page, listed);
      const { items, next, unresolved } = listed.value as {
        items: PaymentRow[];
        next: string | null;
        unresolved: { uncertain: number; failed: number };
      };
      const numbers = new Map<string, number>();
      await Promise.all(
        [...new Set(items.map((item) => item.orderId))].map(async (orderId) => {
          const read = await kit.act(session, 'orders.get', { orderId });
          if (read.ok) numbers.set(orderId, (read.value as { order: OrderRow }).order.number);
        }),
      );
      return kit.render(
        c,
        <PaymentListPage
          page={page}
          items={items}
          numbers={numbers}
          status={status}
          next={next}
          first={!before}
          unresolved={unresolved}
        />,
      );
    }),
  );

  const orderPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    orderId: string,
    extra: { notice?: Notice; status?: number; enteredAmount?: string } = {},
  ): Promise<Response> => {
    const read = await kit.act(session, 'orders.get', { orderId });
    if (!read.ok) return kit.problem(c, page, read);
    const { order, activities } = read.value as { order: OrderRow; activities: Activity[] };
    const [documents, payments] = await Promise.all([
      has(session, 'documents.read') ? kit.act(session, 'orders.documents.list', { orderId }) : null,
      kit.act(session, 'orders.payments.get', { orderId }),
    ]);
    return kit.render(
      c,
      <OrderPage
        page={page}
        order={order}
        activities={activities}
        documents={documents?.ok ? (documents.value as { items: OrderDocument[] }).items : null}
        attempts={payments.ok ? (payments.value as { attempts: Attempt[] }).attempts : null}
        refundKey={`admin-refund-${crypto.randomUUID()}`}
        mayWrite={has(session, 'orders.write')}
        mayWriteDocuments={has(session, 'documents.write')}
        notice={extra.notice}
        enteredAmount={extra.enteredAmount}
        appBlocks={
          <AppBlocks
            page={page}
            blocks={await appBlocksFor(kit, session, ORDER_MOUNTS, { orderId: order.id })}
            writes={has(session, 'apps.write')}
            back={c.req.path}
          />
        }
      />,
      extra.status ?? 200,
    );
  };

  const NOTICES = {
    note: 'orders.note.added',
    document: 'orders.documents.created',
    refund: 'orders.refund.requested',
    moved: 'orders.transition.done',
  } as const;

  app.get(
    '/admin/orders/:id',
    kit.page(async (c, page, session) => {
      const id = c.req.param('id') ?? '';
      if (!UUID.test(id) || !has(session, 'orders.read')) return kit.notFound(c, page);
      const key = NOTICES[(c.req.query('done') ?? '') as keyof typeof NOTICES];
      return orderPage(c, page, session, id, key ? { notice: { kind: 'ok', text: page.t.t(key) } } : {});
    }),
  );

  // A document's PDF through documents.download, only as a document of this order.
  app.get(
    '/admin/orders/:id/documents/:documentId',
    kit.page(async (c, page, session) => {
      const orderId = c.req.param('id') ?? '';
      const documentId = c.req.param('documentId') ?? '';
      if (!UUID.test(orderId) || !UUID.test(documentId)) return kit.notFound(c, page);
      const listed = await kit.act(session, 'orders.documents.list', { orderId });
      if (!listed.ok) return kit.problem(c, page, listed);
      if (
        !(listed.value as { items: OrderDocument[] }).items.some((document) => document.id === documentId)
      ) {
        return kit.notFound(c, page);
      }
      const file = await kit.act(session, 'documents.download', { documentId });
      if (!file.ok) return kit.problem(c, page, file);
      const { fileName, contentType, bytes } = file.value as {
        fileName: string;
        contentType: string;
        bytes: Uint8Array;
      };
      return new Response(bytes, {
        headers: {
          'content-type': contentType,
          'content-disposition': `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
          'cache-control': 'private, no-store',
        },
      });
    }),
  );

  /** A POST on an order: the checked form, the operation, then the page or its refusal. */
  const orderPost = (
    path: string,
    change: (
      form: Record<string, unknown>,
      session: AdminSession,
      orderId: string,
      page: PageContext,
    ) => Promise<
      | { ok: true; done: keyof typeof NOTICES }
      | { ok: false; code: string; detail: string; enteredAmount?: string }
    >,
  ) =>
    app.post(path, async (c) => {
      const checked = await kit.checkedForm(c);
      if (checked instanceof Response) return checked;
      const { form, page, session } = checked;
      const orderId = c.req.param('id') ?? '';
      if (!UUID.test(orderId)) return kit.notFound(c, page);
      const result = await change(form, session, orderId, page);
      if (result.ok) return kit.redirect(c, `/admin/orders/${orderId}?done=${result.done}`);
      if (result.code === 'FORBIDDEN' || result.code === 'NOT_FOUND') return kit.problem(c, page, result);
      // A stale revision re-renders the order as it is now, with a warning (409).
      const stale = result.code === 'STALE_REVISION';
      return orderPage(c, page, session, orderId, {
        status: stale ? 409 : 422,
        notice: stale
          ? { kind: 'warning', text: page.t.t('orders.transition.stale', { detail: result.detail }) }
          : { kind: 'error', text: page.t.t('error.refused', { detail: result.detail }) },
        ...(result.enteredAmount !== undefined ? { enteredAmount: result.enteredAmount } : {}),
      });
    });

  const outcome = <D extends keyof typeof NOTICES>(
    result: { ok: boolean; code?: string; detail?: string },
    done: D,
  ) =>
    result.ok
      ? ({ ok: true, done } as const)
      : ({ ok: false, code: result.code ?? 'VALIDATION_FAILED', detail: result.detail ?? '' } as const);

  orderPost('/admin/orders/:id/notes', async (form, session, orderId) =>
    outcome(
      await kit.act(session, 'orders.notes.add', {
        orderId,
        text: typeof form.text === 'string' ? form.text : '',
      }),
      'note',
    ),
  );

  orderPost('/admin/orders/:id/documents', async (form, session, orderId) =>
    outcome(
      await kit.act(session, 'orders.documents.create', {
        orderId,
        type: form.type === 'delivery_note' ? 'delivery_note' : 'invoice',
      }),
      'document',
    ),
  );

  // The amount as the UI language writes it, in the order's currency; the key the form was
  // rendered with makes a repeated post answer the same refund.
  orderPost('/admin/orders/:id/refunds', async (form, session, orderId, page) => {
    const entered = typeof form.amount === 'string' ? form.amount : '';
    const read = await kit.act(session, 'orders.get', { orderId });
    if (!read.ok) return { ok: false, code: read.code, detail: read.detail };
    const { currency } = (read.value as { order: OrderRow }).order;
    const amount = parseAmount(entered, page.t.locale, currency);
    if (amount === null) {
      return {
        ok: false,
        code: 'VALIDATION_FAILED',
        detail: page.t.t('orders.refund.invalid', { example: exampleAmount(page.t.locale, currency) }),
        enteredAmount: entered,
      };
    }
    const refunded = await kit.act(session, 'orders.payments.refund', {
      orderId,
      amount,
      idempotencyKey: typeof form.idempotencyKey === 'string' ? form.idempotencyKey : '',
    });
    return refunded.ok
      ? { ok: true, done: 'refund' }
      : { ok: false, code: refunded.code, detail: refunded.detail, enteredAmount: entered };
  });

  // One state move: the machine, the target state and the order revision the page showed. The
  // operation checks the table and every guard again; its refusal is shown with its detail.
  orderPost('/admin/orders/:id/transitions', async (form, session, orderId) => {
    const revision = Number(form.revision);
    return outcome(
      await kit.act(session, 'orders.transition', {
        orderId,
        machine: typeof form.machine === 'string' ? form.machine : '',
        to: typeof form.to === 'string' ? form.to : '',
        revision: Number.isSafeInteger(revision) ? revision : -1,
      }),
      'moved',
    );
  });
};
