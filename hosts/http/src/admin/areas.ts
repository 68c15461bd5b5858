import { appsArea } from './apps/routes.tsx';
import { catalogArea } from './catalog/routes.tsx';
import { customersArea } from './customers/routes.tsx';
import { eventsArea } from './events/routes.tsx';
import { flowsArea } from './flows/routes.tsx';
import { intelligenceArea } from './intelligence/routes.tsx';
import type { AdminArea } from './kit.ts';
import { methodsArea } from './methods/routes.tsx';
import { ordersArea } from './orders/routes.tsx';
import { reviewsArea } from './reviews/routes.tsx';
import { rulesArea } from './rules/routes.tsx';
import { taxArea } from './tax/routes.tsx';
import { teamArea } from './team/routes.tsx';

// The admin's areas beyond the core pages (sign-in, overview, settings), one line each; each
// area keeps its routes, pages and messages in its own folder (`admin/<area>/`).
export const ADMIN_AREAS: readonly AdminArea[] = [
  rulesArea,
  catalogArea,
  ordersArea,
  customersArea,
  intelligenceArea,
  appsArea,
  flowsArea,
  methodsArea,
  taxArea,
  teamArea,
  eventsArea,
  reviewsArea,
];
