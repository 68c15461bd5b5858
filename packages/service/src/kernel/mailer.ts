// The mail port. The service sends e-mail only through this interface; the SMTP adapter
// (`mail/smtp.ts`, nodemailer) implements it against the operator's `SMTP_URL`, tests run it
// against the loopback SMTP server in `tooling/`. Every answer says whether the server accepted
// the message, refused it for good, or could not be reached: a failure is a result, never an
// exception, and its detail never holds the credentials of `SMTP_URL`.

/** Why a message was not accepted: no mail server configured, refused for good, or not now. */
export type MailFailureCode = 'MAIL_NOT_CONFIGURED' | 'MAIL_REFUSED' | 'MAIL_UNAVAILABLE';

/** An address with an optional display name (encoded by the adapter, never pasted into a header). */
export interface MailAddress {
  readonly name?: string | undefined;
  readonly address: string;
}

/** One message to one recipient. */
export interface MailMessage {
  readonly to: string;
  readonly from: MailAddress;
  readonly replyTo?: string | undefined;
  readonly subject: string;
  readonly text: string;
  readonly html?: string | undefined;
  /**
   * The `Message-ID` header, `<local@domain>`, derived from the idempotency key of the send: a
   * message sent again after an unknown outcome carries the same one, so receivers see a replay.
   */
  readonly messageId: string;
  /** Extra headers (`Content-Language`, `Auto-Submitted`); never `From`, `To` or `Message-ID`. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** What one send did. */
export type MailResult =
  | {
      readonly ok: true;
      /** The `Message-ID` the message was sent with. */
      readonly messageId: string;
      /** The recipients the server accepted. */
      readonly accepted: readonly string[];
      /** The server's final reply, e.g. `250 2.0.0 OK: queued as …`. */
      readonly response: string;
    }
  | {
      readonly ok: false;
      /**
       * `MAIL_REFUSED`: a permanent (5xx) reply; sending the same message again gets the same.
       * `MAIL_UNAVAILABLE`: no connection, a timeout, a dropped connection or a temporary (4xx)
       * reply; it may be sent again later. A timeout after the message data went out leaves its
       * fate unknown: a later send carries the same `Message-ID`.
       */
      readonly code: MailFailureCode;
      /** One line for a merchant or an operator; never a credential of `SMTP_URL`. */
      readonly detail: string;
      /** The server's reply code, when the failure is a reply. */
      readonly responseCode: number | null;
    };

export interface Mailer {
  send(message: MailMessage): Promise<MailResult>;
}

/** The mailer of a service without `SMTP_URL`: every message answers MAIL_NOT_CONFIGURED. */
export const noMailer: Mailer = {
  send: async () => ({
    ok: false,
    code: 'MAIL_NOT_CONFIGURED',
    detail: 'No mail server is configured (SMTP_URL): nothing was sent.',
    responseCode: null,
  }),
};
