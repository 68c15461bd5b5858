/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { type AdminSession, PERMISSIONS, type Result } from '@cartwright/service';
import type { Context } from 'hono';
import type { FieldProblem } from '../fields.tsx';
import type { AdminArea, FormBody } from '../kit.ts';
import type { PageContext } from '../layout.tsx';
import {
  BASE,
  type Entries,
  type MemberRecord,
  type Notice,
  RemoveMemberPage,
  RevokeTokenPage,
  ROLE_CHOICES,
  type RoleChoice,
  roleName,
  TeamPage,
  TokenCreatedPage,
  type TokenRecord,
} from './pages.tsx';

// /admin/team (issue 20, decision 0047): the shop's members and staff tokens through
// `members.list|add|remove` and `tokens.list|create|revoke`, all behind `members.manage`. A new
// token's secret is in the answer to its creation only (a page, `no-store`), never in a URL.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Failure = Extract<Result<unknown>, { ok: false }>;

const text = (form: FormBody, name: string) => (typeof form[name] === 'string' ? form[name].trim() : '');

function roleOf(value: string): RoleChoice | null {
  return ROLE_CHOICES.find((role) => role === value) ?? null;
}

/** The last second of a `YYYY-MM-DD` day (UTC, 23:59:59) as an instant, or null when it is no date. */
function endOfDay(value: string): string | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(Date.UTC(year, month - 1, day));
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day)
    return null;
  return new Date(start.getTime() + 24 * 60 * 60 * 1000 - 1000).toISOString();
}

/** An operation's refusal pinned to the form's fields (`/email` → `email`); the rest to the form. */
function problemsOf(page: PageContext, fields: readonly string[], failure: Failure): FieldProblem[] {
  const pinned = (failure.errors ?? []).map((error) => {
    const field = error.pointer.split('/')[1] ?? '';
    return fields.includes(field)
      ? { field, text: error.message }
      : { field: null, text: `${error.pointer}: ${error.message}` };
  });
  return pinned.some((problem) => problem.field !== null)
    ? pinned
    : [{ field: null, text: page.t.t('team.error.refused', { detail: failure.detail }) }, ...pinned];
}

