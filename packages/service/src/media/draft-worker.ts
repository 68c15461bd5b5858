import {
  claimDueMediaDrafts,
  findEffectReceipts,
  insertPendingEffectReceipts,
  type MediaDraftFailureJson,
  type MediaDraftOutcome,
  type MediaDraftRow,
  renewMediaDraftLease,
  settleMediaDraft,
  settleReceipts,
} from '@cartwright/repository';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { ImageProviderRequest } from '../kernel/image-provider.ts';
import type { Services } from '../kernel/services.ts';
import { findSourceImage } from './drafts.ts';
import { IMAGE_LIMITS, type ImageLimits, reencodeAsPng } from './images.ts';

// The media worker's round (decision 0044). A pending draft is claimed with the one lease
// mechanism for longer than a provider call may take (and renewed right before its call); its one
// provider call is recorded as an effect receipt (`media:<draft id>`) in a committed transaction
// BEFORE it is made, and no transaction is open during the call. The answer is decided afterwards: an image that decodes
// within the limits is re-encoded as PNG, kept in the private blob store, and the draft is ready;
// anything else fails the draft with a reason. Nothing is retried: a draft whose receipt is already
// there when it is claimed (its worker was lost mid-call) fails, because its call's fate is unknown.

/** What the provider's image is held to: the image limits, with room for a provider's larger PNG. */
export const PROVIDER_IMAGE_LIMITS: ImageLimits = { ...IMAGE_LIMITS, maxBytes: 15 * 1024 * 1024 };

export interface MediaRoundOptions {
  readonly owner: string;
  /** The host's lease; a draft is held this long plus the provider's deadline. */
  readonly leaseMs: number;
  readonly limit: number;
  /** Test seam: runs after a draft's receipt commits, before its provider call. */
  readonly afterReceipt?: ((key: string) => Promise<void>) | undefined;
}

export interface MediaRound {
  readonly claimed: number;
  readonly ready: number;
  /** The drafts that failed this round, with their reasons (the runner logs them). */
  readonly failed: readonly { readonly tenantId: string; readonly draftId: string; readonly code: string }[];
  /** Drafts whose lease was lost before their outcome could be written. */
  readonly lost: number;
}

/** The receipt key of a draft's one provider call. */
export function draftReceiptKey(draftId: string): string {
  return `media:${draftId}`;
}

class LeaseLost extends Error {}

/** Who records the worker's events. */
const WORKER: Actor = { kind: 'system', process: 'media-worker' };

/** How long a draft is leased: the host's lease plus the provider's deadline, so a call never outlives it. */
function leaseMsOf(services: Services, options: MediaRoundOptions): number {
  return options.leaseMs + services.imageProvider.timeoutMs;
}

/** Before the call: the draft settled already (no call), or the call to make. */
type Started =
  | { readonly outcome: MediaDraftOutcome; readonly request: null }
  | { readonly outcome: null; readonly request: ImageProviderRequest };

/** Claims due drafts and settles each one's provider call, one draft at a time (bounded memory). */
export async function runDueMediaDrafts(services: Services, options: MediaRoundOptions): Promise<MediaRound> {
  const claimed = await services.database.transaction((tx) =>
    claimDueMediaDrafts(tx, options.owner, leaseMsOf(services, options), options.limit),
  );
  let ready = 0;
  let lost = 0;
  const failed: { tenantId: string; draftId: string; code: string }[] = [];
  for (const draft of claimed) {
    try {
      const outcome = await runDraft(services, draft, options);
      if (outcome.status === 'ready') ready += 1;
      else failed.push({ tenantId: draft.tenantId, draftId: draft.id, code: outcome.failure.code });
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      lost += 1;
    }
  }
  return { claimed: claimed.length, ready, failed, lost };
}

