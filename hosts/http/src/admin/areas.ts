import { appsArea } from './apps/routes.tsx';
import { intelligenceArea } from './intelligence/routes.tsx';
import type { AdminArea } from './kit.ts';

// The admin's areas beyond the core pages (sign-in, overview, settings), one line each; each
// area keeps its routes, pages and messages in its own folder (`admin/<area>/`).
export const ADMIN_AREAS: readonly AdminArea[] = [intelligenceArea, appsArea];
