/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { type AdminSession, IMAGE_LIMITS } from '@cartwright/service';
import type { Context } from 'hono';
import { AppBlocks, appBlocksFor, PRODUCT_MOUNTS } from '../apps/blocks.tsx';
import type { AdminArea, FormBody } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  type Draft,
  DraftList,
  DraftReviewPage,
  type Gallery,
  type Notice,
  ProductListPage,
  ProductPage,
  type ProductRow,
} from './pages.tsx';
import {
  type EditedProduct,
  entriesOf,
  type FieldErrors,
  fieldErrorsOf,
  keptEntries,
  type ProductEntries,
  postedEntries,
  updateInputOf,
} from './product-form.ts';

// The catalog area (decision 0047): /admin/products lists the shop's products a page at a time
// (catalog.products.list: cursor and search), /admin/products/{id} shows one with its gallery
// and image drafts. Every read and write is an operation called with the member's rights.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LANGUAGE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
const PAGE_SIZE = 25;
const MiB = 1024 * 1024;
/**
 * An upload's body: the gallery's image limit (8 MiB, `IMAGE_LIMITS`) and room for the multipart
 * framing, the CSRF token and the alt text. Only this route gets it; other admin posts keep the
 * server's default. A larger body is answered by the admin's 413 page before it is read.
 */
export const UPLOAD_BODY_LIMIT = IMAGE_LIMITS.maxBytes + 64 * 1024;

