// The external app service port (issue 15, spec Authentication 9). An app's `service` action with
// `runtime: external` is served by the app's own HTTP service; the operator configures its base
// URL and credential per app (`APP_SERVICES`, server-only). The service calls it only through
// this interface: one POST of `{tenant, action, input}` with the service credential, an answer read
// to at most 64 KiB within a timeout. Every way a call can end is an answer with a stable code,
// never an exception, and no answer ever carries the credential or the configured URL.

/** Why a call produced no output. */
export type AppServiceFailureCode =
  /** No endpoint is configured for this app in this process; nothing was sent. */
  | 'APP_SERVICE_NOT_CONFIGURED'
  /** No answer: a connection failure, a timeout, a 5xx. The call may have had its effect. */
  | 'APP_SERVICE_UNAVAILABLE'
  /** A definite refusal (a 4xx answer); the service did nothing. */
  | 'APP_SERVICE_REFUSED'
  /** A 2xx answer that is not a JSON object, or larger than 64 KiB. The call may have had its effect. */
  | 'APP_SERVICE_ANSWER_INVALID';

export interface AppServiceRequest {
  readonly tenantId: string;
  readonly appId: string;
  readonly actionId: string;
  /** The action's input, already checked against its declared types. */
  readonly input: unknown;
  /**
   * Sent as `Idempotency-Key` when given (a flow step's key), so a service can recognise a call
   * repeated after an unknown outcome.
   */
  readonly idempotencyKey?: string | undefined;
  /**
   * This call's deadline in whole milliseconds, when the caller cannot wait as long as the app's
   * configured one (cart pricing); the shorter of the two applies.
   */
  readonly timeoutMs?: number | undefined;
}

export type AppServiceResult =
  | { readonly ok: true; readonly output: unknown }
  | {
      readonly ok: false;
      readonly code: AppServiceFailureCode;
      /** One line for a merchant; never the credential, the configured URL or the answer's body. */
      readonly message: string;
      /** True when the service may have acted although no output came back. */
      readonly outcomeUnknown: boolean;
    };

/** One attempt to deliver an outbox event the app subscribed to (issue 16; decision 0040). */
export interface AppDeliveryRequest {
  readonly tenantId: string;
  readonly appId: string;
  /** `x-app-delivery-id`: the same on every attempt of the delivery. */
  readonly deliveryId: string;
  readonly event: {
    /** `x-app-event-id`: the outbox event's id. */
    readonly id: string;
    readonly name: string;
    /** `x-app-event-sequence`: the event's per-shop outbox sequence. */
    readonly sequence: number;
    readonly occurredAt: string;
    readonly payload: unknown;
  };
  /** `x-app-timestamp`: Unix seconds of this attempt, signed with it. */
  readonly timestamp: number;
}

/** How an attempt ended: delivered (any 2xx), or failed with what the merchant's log may show. */
export type AppDeliveryResult =
  | { readonly ok: true; readonly status: number }
  | {
      readonly ok: false;
      readonly code: AppServiceFailureCode;
      /** The answer's status; null when none came. */
      readonly status: number | null;
      /** One line for the delivery log; never the credential, the configured URL or the answer's body. */
      readonly message: string;
    };

export interface AppServices {
  /** Whether this process has an endpoint for the app. */
  isConfigured(appId: string): boolean;
  /**
   * Calls the app's service for one action. Rejects only for a caller's bug (an input that is not
   * JSON, an idempotency key that is not 1 to 255 visible ASCII characters, a deadline that is not
   * a positive whole number of milliseconds); nothing is sent then.
   */
  call(request: AppServiceRequest): Promise<AppServiceResult>;
  /** Delivers one event to the app's service, signed with its credential. Never rejects for the service's sake. */
  deliver(request: AppDeliveryRequest): Promise<AppDeliveryResult>;
}

/** The default: no app has an endpoint, every call answers `APP_SERVICE_NOT_CONFIGURED`. */
export const noAppServices: AppServices = {
  isConfigured: () => false,
  call: async (request) => ({
    ok: false,
    code: 'APP_SERVICE_NOT_CONFIGURED',
    message: `No service endpoint is configured for the app ${request.appId} (APP_SERVICES).`,
    outcomeUnknown: false,
  }),
  deliver: async (request) => ({
    ok: false,
    code: 'APP_SERVICE_NOT_CONFIGURED',
    status: null,
    message: `No service endpoint is configured for the app ${request.appId} (APP_SERVICES).`,
  }),
};
