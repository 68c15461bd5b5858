import { resolveTranslated } from '@cartwright/commerce';
import {
  advanceGalleryRevision,
  countGalleryEntries,
  deleteGalleryEntry,
  type Executor,
  findGalleryRevision,
  findProduct,
  type GalleryEntryChange,
  type GalleryEntryWithAsset,
  insertGalleryEntry,
  listGalleryEntries,
  updateGalleryEntries,
} from '@cartwright/repository';
import * as v from 'valibot';
import { type FieldError, fail, ok, type Result } from '../kernel/errors.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { iso, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import {
  type MediaAsset,
  MediaAssetView,
  mediaAssetOf,
  mediaAssetView,
  noProduct,
  storeMediaAsset,
} from './assets.ts';
import { IMAGE_CONTENT_TYPES, inspectImage } from './images.ts';

// A product's gallery (decision 0043): ordered entries, each showing one of the product's assets,
// at most one cover, alt text per language. Every write moves the product's GALLERY revision (not
// the product's): reorder, cover, alt text and remove name the revision they read. An applied image
// draft adds a STAGED entry, which staff see and the public never does, until the product's next
// save publishes it. A variant without published entries of its own shows its parent's.

/** Entries per product, staged ones included (spec limits). */
export const MAX_GALLERY_ENTRIES = 20;
/** The longest alt text in one language. */
export const MAX_ALT_TEXT = 1000;

/** Alt text per language as stored: a missing language inherits the main language's; '' stays empty. */
export type AltTexts = Record<string, string>;

export const GalleryEntryView = v.object({
  id: Uuid,
  assetId: Uuid,
  position: v.number(),
  cover: v.boolean(),
  /** `staged`: added by an applied image draft, public after the product's next save. */
  state: v.picklist(['staged', 'published']),
  /** Alt text per language as stored (missing languages inherit the main language's). */
  altTexts: v.record(v.string(), v.string()),
  /** The alt text in the language read, with the language it came from; null when none has one. */
  alt: v.nullable(v.object({ value: v.string(), language: v.string() })),
  draftId: v.nullable(Uuid),
  asset: MediaAssetView,
  createdAt: Timestamp,
  publishedAt: v.nullable(Timestamp),
});
export type GalleryEntryView = v.InferOutput<typeof GalleryEntryView>;

export const GalleryView = v.object({
  productId: Uuid,
  /** The gallery revision reorder, cover, alt text and remove must name (0 before the first write). */
  revision: v.number(),
  /** The language `alt` is read in. */
  language: v.string(),
  /** This product's own entries, staged ones included, by position. */
  entries: v.array(GalleryEntryView),
  /** A variant without published entries of its own shows its parent's: those, else null. */
  inherited: v.nullable(v.object({ productId: Uuid, entries: v.array(GalleryEntryView) })),
});
export type GalleryView = v.InferOutput<typeof GalleryView>;

function resolveAlt(altTexts: AltTexts, language: string, mainLanguage: string) {
  const byLanguage = Object.fromEntries(
    Object.entries(altTexts).map(([code, text]) => [code, { alt: text }]),
  );
  return resolveTranslated(byLanguage, 'alt', language, mainLanguage);
}

function entryView(entry: GalleryEntryWithAsset, language: string, mainLanguage: string): GalleryEntryView {
  return {
    id: entry.id,
    assetId: entry.assetId,
    position: entry.position,
    cover: entry.isCover,
    state: entry.state,
    altTexts: { ...entry.altTexts },
    alt: resolveAlt(entry.altTexts, language, mainLanguage),
    draftId: entry.draftId,
    asset: mediaAssetView(mediaAssetOf(entry.asset)),
    createdAt: iso(entry.createdAt),
    publishedAt: iso(entry.publishedAt),
  };
}

/** Staff's view of a product's gallery in `language`; reading creates nothing. */
export async function readGallery(
  db: Executor,
  tenantId: string,
  productId: string,
  language: string,
  mainLanguage: string,
): Promise<Result<GalleryView>> {
  const product = await findProduct(db, tenantId, productId);
  if (!product) return noProduct();
  const ids = product.parentId ? [product.id, product.parentId] : [product.id];
  const [entries, revision] = await Promise.all([
    listGalleryEntries(db, tenantId, ids),
    findGalleryRevision(db, tenantId, product.id),
  ]);
  const own = entries.filter((entry) => entry.productId === product.id);
  const inheritsParent = product.parentId !== null && !own.some((entry) => entry.state === 'published');
  const parentEntries = entries.filter(
    (entry) => entry.productId === product.parentId && entry.state === 'published',
  );
  return ok({
    productId: product.id,
    revision,
    language,
    entries: own.map((entry) => entryView(entry, language, mainLanguage)),
    inherited:
      inheritsParent && product.parentId
        ? {
            productId: product.parentId,
            entries: parentEntries.map((entry) => entryView(entry, language, mainLanguage)),
          }
        : null,
  });
}

