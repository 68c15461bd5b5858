import type { AdminArea } from './kit.ts';

// The admin's areas beyond the core pages (sign-in, overview, settings), one line each; each
// area keeps its routes, pages and messages in its own folder (`admin/<area>/`).
export const ADMIN_AREAS: readonly AdminArea[] = [];
