// The image provider port (issue 18, spec Authentication 12). Image drafts are drawn by an outside
// provider speaking the widely used images API; the operator enables it (`IMAGE_GENERATION_ENABLED`)
// and configures its key, model and base URL. The service reaches it only through this interface:
// `generate` draws from an instruction, `optimize` edits an uploaded product image. Every way a call
// can end is an answer with a stable code, never an exception, and no answer ever carries the API
// key or the configured URL. The bytes of a success are the provider's, unchecked: the caller
// decodes and re-encodes them within its limits before anything keeps them.

/** Why a call produced no image. */
export type ImageProviderFailureCode =
  /** Image generation is not enabled in this process; nothing was sent. */
  | 'IMAGE_PROVIDER_DISABLED'
  /** A definite refusal (a 4xx answer: policy, quota, bad input); the provider drew nothing. */
  | 'IMAGE_PROVIDER_REFUSED'
  /** No full answer: a connection failure, a timeout, a dropped or cut answer, a 5xx. */
  | 'IMAGE_PROVIDER_UNAVAILABLE'
  /** A 2xx answer without one base64 image, or larger than the response limit. */
  | 'IMAGE_PROVIDER_ANSWER_INVALID';

/** What a merchant may know of the provider: whether it is available and its model, never the key. */
export interface ImageProviderInfo {
  readonly available: boolean;
  /** The model drafts are drawn with; null when unavailable. */
  readonly model: string | null;
}

/** An image sent along with an `optimize` instruction. */
export interface ProviderSourceImage {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly fileName: string;
}

export type ImageProviderRequest =
  | { readonly mode: 'generate'; readonly instruction: string }
  | { readonly mode: 'optimize'; readonly instruction: string; readonly image: ProviderSourceImage };

export type ImageProviderResult =
  | {
      readonly ok: true;
      /** The first image of the answer, base64-decoded and not yet checked. */
      readonly bytes: Uint8Array;
      readonly model: string;
    }
  | {
      readonly ok: false;
      readonly code: ImageProviderFailureCode;
      /** One line for a merchant; never the key, the configured URL or the answer's body. */
      readonly message: string;
    };

export interface ImageProvider {
  info(): ImageProviderInfo;
  /** The deadline of one call in milliseconds (a worker leases a draft for longer than this). */
  readonly timeoutMs: number;
  draw(request: ImageProviderRequest): Promise<ImageProviderResult>;
}

/** The default: image generation is off; every call answers IMAGE_PROVIDER_DISABLED. */
export const noImageProvider: ImageProvider = {
  info: () => ({ available: false, model: null }),
  timeoutMs: 0,
  draw: async () => ({
    ok: false,
    code: 'IMAGE_PROVIDER_DISABLED',
    message: 'Image generation is not enabled (IMAGE_GENERATION_ENABLED).',
  }),
};