/** One image of a product as the storefront shows it. */
export const StoreImage = v.object({
  id: Uuid,
  assetId: Uuid,
  /** Where the bytes are served: GET with the channel key (`x-channel-key`), like every store route. */
  url: v.string(),
  contentType: v.string(),
  width: v.number(),
  height: v.number(),
  /** In the visitor's language, else the main language's; '' when set empty on purpose; null when none. */
  alt: v.nullable(v.string()),
  cover: v.boolean(),
});
export type StoreImage = v.InferOutput<typeof StoreImage>;

/** The path a storefront reads an image's bytes from. */
export function storeImagePath(assetId: string): string {
  return `/store-api/media/${assetId}`;
}

/** Cover first, then by position. */
function publicOrder(a: GalleryEntryWithAsset, b: GalleryEntryWithAsset): number {
  if (a.isCover !== b.isCover) return a.isCover ? -1 : 1;
  return a.position - b.position || a.id.localeCompare(b.id);
}

/**
 * The public galleries of products as the storefront shows them (published entries only, cover
 * first, alt text in `language` with the main language as fallback); a variant without published
 * entries of its own shows its parent's. One query for all of them.
 */
export async function publicGalleries(
  db: Executor,
  tenantId: string,
  products: readonly { readonly id: string; readonly parentId: string | null }[],
  language: string,
  mainLanguage: string,
): Promise<Map<string, StoreImage[]>> {
  const ids = [
    ...new Set(
      products.flatMap((product) => (product.parentId ? [product.id, product.parentId] : [product.id])),
    ),
  ];
  const entries = (await listGalleryEntries(db, tenantId, ids)).filter(
    (entry) => entry.state === 'published',
  );
  const byProduct = new Map<string, GalleryEntryWithAsset[]>();
  for (const entry of entries) {
    const list = byProduct.get(entry.productId) ?? [];
    list.push(entry);
    byProduct.set(entry.productId, list);
  }
  const galleries = new Map<string, StoreImage[]>();
  for (const product of products) {
    const own = byProduct.get(product.id) ?? [];
    const shown = own.length > 0 || !product.parentId ? own : (byProduct.get(product.parentId) ?? []);
    galleries.set(
      product.id,
      [...shown].sort(publicOrder).map((entry) => ({
        id: entry.id,
        assetId: entry.assetId,
        url: storeImagePath(entry.assetId),
        contentType: IMAGE_CONTENT_TYPES[entry.asset.format],
        width: entry.asset.width,
        height: entry.asset.height,
        alt: resolveAlt(entry.altTexts, language, mainLanguage)?.value ?? null,
        cover: entry.isCover,
      })),
    );
  }
  return galleries;
}

/** What a gallery write works on: the locked product's own entries and its gallery revision. */
export interface LockedGallery {
  readonly productId: string;
  readonly revision: number;
  readonly entries: readonly GalleryEntryWithAsset[];
}

/**
 * Locks the product row (every gallery write of a product and the product's save queue behind it)
 * and reads its own entries and gallery revision; `expected` checks the revision the caller read.
 */
export async function lockGallery(
  tx: Executor,
  tenantId: string,
  productId: string,
  expected?: number,
): Promise<Result<LockedGallery>> {
  if (!(await findProduct(tx, tenantId, productId, 'update'))) return noProduct();
  const revision = await findGalleryRevision(tx, tenantId, productId);
  if (expected !== undefined && expected !== revision) return staleRevision(expected, revision);
  const entries = await listGalleryEntries(tx, tenantId, [productId]);
  return ok({ productId, revision, entries });
}

/** Moves the gallery revision on after a write (the product row lock makes the move certain). */
async function advance(
  tx: Executor,
  services: Services,
  tenantId: string,
  gallery: LockedGallery,
): Promise<number> {
  const next = await advanceGalleryRevision(
    tx,
    tenantId,
    gallery.productId,
    gallery.revision,
    services.clock.now(),
  );
  if (next === undefined) throw new Error(`gallery of ${gallery.productId} moved under its product lock`);
  return next;
}

function galleryFull() {
  return fail('GALLERY_LIMIT_REACHED', `A product's gallery holds at most ${MAX_GALLERY_ENTRIES} entries.`, {
    extensions: { limit: MAX_GALLERY_ENTRIES },
  });
}

/** Refuses before anything is stored when the gallery is already full. */
export function refuseFullGallery(gallery: LockedGallery) {
  return gallery.entries.length >= MAX_GALLERY_ENTRIES ? galleryFull() : null;
}