async function runDraft(
  services: Services,
  draft: MediaDraftRow,
  options: MediaRoundOptions,
): Promise<MediaDraftOutcome> {
  const key = draftReceiptKey(draft.id);
  const { tenantId } = draft;
  // 1. Record the call before making it, or find that an earlier worker already started it.
  const started = await services.database.transaction(async (tx): Promise<Started> => {
    const [earlier] = await findEffectReceipts(tx, tenantId, [key]);
    if (earlier) {
      const outcome: MediaDraftOutcome = {
        status: 'failed',
        failure: {
          code: 'MEDIA_WORKER_LOST',
          message:
            'The worker drawing this draft stopped during its provider call; the call is not repeated. Create a new draft.',
        },
      };
      await settle(tx, services, options.owner, draft, outcome, key);
      return { outcome, request: null };
    }
    let request: ImageProviderRequest;
    if (draft.mode === 'optimize') {
      const source = await findSourceImage(tx, services, tenantId, draft.productId, draft.sourceAssetId);
      if (!source.ok) {
        const outcome: MediaDraftOutcome = {
          status: 'failed',
          failure: {
            code: 'MEDIA_SOURCE_MISSING',
            message: `The source image is gone or unusable: ${source.detail}`,
          },
        };
        if (!(await settleMediaDraft(tx, options.owner, tenantId, draft.id, outcome))) throw new LeaseLost();
        await recordEvent(tx, services, tenantId, WORKER, 'catalog.media.draft.failed', {
          productId: draft.productId,
          draftId: draft.id,
          code: outcome.failure.code,
        });
        return { outcome, request: null };
      }
      request = { mode: 'optimize', instruction: draft.instruction, image: source.value };
    } else {
      request = { mode: 'generate', instruction: draft.instruction };
    }
    // The lease must outlive this call whatever the drafts before it in the round took.
    if (!(await renewMediaDraftLease(tx, options.owner, tenantId, draft.id, leaseMsOf(services, options)))) {
      throw new LeaseLost();
    }
    await insertPendingEffectReceipts(tx, [{ tenantId, key, scope: 'media', scopeId: draft.id }]);
    return { outcome: null, request };
  });
  if (started.outcome) return started.outcome;
  await options.afterReceipt?.(key);

  // 2. The call, with no transaction open.
  const answer = await services.imageProvider.draw(started.request);

  // 3. Decide: only an image that decodes within the limits becomes a ready draft.
  let failure: MediaDraftFailureJson | null = null;
  let png: { png: Uint8Array; width: number; height: number } | null = null;
  if (!answer.ok) {
    failure = { code: answer.code, message: answer.message };
  } else {
    const checked = await reencodeAsPng(answer.bytes, PROVIDER_IMAGE_LIMITS);
    if (!checked.ok) {
      failure = { code: checked.code, message: `The provider's image was refused: ${checked.detail}` };
    } else if (checked.value.png.byteLength > IMAGE_LIMITS.maxBytes) {
      // The gallery takes images of at most 8 MiB: a draft that could never be applied fails now.
      failure = {
        code: 'IMAGE_TOO_LARGE',
        message: `The provider's image is ${checked.value.png.byteLength} bytes as PNG; the gallery takes at most ${IMAGE_LIMITS.maxBytes}.`,
      };
    } else {
      png = checked.value;
    }
  }
  return services.database.transaction(async (tx) => {
    let outcome: MediaDraftOutcome;
    if (png) {
      const blob = await services.blobs.put(tx, tenantId, { bytes: png.png, contentType: 'image/png' });
      outcome = { status: 'ready', imageBlobId: blob.id, imageWidth: png.width, imageHeight: png.height };
    } else {
      outcome = { status: 'failed', failure: failure! };
    }
    await settle(tx, services, options.owner, draft, outcome, key);
    return outcome;
  });
}

/**
 * Writes the draft's outcome under its lease (rolling back when it was lost), settles its receipt
 * and records `catalog.media.draft.ready` or `.failed`.
 */
async function settle(
  tx: Parameters<typeof settleMediaDraft>[0],
  services: Services,
  owner: string,
  draft: MediaDraftRow,
  outcome: MediaDraftOutcome,
  key: string,
): Promise<void> {
  if (!(await settleMediaDraft(tx, owner, draft.tenantId, draft.id, outcome))) throw new LeaseLost();
  await recordEvent(tx, services, draft.tenantId, WORKER, `catalog.media.draft.${outcome.status}`, {
    productId: draft.productId,
    draftId: draft.id,
    ...(outcome.status === 'failed' ? { code: outcome.failure.code } : {}),
  });
  await settleReceipts(tx, [
    {
      tenantId: draft.tenantId,
      key,
      status: outcome.status === 'ready' ? 'confirmed' : 'failed',
      result: outcome.status === 'ready' ? { imageBlobId: outcome.imageBlobId } : outcome.failure,
    },
  ]);
}
