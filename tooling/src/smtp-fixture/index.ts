/**
 * A loopback SMTP server (smtp-server) for testing the mail adapter: it records what it receives
 * (envelope, raw message, decoded headers, text and HTML parts), can require AUTH PLAIN/LOGIN,
 * and fails on demand the way real servers do (a 5xx or 4xx reply, a dropped connection, silence).
 */
export type { SmtpFault, SmtpFaultKind, SmtpFaultStage } from './faults.ts';
export { headerOf, type ParsedMessage, parseMessage } from './parse.ts';
export {
  type ReceivedMail,
  type SmtpFixture,
  type SmtpFixtureOptions,
  type SmtpLogin,
  startSmtpFixture,
} from './server.ts';