function text(form: FormBody, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

function integer(form: FormBody, name: string): number {
  const value = Number(text(form, name));
  return Number.isInteger(value) && value >= 0 ? value : -1;
}

/** A file's answer: the operation's bytes, never cached by a shared cache. */
function fileResponse(file: { contentType: string; bytes: Uint8Array }): Response {
  return new Response(file.bytes, {
    headers: {
      'content-type': file.contentType,
      'cache-control': 'private, no-store',
      'content-length': String(file.bytes.byteLength),
    },
  });
}

export const catalogArea: AdminArea = (app, kit) => {
  const mainLanguage = async (session: AdminSession): Promise<string> => {
    const shop = await kit.act(session, 'shop.get', {});
    return shop.ok ? (shop.value as { shop: { mainLanguage: string } }).shop.mainLanguage : 'en';
  };
  const mayRead = (session: AdminSession) => session.principal.permissions.has('catalog.read');
  const mayWrite = (session: AdminSession) => session.principal.permissions.has('catalog.write');

  app.get(
    '/admin/products',
    kit.page(async (c, page, session) => {
      if (!mayRead(session)) return kit.notFound(c, page);
      const search = (c.req.query('search') ?? '').trim().slice(0, 200);
      const after = c.req.query('after');
      const listed = await kit.act(session, 'catalog.products.list', {
        limit: PAGE_SIZE,
        ...(search ? { search } : {}),
        ...(after && UUID.test(after) ? { after } : {}),
      });
      if (!listed.ok) return kit.problem(c, page, listed);
      const { items, next } = listed.value as { items: ProductRow[]; next: string | null };
      return kit.render(
        c,
        <ProductListPage
          page={page}
          items={items}
          search={search}
          next={next}
          first={!after}
          language={await mainLanguage(session)}
        />,
      );
    }),
  );

  /** Everything the product page shows, read through the operations. */
  const productPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    productId: string,
    language: string | undefined,
    extra: { notice?: Notice; status?: number; entries?: ProductEntries; fieldErrors?: FieldErrors } = {},
  ): Promise<Response> => {
    const read = await kit.act(session, 'catalog.products.get', { id: productId });
    if (!read.ok) return kit.problem(c, page, read);
    const { product } = read.value as { product: ProductRow };
    const gallery = await kit.act(session, 'merchant.media.gallery.read', {
      productId,
      ...(language ? { language } : {}),
    });
    if (!gallery.ok) return kit.problem(c, page, gallery);
    const [drafts, provider] = await Promise.all([
      kit.act(session, 'merchant.media.list', { id: productId }),
      kit.act(session, 'merchant.media.provider', {}),
    ]);
    const main = await mainLanguage(session);
    const shownIn = (gallery.value as Gallery).language;
    const languages = [...new Set([main, shownIn, ...Object.keys(product.translations ?? {})])];
    return kit.render(
      c,
      <ProductPage
        page={page}
        product={product}
        gallery={gallery.value as Gallery}
        languages={languages}
        drafts={drafts.ok ? (drafts.value as { items: Draft[] }).items : []}
        provider={provider.ok ? (provider.value as { available: boolean; model: string | null }) : null}
        editable={mayWrite(session)}
        notice={extra.notice}
        mainLanguage={main}
        entries={extra.entries}
        fieldErrors={extra.fieldErrors}
        appBlocks={
          <AppBlocks
            page={page}
            blocks={await appBlocksFor(kit, session, PRODUCT_MOUNTS, { productId })}
            writes={session.principal.permissions.has('apps.write')}
            back={c.req.path}
          />
        }
      />,
      extra.status ?? 200,
    );
  };

  const languageOf = (c: Context): string | undefined => {
    const language = c.req.query('language');
    return language && LANGUAGE.test(language) ? language : undefined;
  };

  const NOTICES = {
    changed: 'catalog.gallery.changed',
    draft: 'catalog.drafts.created',
    applied: 'catalog.review.applied',
  } as const;

  app.get(
    '/admin/products/:id',
    kit.page(async (c, page, session) => {
      const id = c.req.param('id') ?? '';
      if (!UUID.test(id) || !mayRead(session)) return kit.notFound(c, page);
      const done = c.req.query('done') ?? '';
      const saved = /^saved-(\d+)$/.exec(done);
      const key = NOTICES[done as keyof typeof NOTICES];
      const notice: Notice | undefined = saved
        ? { kind: 'ok', text: page.t.t('catalog.saved', { revision: Number(saved[1]) }) }
        : key
          ? { kind: 'ok', text: page.t.t(key) }
          : undefined;
      return productPage(c, page, session, id, languageOf(c), notice ? { notice } : {});
    }),
  );

  // An image as stored, streamed through merchant.media.assets.content (never a public address).
  app.get(
    '/admin/products/:id/assets/:assetId',
    kit.page(async (c, page, session) => {
      const productId = c.req.param('id') ?? '';
      const assetId = c.req.param('assetId') ?? '';
      if (!UUID.test(productId) || !UUID.test(assetId)) return kit.notFound(c, page);
      const file = await kit.act(session, 'merchant.media.assets.content', { productId, assetId });
      if (!file.ok) return kit.problem(c, page, file);
      return fileResponse(file.value as { contentType: string; bytes: Uint8Array });
    }),
  );

  // The drafts list alone, for the page's polling: the drafts listed now, and those it watched
  // that left the list (failed or applied), read one by one.
  app.get(
    '/admin/products/:id/drafts',
    kit.page(async (c, page, session) => {
      const productId = c.req.param('id') ?? '';
      if (!UUID.test(productId)) return kit.notFound(c, page);
      const listed = await kit.act(session, 'merchant.media.list', { id: productId });
      if (!listed.ok) return kit.problem(c, page, listed);
      const drafts = [...(listed.value as { items: Draft[] }).items];
      const watched = (c.req.query('watch') ?? '')
        .split(',')
        .filter((id) => UUID.test(id) && !drafts.some((draft) => draft.id === id))
        .slice(0, 10);
      for (const id of watched) {
        const draft = await kit.act(session, 'merchant.media.detail', { id });
        if (draft.ok && (draft.value as Draft).productId === productId) drafts.push(draft.value as Draft);
      }
      drafts.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return c.html(<DraftList page={page} productId={productId} drafts={drafts} />);
    }),
  );

  const readDraft = async (session: AdminSession, productId: string, draftId: string) => {
    const draft = await kit.act(session, 'merchant.media.detail', { id: draftId });
    if (!draft.ok) return draft;
    return (draft.value as Draft).productId === productId
      ? (draft as { ok: true; value: Draft })
      : ({ ok: false, code: 'NOT_FOUND', detail: 'No such image draft of this product.' } as const);
  };

  const reviewPage = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    productId: string,
    draftId: string,
    extra: { notice?: Notice; status?: number } = {},
  ) => {
    const product = await kit.act(session, 'catalog.products.get', { id: productId });
    if (!product.ok) return kit.problem(c, page, product);
    const draft = await readDraft(session, productId, draftId);
    if (!draft.ok) return kit.problem(c, page, draft);
    return kit.render(
      c,
      <DraftReviewPage
        page={page}
        product={(product.value as { product: ProductRow }).product}
        draft={draft.value}
        editable={mayWrite(session)}
        notice={extra.notice}
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    '/admin/products/:id/drafts/:draftId',
    kit.page(async (c, page, session) => {
      const productId = c.req.param('id') ?? '';
      const draftId = c.req.param('draftId') ?? '';
      if (!UUID.test(productId) || !UUID.test(draftId)) return kit.notFound(c, page);
      return reviewPage(c, page, session, productId, draftId);
    }),
  );

  // The draft's private PNG through merchant.media.image.
  app.get(
    '/admin/products/:id/drafts/:draftId/image',
    kit.page(async (c, page, session) => {
      const productId = c.req.param('id') ?? '';
      const draftId = c.req.param('draftId') ?? '';
      if (!UUID.test(productId) || !UUID.test(draftId)) return kit.notFound(c, page);
      const draft = await readDraft(session, productId, draftId);
      if (!draft.ok) return kit.problem(c, page, draft);
      const file = await kit.act(session, 'merchant.media.image', { id: draftId });
      if (!file.ok) return kit.problem(c, page, file);
      return fileResponse(file.value as { contentType: string; bytes: Uint8Array });
    }),
  );

  app.post('/admin/products/:id/drafts/:draftId/apply', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const productId = c.req.param('id') ?? '';
    const draftId = c.req.param('draftId') ?? '';
    if (!UUID.test(productId) || !UUID.test(draftId)) return kit.notFound(c, page);
    const draft = await readDraft(session, productId, draftId);
    if (!draft.ok) return kit.problem(c, page, draft);
    const applied = await kit.act(session, 'merchant.media.apply', {
      id: draftId,
      revision: integer(form, 'revision'),
    });
    if (applied.ok) return kit.redirect(c, `/admin/products/${productId}?done=applied`);
    if (applied.code === 'FORBIDDEN') return kit.problem(c, page, applied);
    return reviewPage(c, page, session, productId, draftId, {
      status: applied.code === 'NOT_FOUND' ? 404 : 409,
      notice: { kind: 'error', text: page.t.t('error.refused', { detail: applied.detail }) },
    });
  });

  /**
   * A POST on a product: checks the form, runs `change`, then redirects to the product page with
   * `done`, or re-renders it with the operation's refusal (409 for a stale revision, else 422).
   */
  const productPost = (
    path: string,
    change: (
      form: FormBody,
      session: AdminSession,
      productId: string,
      language: string | undefined,
    ) => Promise<{ ok: true; done: string } | { ok: false; code: string; detail: string }>,
  ) =>
    app.post(path, async (c) => {
      const checked = await kit.checkedForm(c);
      if (checked instanceof Response) return checked;
      const { form, page, session } = checked;
      const productId = c.req.param('id') ?? '';
      if (!UUID.test(productId)) return kit.notFound(c, page);
      const language = languageOf(c);
      const result = await change(form, session, productId, language);
      if (result.ok) {
        const query = new URLSearchParams({ done: result.done, ...(language ? { language } : {}) });
        return kit.redirect(c, `/admin/products/${productId}?${query}`);
      }
      if (result.code === 'FORBIDDEN' || result.code === 'NOT_FOUND') return kit.problem(c, page, result);
      const stale = result.code === 'STALE_REVISION' || result.code === 'CONFLICT';
      const tooLarge = result.code === 'PAYLOAD_TOO_LARGE' || result.code === 'IMAGE_TOO_LARGE';
      return productPage(c, page, session, productId, language, {
        status: stale ? 409 : tooLarge ? 413 : 422,
        notice: {
          kind: stale ? 'warning' : 'error',
          text: tooLarge
            ? page.t.t('catalog.upload.tooLarge', { size: IMAGE_LIMITS.maxBytes / MiB })
            : page.t.t('error.refused', { detail: result.detail }),
        },
      });
    });

  const changed = (result: { ok: boolean; code?: string; detail?: string }, done = 'changed') =>
    result.ok
      ? ({ ok: true, done } as const)
      : ({ ok: false, code: result.code ?? 'VALIDATION_FAILED', detail: result.detail ?? '' } as const);

  productPost('/admin/products/:id/gallery/move', async (form, session, productId) => {
    const gallery = await kit.act(session, 'merchant.media.gallery.read', { productId });
    if (!gallery.ok) return changed(gallery);
    const ids = (gallery.value as Gallery).entries.map((entry) => entry.id);
    const index = ids.indexOf(text(form, 'entryId'));
    const to = text(form, 'direction') === 'up' ? index - 1 : index + 1;
    if (index >= 0 && to >= 0 && to < ids.length) {
      [ids[index], ids[to]] = [ids[to]!, ids[index]!];
    }
    return changed(
      await kit.act(session, 'merchant.media.gallery.reorder', {
        productId,
        revision: integer(form, 'revision'),
        entryIds: ids,
      }),
    );
  });

  productPost('/admin/products/:id/gallery/cover', async (form, session, productId) =>
    changed(
      await kit.act(session, 'merchant.media.gallery.cover', {
        productId,
        revision: integer(form, 'revision'),
        entryId: text(form, 'entryId'),
      }),
    ),
  );

  productPost('/admin/products/:id/gallery/remove', async (form, session, productId) =>
    changed(
      await kit.act(session, 'merchant.media.gallery.remove', {
        productId,
        revision: integer(form, 'revision'),
        entryId: text(form, 'entryId'),
      }),
    ),
  );

  // An emptied alt text removes the language's own text (the main language's shows again).
  productPost('/admin/products/:id/gallery/alt', async (form, session, productId, language) => {
    const target = language ?? (await mainLanguage(session));
    const alt = text(form, 'alt').trim();
    return changed(
      await kit.act(session, 'merchant.media.gallery.alt', {
        productId,
        entryId: text(form, 'entryId'),
        revision: integer(form, 'revision'),
        altTexts: { [target]: alt === '' ? null : alt },
      }),
    );
  });

  // A multipart upload: the bytes go to the product's asset store, then into the gallery. The
  // route's body may hold an image up to the gallery's limit (kit.limitBody); a file past that
  // limit that still fit the body is refused here, before anything is decoded or stored.
  kit.limitBody('/admin/products/:id/gallery/upload', UPLOAD_BODY_LIMIT);
  productPost('/admin/products/:id/gallery/upload', async (form, session, productId, language) => {
    const file = form.file;
    if (!(file instanceof File) || file.size === 0) {
      return { ok: false, code: 'VALIDATION_FAILED', detail: 'no image file was sent' } as const;
    }
    if (file.size > IMAGE_LIMITS.maxBytes) {
      return { ok: false, code: 'PAYLOAD_TOO_LARGE', detail: 'the image is larger than 8 MiB' } as const;
    }
    const contentBase64 = Buffer.from(await file.arrayBuffer()).toString('base64');
    const uploaded = await kit.act(session, 'merchant.media.assets.upload', { productId, contentBase64 });
    if (!uploaded.ok) return changed(uploaded);
    const alt = text(form, 'alt').trim();
    const target = language ?? (await mainLanguage(session));
    return changed(
      await kit.act(session, 'merchant.media.gallery.add', {
        productId,
        assetId: (uploaded.value as { id: string }).id,
        ...(alt ? { altTexts: { [target]: alt } } : {}),
      }),
    );
  });

  // The product form: the fields that differ from the product as read go to catalog.products.update
  // at the revision the page showed (a save with nothing changed sends the revision alone); every
  // save publishes the staged gallery entries (0043). A refusal keeps the entries: problems of
  // the form itself are pinned on their fields before anything is sent (422), the operation's
  // field errors likewise, and a stale revision answers 409 with the entries kept over the
  // product as it is now.
  app.post('/admin/products/:id/save', async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const productId = c.req.param('id') ?? '';
    if (!UUID.test(productId)) return kit.notFound(c, page);
    // A reader's replayed form is refused as the operation would refuse it, before any field check.
    if (!mayWrite(session)) return kit.problem(c, page, { code: 'FORBIDDEN', detail: '' });
    const { t } = page;
    const read = await kit.act(session, 'catalog.products.get', { id: productId });
    if (!read.ok) return kit.problem(c, page, read);
    const { product, own } = read.value as { product: ProductRow & EditedProduct; own: EditedProduct };
    const shownIn = languageOf(c);
    const language = shownIn ?? (await mainLanguage(session));
    const entries = postedEntries(form, product);
    const again = (
      status: number,
      notice: Notice,
      more: { entries?: ProductEntries; fieldErrors?: FieldErrors },
    ) => productPage(c, page, session, productId, shownIn, { status, notice, entries, ...more });
    const built = updateInputOf(entries, product, own, language, t.locale);
    if (!built.ok) {
      return again(422, { kind: 'error', text: t.t('catalog.edit.invalid') }, { fieldErrors: built.errors });
    }
    const saved = await kit.act(session, 'catalog.products.update', {
      id: productId,
      revision: integer(form, 'revision'),
      ...built.input,
    });
    if (saved.ok) {
      const revision = (saved.value as { product: ProductRow }).product.revision;
      const query = new URLSearchParams({
        done: `saved-${revision}`,
        ...(shownIn ? { language: shownIn } : {}),
      });
      return kit.redirect(c, `/admin/products/${productId}?${query}`);
    }
    if (saved.code === 'FORBIDDEN' || saved.code === 'NOT_FOUND') return kit.problem(c, page, saved);
    if (saved.code === 'STALE_REVISION') {
      // The fields the member left as shown take the product's values now; their edits stay.
      const now = entriesOf(product, language, t.locale);
      return again(
        409,
        { kind: 'warning', text: t.t('catalog.edit.stale', { detail: saved.detail }) },
        { entries: keptEntries(entries, text(form, 'was'), now) },
      );
    }
    return again(
      422,
      { kind: 'error', text: t.t('error.refused', { detail: saved.detail }) },
      { fieldErrors: fieldErrorsOf(saved.errors ?? [], built.prices) },
    );
  });

  // A draft from an instruction, one of the product's images and a mode; the form's key makes a
  // repeated post (a double click, a retry) answer the same draft.
  productPost('/admin/products/:id/drafts', async (form, session, productId) => {
    const key = text(form, 'key');
    return changed(
      await kit.act(session, 'merchant.media.create', {
        id: productId,
        assetId: text(form, 'assetId'),
        mode: text(form, 'mode') === 'generate' ? 'generate' : 'optimize',
        instruction: text(form, 'instruction'),
        ...(key ? { idempotencyKey: `admin-${key}` } : {}),
      }),
      'draft',
    );
  });
};
