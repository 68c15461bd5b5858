import { outsideEnvironment, storageEnvironment } from '@cartwright/service';
import * as v from 'valibot';

/** The stdio binary's variables, validated by the service's `readEnvironment` before anything opens. */
export const mcpEnvironment = {
  /** The token every call of the session is made with: it picks the shop and the permissions. */
  CARTWRIGHT_TOKEN: v.pipe(v.string('expected a Cartwright token'), v.minLength(1)),
  ...storageEnvironment,
  ...outsideEnvironment,
};