/**
 * NOT_FOUND or GALLERY_LIMIT_REACHED before a fetch or a decode starts, without a lock (the write
 * checks again under the product lock); null when the product exists and its gallery has room.
 */
export async function refuseWithoutRoom(db: Executor, tenantId: string, productId: string) {
  if (!(await findProduct(db, tenantId, productId))) return noProduct();
  return (await countGalleryEntries(db, tenantId, productId)) >= MAX_GALLERY_ENTRIES ? galleryFull() : null;
}

function nextPosition(gallery: LockedGallery): number {
  return gallery.entries.reduce((highest, entry) => Math.max(highest, entry.position + 1), 0);
}

/**
 * Adds a published entry showing `asset` (an asset of the locked product) at the end; it becomes
 * the cover when the gallery has none. Answers the new entry's id.
 */
export async function addGalleryEntry(
  tx: Executor,
  services: Services,
  tenantId: string,
  gallery: LockedGallery,
  input: { readonly asset: MediaAsset; readonly altTexts: AltTexts },
): Promise<Result<{ readonly entryId: string; readonly revision: number }>> {
  const full = refuseFullGallery(gallery);
  if (full) return full;
  if (gallery.entries.some((entry) => entry.assetId === input.asset.id)) {
    return fail('CONFLICT', 'The gallery already shows this image.', {
      extensions: { assetId: input.asset.id },
    });
  }
  const now = services.clock.now();
  const hasCover = gallery.entries.some((entry) => entry.isCover);
  const entry = await insertGalleryEntry(tx, {
    tenantId,
    id: services.ids.next(),
    productId: gallery.productId,
    assetId: input.asset.id,
    position: nextPosition(gallery),
    isCover: !hasCover,
    altTexts: input.altTexts,
    state: 'published',
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return ok({ entryId: entry.id, revision: await advance(tx, services, tenantId, gallery) });
}

/** Sets the order: `entryIds` must name every entry of the gallery exactly once. */
export async function reorderGallery(
  tx: Executor,
  services: Services,
  tenantId: string,
  gallery: LockedGallery,
  entryIds: readonly string[],
): Promise<Result<number>> {
  const known = new Set(gallery.entries.map((entry) => entry.id));
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  entryIds.forEach((id, index) => {
    if (!known.has(id))
      errors.push({ pointer: `/entryIds/${index}`, message: 'not an entry of this gallery' });
    else if (seen.has(id)) errors.push({ pointer: `/entryIds/${index}`, message: 'named twice' });
    seen.add(id);
  });
  const missing = gallery.entries.filter((entry) => !seen.has(entry.id));
  if (missing.length > 0) {
    errors.push({
      pointer: '/entryIds',
      message: `leaves out ${missing.map((entry) => entry.id).join(', ')}`,
    });
  }
  if (errors.length > 0) {
    return fail('VALIDATION_FAILED', 'Name every entry of the gallery exactly once, in the new order.', {
      errors: errors.slice(0, 20),
    });
  }
  await writeChanges(
    tx,
    services,
    tenantId,
    entryIds.map((id, position) => ({ id, position })),
  );
  return ok(await advance(tx, services, tenantId, gallery));
}

function writeChanges(tx: Executor, services: Services, tenantId: string, changes: GalleryEntryChange[]) {
  return updateGalleryEntries(tx, tenantId, changes, services.clock.now());
}

/** Makes a published entry the cover (the previous cover stops being one). */
export async function selectCover(
  tx: Executor,
  services: Services,
  tenantId: string,
  gallery: LockedGallery,
  entryId: string,
): Promise<Result<number>> {
  const entry = gallery.entries.find((candidate) => candidate.id === entryId);
  if (!entry) return fail('NOT_FOUND', 'No such entry exists in this gallery.');
  if (entry.state !== 'published') {
    return fail('VALIDATION_FAILED', 'A staged entry cannot be the cover until the product is saved.', {
      errors: [{ pointer: '/entryId', message: 'staged; save the product to publish it first' }],
    });
  }
  if (!entry.isCover) {
    const previous = gallery.entries.filter((candidate) => candidate.isCover);
    await writeChanges(tx, services, tenantId, [
      ...previous.map((candidate) => ({ id: candidate.id, isCover: false })),
      { id: entry.id, isCover: true },
    ]);
  }
  return ok(await advance(tx, services, tenantId, gallery));
}

/** Changes alt texts per language: a string sets it ('' stays empty), null removes it (it inherits again). */
export async function setAltTexts(
  tx: Executor,
  services: Services,
  tenantId: string,
  gallery: LockedGallery,
  entryId: string,
  changes: Readonly<Record<string, string | null>>,
): Promise<Result<number>> {
  const entry = gallery.entries.find((candidate) => candidate.id === entryId);
  if (!entry) return fail('NOT_FOUND', 'No such entry exists in this gallery.');
  const altTexts: AltTexts = { ...entry.altTexts };
  for (const [language, text] of Object.entries(changes)) {
    if (text === null) delete altTexts[language];
    else altTexts[language] = text;
  }
  await writeChanges(tx, services, tenantId, [{ id: entry.id, altTexts }]);
  return ok(await advance(tx, services, tenantId, gallery));
}

/**
 * Removes an entry (its asset stays, to be shown again or deleted); when it was the cover, the
 * first published entry left becomes the cover.
 */
export async function removeGalleryEntry(
  tx: Executor,
  services: Services,
  tenantId: string,
  gallery: LockedGallery,
  entryId: string,
): Promise<Result<number>> {
  const entry = gallery.entries.find((candidate) => candidate.id === entryId);
  if (!entry) return fail('NOT_FOUND', 'No such entry exists in this gallery.');
  await deleteGalleryEntry(tx, tenantId, entry.id);
  if (entry.isCover) {
    const successor = gallery.entries.find(
      (candidate) => candidate.id !== entry.id && candidate.state === 'published',
    );
    if (successor) await writeChanges(tx, services, tenantId, [{ id: successor.id, isCover: true }]);
  }
  return ok(await advance(tx, services, tenantId, gallery));
}

/**
 * The image drafts' door into the gallery: in the caller's transaction (after it checked that the
 * draft's product revision is still current), stores `png` as a new asset of the product (source
 * `draft`) and adds a STAGED entry for it at the end. Staff see it as staged; the public never does
 * until the product's next save (catalog.products.update) publishes it. The PNG is the output of
 * reencodeAsPng, so only its header is checked here. The product's revision does not move.
 */
export async function stageGalleryEntry(
  tx: Executor,
  services: Services,
  tenantId: string,
  input: {
    readonly productId: string;
    readonly draftId: string;
    readonly png: Uint8Array;
    readonly altTexts?: AltTexts;
  },
): Promise<Result<{ readonly entryId: string; readonly assetId: string }>> {
  const inspected = await inspectImage(input.png);
  if (!inspected.ok) return inspected;
  const locked = await lockGallery(tx, tenantId, input.productId);
  if (!locked.ok) return locked;
  const gallery = locked.value;
  const full = refuseFullGallery(gallery);
  if (full) return full;
  const stored = await storeMediaAsset(tx, services, tenantId, {
    productId: input.productId,
    image: { ...inspected.value, bytes: input.png },
    source: 'draft',
  });
  if (!stored.ok) return stored;
  const now = services.clock.now();
  const entry = await insertGalleryEntry(tx, {
    tenantId,
    id: services.ids.next(),
    productId: gallery.productId,
    assetId: stored.value.id,
    position: nextPosition(gallery),
    isCover: false,
    altTexts: input.altTexts ?? {},
    state: 'staged',
    draftId: input.draftId,
    createdAt: now,
    updatedAt: now,
  });
  await advance(tx, services, tenantId, gallery);
  return ok({ entryId: entry.id, assetId: stored.value.id });
}

/**
 * The product save's hook (catalog.products.update, in its transaction, the product row already
 * locked): publishes every staged entry of the product; the first published entry becomes the
 * cover when there is none. Answers how many were published.
 */
export async function publishStagedGalleryEntries(
  tx: Executor,
  services: Services,
  tenantId: string,
  productId: string,
): Promise<number> {
  // The product row is already locked by the save: one query when nothing is staged (the usual case).
  const entries = await listGalleryEntries(tx, tenantId, [productId]);
  const staged = entries.filter((entry) => entry.state === 'staged');
  if (staged.length === 0) return 0;
  const gallery: LockedGallery = {
    productId,
    revision: await findGalleryRevision(tx, tenantId, productId),
    entries,
  };
  const now = services.clock.now();
  const changes: GalleryEntryChange[] = staged.map((entry) => ({
    id: entry.id,
    state: 'published' as const,
    publishedAt: now,
  }));
  if (!gallery.entries.some((entry) => entry.isCover)) {
    const first = [...gallery.entries].sort((a, b) => a.position - b.position)[0]!;
    const change = changes.find((candidate) => candidate.id === first.id);
    if (change) changes[changes.indexOf(change)] = { ...change, isCover: true };
    else changes.push({ id: first.id, isCover: true });
  }
  await writeChanges(tx, services, tenantId, changes);
  await advance(tx, services, tenantId, gallery);
  return staged.length;
}
