import { createFaultQueue } from '../fault-queue.ts';
/**
 * Failures a real mail server shows its clients, injected into the next matching session(s):
 * - `reply`: answer `code` (with `message`) at `stage`: 550 for a recipient refused for good,
 *   451 for "try again later", 421 at `connect` for a server that is shutting down;
 * - `drop`: close the connection at `stage` without answering;
 * - `hang`: never answer at `stage`, until the client gives up (its timeout).
 * At `data` the message has been read when the fault applies; `performs: true` records it as
 * received first (a server that took the message, then lost the connection before saying so).
 */
export type SmtpFaultStage = 'connect' | 'mail' | 'rcpt' | 'data';

export type SmtpFaultKind = 'reply' | 'drop' | 'hang';

export interface SmtpFault {
  readonly stage: SmtpFaultStage;
  readonly kind: SmtpFaultKind;
  /** For `reply`: the SMTP reply code (400–599). */
  readonly code?: number;
  /** For `reply`: the text after the code. */
  readonly message?: string;
  /** How many matching sessions it affects; 1 by default. */
  readonly times?: number;
  /** For `drop` and `hang` at `data`: record the message as received first (default false). */
  readonly performs?: boolean;
}

/** Pending faults, consumed first-added first, each at its stage. */
export function createSmtpFaults() {
  return createFaultQueue(
    (fault: SmtpFault, stage: SmtpFaultStage) => fault.stage === stage,
    (fault) => {
      if (fault.kind === 'reply') {
        const code = fault.code;
        if (code === undefined || !Number.isInteger(code) || code < 400 || code > 599)
          throw new Error('failNext: a reply fault needs a code from 400 to 599');
      }
    },
  );
}
