import { appsMessages } from './apps/messages.ts';
import { catalogMessages } from './catalog/messages.ts';
import { customersMessages } from './customers/messages.ts';
import { eventsMessages } from './events/messages.ts';
import { flowsMessages } from './flows/messages.ts';
import { intelligenceMessages } from './intelligence/messages.ts';
import { methodsMessages } from './methods/messages.ts';
import { ordersMessages } from './orders/messages.ts';
import { reviewsMessages } from './reviews/messages.ts';
import { rulesMessages } from './rules/messages.ts';
import { taxMessages } from './tax/messages.ts';
import { teamMessages } from './team/messages.ts';

// The message catalogs of the admin's areas, one entry per area: each area keeps its messages
// beside its pages (`<area>/messages.ts`, `satisfies Catalogs<typeof en>` so a missing
// translation fails tsc) and adds one line here; i18n.ts merges them with the core's.
export const AREA_MESSAGES = [
  rulesMessages,
  catalogMessages,
  ordersMessages,
  customersMessages,
  intelligenceMessages,
  appsMessages,
  flowsMessages,
  methodsMessages,
  taxMessages,
  teamMessages,
  eventsMessages,
  reviewsMessages,
] as const;