export const teamArea: AdminArea = (app, kit) => {
  const mayManage = (session: AdminSession) => session.principal.permissions.has('members.manage');
  /** The roles a member may hand out: only owners make owners (0006). */
  const rolesFor = (session: AdminSession) =>
    ROLE_CHOICES.filter((role) => role !== 'owner' || session.principal.role === 'owner');

  const readMembers = async (session: AdminSession): Promise<Result<MemberRecord[]>> => {
    const listed = await kit.act(session, 'members.list', {});
    if (!listed.ok) return listed;
    const items = (listed.value as { items: MemberRecord[] }).items;
    return { ok: true, value: items.sort((a, b) => a.email.localeCompare(b.email)) };
  };

  /** Every staff token of the shop, newest first (`tokens.list` page by page). */
  const readTokens = async (session: AdminSession): Promise<Result<TokenRecord[]>> => {
    const tokens: TokenRecord[] = [];
    let after: string | null = null;
    do {
      const listed = await kit.act(session, 'tokens.list', { limit: 100, ...(after ? { after } : {}) });
      if (!listed.ok) return listed;
      const value = listed.value as { items: TokenRecord[]; next: string | null };
      tokens.push(...value.items);
      after = value.next;
    } while (after);
    return { ok: true, value: tokens };
  };

  const renderTeam = async (
    c: Context,
    page: PageContext,
    session: AdminSession,
    extra: {
      notice?: (members: MemberRecord[]) => Notice;
      member?: { entries: Entries; problems: FieldProblem[] };
      token?: { entries: Entries; problems: FieldProblem[] };
      status?: number;
    } = {},
  ) => {
    const [members, tokens] = await Promise.all([readMembers(session), readTokens(session)]);
    if (!members.ok) return kit.problem(c, page, members);
    if (!tokens.ok) return kit.problem(c, page, tokens);
    return kit.render(
      c,
      <TeamPage
        page={page}
        members={members.value}
        tokens={tokens.value}
        roles={rolesFor(session)}
        currentUserId={session.userId}
        currentTokenId={session.principal.tokenId}
        now={kit.services.clock.now()}
        notice={extra.notice ? extra.notice(members.value) : null}
        member={extra.member}
        token={extra.token}
      />,
      extra.status ?? 200,
    );
  };

  app.get(
    BASE,
    kit.page(async (c, page, session) => {
      if (!mayManage(session)) return kit.notFound(c, page);
      const { t } = page;
      const added = c.req.query('added');
      return renderTeam(c, page, session, {
        notice: (members) => {
          if (c.req.query('removed') === '1') return { kind: 'ok', text: t.t('team.removed') };
          if (c.req.query('revoked') === '1') return { kind: 'ok', text: t.t('team.revoked') };
          const member = added ? members.find((item) => item.userId === added) : undefined;
          return member
            ? { kind: 'ok', text: t.t('team.added', { email: member.email, role: roleName(t, member.role) }) }
            : null;
        },
      });
    }),
  );

  app.post(`${BASE}/members`, async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const { t } = page;
    const entries = { email: text(form, 'email'), name: text(form, 'name'), role: text(form, 'role') };
    const role = roleOf(entries.role);
    const problems: FieldProblem[] = [];
    if (entries.email === '') problems.push({ field: 'email', text: t.t('team.field.required') });
    if (!role) problems.push({ field: 'role', text: t.t('team.field.required') });
    if (problems.length > 0 && mayManage(session))
      return renderTeam(c, page, session, { member: { entries, problems }, status: 422 });
    const added = await kit.act(session, 'members.add', {
      email: entries.email,
      role: role ?? entries.role,
      ...(entries.name ? { name: entries.name } : {}),
    });
    if (added.ok) return kit.redirect(c, `${BASE}?added=${(added.value as { userId: string }).userId}`);
    if (!mayManage(session) || added.code === 'NOT_FOUND') return kit.problem(c, page, added);
    return renderTeam(c, page, session, {
      member: { entries, problems: problemsOf(page, ['email', 'name', 'role'], added) },
      status: added.code === 'FORBIDDEN' ? 403 : added.code === 'LAST_OWNER' ? 409 : 422,
    });
  });

  /** The member a `/members/:userId…` path names, or the answer to give instead (404). */
  const memberOf = async (c: Context, page: PageContext, session: AdminSession) => {
    const userId = c.req.param('userId') ?? '';
    if (!UUID.test(userId)) return kit.notFound(c, page);
    const members = await readMembers(session);
    if (!members.ok) return kit.problem(c, page, members);
    return members.value.find((member) => member.userId === userId) ?? kit.notFound(c, page);
  };

  app.get(
    `${BASE}/members/:userId/remove`,
    kit.page(async (c, page, session) => {
      if (!mayManage(session)) return kit.notFound(c, page);
      const member = await memberOf(c, page, session);
      if (member instanceof Response) return member;
      return kit.render(
        c,
        <RemoveMemberPage
          page={page}
          member={member}
          self={member.userId === session.userId}
          notice={null}
        />,
      );
    }),
  );

  app.post(`${BASE}/members/:userId/remove`, async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { page, session } = checked;
    const member = await memberOf(c, page, session);
    if (member instanceof Response) return member;
    const removed = await kit.act(session, 'members.remove', { userId: member.userId });
    // Removing oneself ends this session's access to the shop: back to sign-in.
    if (removed.ok)
      return kit.redirect(c, member.userId === session.userId ? '/admin/sign-in' : `${BASE}?removed=1`);
    if (removed.code !== 'LAST_OWNER' && removed.code !== 'FORBIDDEN') return kit.problem(c, page, removed);
    return kit.render(
      c,
      <RemoveMemberPage
        page={page}
        member={member}
        self={member.userId === session.userId}
        notice={{ kind: 'error', text: page.t.t('team.remove.refused', { detail: removed.detail }) }}
      />,
      removed.code === 'FORBIDDEN' ? 403 : 409,
    );
  });

  app.post(`${BASE}/tokens`, async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { form, page, session } = checked;
    const { t } = page;
    const permissions = PERMISSIONS.filter((permission) => form[`permission.${permission}`] === 'on');
    const entries = {
      name: text(form, 'name'),
      kind: text(form, 'kind'),
      userId: text(form, 'userId'),
      role: text(form, 'role'),
      expiresAt: text(form, 'expiresAt'),
      ...Object.fromEntries(permissions.map((permission) => [`permission.${permission}`, 'on'])),
    };
    const problems: FieldProblem[] = [];
    const kind = entries.kind === 'personal' || entries.kind === 'api' ? entries.kind : null;
    const role = roleOf(entries.role);
    const expiresAt = entries.expiresAt === '' ? undefined : endOfDay(entries.expiresAt);
    if (entries.name === '') problems.push({ field: 'name', text: t.t('team.field.required') });
    if (!kind) problems.push({ field: 'kind', text: t.t('team.field.required') });
    if (kind === 'personal' && !UUID.test(entries.userId))
      problems.push({ field: 'userId', text: t.t('team.field.required') });
    if (kind === 'api' && !role) problems.push({ field: 'role', text: t.t('team.field.required') });
    if (expiresAt === null) problems.push({ field: 'expiresAt', text: t.t('team.field.noDate') });
    if (kind === 'personal' && permissions.length > 0)
      problems.push({ field: 'permissions', text: t.t('team.field.apiOnly') });
    if (problems.length > 0 && mayManage(session))
      return renderTeam(c, page, session, { token: { entries, problems }, status: 422 });
    const created = await kit.act(session, 'tokens.create', {
      name: entries.name,
      kind: kind ?? entries.kind,
      ...(kind === 'personal' ? { userId: entries.userId } : { role: role ?? entries.role }),
      ...(kind === 'api' && permissions.length > 0 ? { permissions } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    });
    if (created.ok) {
      const { token, details } = created.value as { token: string; details: TokenRecord };
      // The secret's one appearance: this answer (no-store like every admin page), never a URL.
      return kit.render(c, <TokenCreatedPage page={page} name={details.name} secret={token} />, 201);
    }
    if (!mayManage(session)) return kit.problem(c, page, created);
    return renderTeam(c, page, session, {
      token: {
        entries,
        problems: problemsOf(page, ['name', 'kind', 'userId', 'role', 'permissions', 'expiresAt'], created),
      },
      status: created.code === 'FORBIDDEN' ? 403 : 422,
    });
  });

  /** The live token a `/tokens/:tokenId…` path names, or the answer to give instead (404). */
  const tokenOf = async (c: Context, page: PageContext, session: AdminSession) => {
    const tokenId = c.req.param('tokenId') ?? '';
    if (!UUID.test(tokenId)) return kit.notFound(c, page);
    const tokens = await readTokens(session);
    if (!tokens.ok) return kit.problem(c, page, tokens);
    return tokens.value.find((token) => token.id === tokenId && !token.revokedAt) ?? kit.notFound(c, page);
  };

  app.get(
    `${BASE}/tokens/:tokenId/revoke`,
    kit.page(async (c, page, session) => {
      if (!mayManage(session)) return kit.notFound(c, page);
      const token = await tokenOf(c, page, session);
      if (token instanceof Response) return token;
      return kit.render(
        c,
        <RevokeTokenPage page={page} token={token} self={token.id === session.principal.tokenId} />,
      );
    }),
  );

  app.post(`${BASE}/tokens/:tokenId/revoke`, async (c) => {
    const checked = await kit.checkedForm(c);
    if (checked instanceof Response) return checked;
    const { page, session } = checked;
    const token = await tokenOf(c, page, session);
    if (token instanceof Response) return token;
    const revoked = await kit.act(session, 'tokens.revoke', { tokenId: token.id });
    if (!revoked.ok) return kit.problem(c, page, revoked);
    // The session ran on this token: it opens nothing in this shop any more, so sign in again.
    return kit.redirect(c, token.id === session.principal.tokenId ? '/admin/sign-in' : `${BASE}?revoked=1`);
  });
};
