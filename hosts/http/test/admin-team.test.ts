import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { type AdminSessionClient, adminCookie, adminSession, formFields } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

// The admin's team area without a browser (decision 0047; the walk is admin-team.e2e.test.ts):
// members added and removed (the last owner's removal refused with its detail), fields' problems
// pinned (422, entries kept, nothing changed), a token created whose secret appears once and
// works against /api until it is revoked, revoking the session's own token ends the session,
// a reader's and an editor's replayed posts refused (403) and shop B reaching nothing of shop A.

let h: Harness;
let owner: AdminSessionClient;

const staff = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });

interface Member {
  userId: string;
  email: string;
  role: string;
}
interface Token {
  id: string;
  name: string;
  hint: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

async function members(): Promise<Member[]> {
  const listed = await staff('GET', '/api/members');
  expect(listed.status).toBe(200);
  return listed.body.items as Member[];
}
async function tokens(): Promise<Token[]> {
  const listed = await staff('GET', '/api/tokens?limit=100');
  expect(listed.status).toBe(200);
  return listed.body.items as Token[];
}

/** A new member of shop A with `role` and their personal token. */
async function memberToken(email: string, role: string): Promise<{ userId: string; token: string }> {
  const member = await staff('POST', '/api/members', { email, role });
  expect(member.status).toBe(201);
  const userId = member.body.userId as string;
  const token = await staff('POST', '/api/tokens', { name: `${role} token`, kind: 'personal', userId });
  expect(token.status).toBe(201);
  return { userId, token: token.body.token as string };
}

const occurrences = (html: string, needle: string) => html.split(needle).length - 1;
const secretOf = (html: string) =>
  /id="token-secret"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="token-secret"/.exec(html);

function errorOf(html: string, id: string): string | undefined {
  return new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
}

beforeAll(async () => {
  h = await createHarness();
  owner = await adminSession(h, h.shopA.token, 'en');
});
afterAll(async () => h?.close());

describe('the team page', () => {
  it('lists the members with their roles and the tokens without any secret, in the UI language', async () => {
    const page = await owner.get('/admin/team');
    expect(page.status).toBe(200);
    expect(page.html).toContain('owner@a.test');
    expect(page.html).toMatch(/<td>Owner<\/td>/);
    expect(page.html).toContain('this session');
    expect(page.html).not.toContain(h.shopA.token);
    expect(page.html).toContain('href="/admin/team" aria-current="page"');
    const german = await adminSession(h, h.shopA.token, 'de');
    const de = await german.get('/admin/team');
    expect(de.html).toMatch(/<td>Inhaber<\/td>/);
    expect(de.html).toContain('Team und Tokens');
    const answer = await h.app.request('/admin/team', { headers: { cookie: owner.cookie } });
    expect(answer.headers.get('cache-control')).toContain('no-store');
  });
});

describe('members', () => {
  it('adds a member with a role and removes them after a confirmation', async () => {
    const page = await owner.get('/admin/team');
    const added = await owner.post('/admin/team/members', {
      ...formFields(page.html, 'action="/admin/team/members"'),
      email: 'clerk@a.test',
      role: 'editor',
    });
    expect(added.status).toBe(303);
    const member = (await members()).find((item) => item.email === 'clerk@a.test');
    expect(member?.role).toBe('editor');
    expect(added.location).toBe(`/admin/team?added=${member!.userId}`);
    const listed = await owner.get(added.location!);
    expect(listed.html).toContain('clerk@a.test is a member now, as Editor.');

    const confirm = await owner.get(`/admin/team/members/${member!.userId}/remove`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Remove clerk@a.test?');
    const removed = await owner.post(
      `/admin/team/members/${member!.userId}/remove`,
      formFields(confirm.html, '/remove"'),
    );
    expect(removed.status).toBe(303);
    expect(removed.location).toBe('/admin/team?removed=1');
    expect((await members()).some((item) => item.email === 'clerk@a.test')).toBe(false);
  });

  it('pins a bad e-mail to its field, keeps the entries and changes nothing', async () => {
    const before = await members();
    const refused = await owner.post('/admin/team/members', { email: 'not-an-email', role: 'reader' });
    expect(refused.status).toBe(422);
    expect(errorOf(refused.html, 'member-email')).toBeTruthy();
    expect(refused.html).toContain('value="not-an-email"');
    expect(refused.html).toContain('aria-invalid="true"');
    const noRole = await owner.post('/admin/team/members', { email: 'x@a.test', role: 'emperor' });
    expect(noRole.status).toBe(422);
    expect(errorOf(noRole.html, 'member-role')).toBe('required');
    expect(await members()).toEqual(before);
  });

  it('refuses to remove the last owner with the operation’s detail', async () => {
    const confirm = await owner.get(`/admin/team/members/${h.shopA.userId}/remove`);
    expect(confirm.html).toContain('This is you');
    const refused = await owner.post(`/admin/team/members/${h.shopA.userId}/remove`, {});
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('Not removed: The last owner cannot be removed.');
    expect((await members()).some((item) => item.userId === h.shopA.userId)).toBe(true);
  });

  it('answers 404 for a member of no shop', async () => {
    expect((await owner.get('/admin/team/members/00000000-0000-7000-8000-000000000000/remove')).status).toBe(
      404,
    );
    expect((await owner.get('/admin/team/members/not-a-uuid/remove')).status).toBe(404);
  });
});

describe('tokens', () => {
  it('creates an API token whose secret is shown once, works against /api, and stops when revoked', async () => {
    const page = await owner.get('/admin/team');
    const created = await owner.post('/admin/team/tokens', {
      ...formFields(page.html, 'action="/admin/team/tokens"'),
      name: 'Warehouse sync',
      kind: 'api',
      role: 'admin',
      expiresAt: '2999-12-31',
    });
    expect(created.status).toBe(201);
    expect(created.location).toBeNull();
    expect(created.html).toContain('Copy the secret now');
    // htmx keeps no copy of this page in its history cache (the walk checks the tab's storage).
    expect(created.html).toContain('hx-history="false"');
    const match = secretOf(created.html);
    const secret = match?.[1] ?? match?.[2];
    expect(secret).toBeTruthy();
    expect(occurrences(created.html, secret!)).toBe(1);
    const answer = await h.app.request('/admin/team', { headers: { cookie: owner.cookie } });
    expect(answer.headers.get('cache-control')).toContain('no-store');

    // It works once against /api, carrying its own role.
    const used = await staff('GET', '/api/members', undefined, secret);
    expect(used.status).toBe(200);

    const token = (await tokens()).find((item) => item.name === 'Warehouse sync')!;
    const listed = await owner.get('/admin/team');
    expect(listed.html).toContain('Warehouse sync');
    expect(listed.html).toContain(token.hint);
    // The expiry as entered: the last second of that day (UTC).
    expect(token.expiresAt).toBe('2999-12-31T23:59:59.000Z');
    expect(listed.html).toMatch(/Dec 31, 2999, 11:59\s?PM/);
    expect(listed.html).not.toContain(secret!);
    expect(listed.html).toContain('Administrator');

    const confirm = await owner.get(`/admin/team/tokens/${token.id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Revoke Warehouse sync?');
    expect(confirm.html).not.toContain('This admin session runs on this token');
    const revoked = await owner.post(
      `/admin/team/tokens/${token.id}/revoke`,
      formFields(confirm.html, '/revoke"'),
    );
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/admin/team?revoked=1');
    expect((await staff('GET', '/api/members', undefined, secret)).status).toBe(401);
    const after = await owner.get('/admin/team?revoked=1');
    expect(after.html).toContain('The token is revoked');
    expect(after.html).toMatch(/revoked [A-Z]/);
    expect(after.html).not.toContain(secret!);
    // A revoked token has no revoke page any more.
    expect((await owner.get(`/admin/team/tokens/${token.id}/revoke`)).status).toBe(404);
  });

  it('answers the creation uncached, with no address and no log line holding the secret', async () => {
    const lines: string[] = [];
    const logged = createApp(h.services, {
      logger: pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }),
    });
    const answer = await logged.request('/admin/team/tokens', {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost',
      },
      body: new URLSearchParams({ csrf: owner.csrf, name: 'Logged', kind: 'api', role: 'reader' }).toString(),
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    expect(answer.headers.get('location')).toBeNull();
    const match = secretOf(await answer.text());
    const secret = (match?.[1] ?? match?.[2])!;
    expect(secret).toMatch(/^cw_api_/);
    expect(lines.some((line) => line.includes('/admin/team/tokens'))).toBe(true);
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('creates an API token limited to the ticked permissions', async () => {
    const created = await owner.post('/admin/team/tokens', {
      name: 'Catalog reader',
      kind: 'api',
      role: 'admin',
      'permission.catalog.read': 'on',
    });
    expect(created.status).toBe(201);
    const match = secretOf(created.html);
    const secret = (match?.[1] ?? match?.[2])!;
    expect((await staff('GET', '/api/catalog/products', undefined, secret)).status).toBe(200);
    expect((await staff('GET', '/api/members', undefined, secret)).status).toBe(403);
    const listed = await owner.get('/admin/team');
    const token = (await tokens()).find((item) => item.name === 'Catalog reader')!;
    const row = new RegExp(`<tr data-token="${token.id}">([\\s\\S]*?)</tr>`).exec(listed.html)![1]!;
    expect(row).toContain('Administrator (own permission list)');
  });

  it('creates a personal token for a member', async () => {
    const { userId } = await memberToken('packer@a.test', 'editor');
    const created = await owner.post('/admin/team/tokens', {
      name: 'Packer laptop',
      kind: 'personal',
      userId,
    });
    expect(created.status).toBe(201);
    const token = (await tokens()).find((item) => item.name === 'Packer laptop');
    expect(token).toBeDefined();
    const listed = await owner.get('/admin/team');
    const row = new RegExp(`<tr data-token="${token!.id}">([\\s\\S]*?)</tr>`).exec(listed.html)![1]!;
    expect(row).toContain('packer@a.test');
    expect(row).toContain('personal');
    expect(row).toContain('Editor');
  });

  it('pins bad entries to their fields (422) and creates nothing', async () => {
    const before = await tokens();
    const past = await owner.post('/admin/team/tokens', {
      name: 'Old',
      kind: 'api',
      role: 'reader',
      expiresAt: '2001-01-01',
    });
    expect(past.status).toBe(422);
    expect(errorOf(past.html, 'token-expires')).toBe('must lie in the future');
    expect(past.html).toContain('value="Old"');
    const noDate = await owner.post('/admin/team/tokens', {
      name: 'Bad date',
      kind: 'api',
      role: 'reader',
      expiresAt: '2030-02-30',
    });
    expect(noDate.status).toBe(422);
    expect(errorOf(noDate.html, 'token-expires')).toBe('must be a date');
    const noName = await owner.post('/admin/team/tokens', { name: ' ', kind: 'api', role: 'reader' });
    expect(noName.status).toBe(422);
    expect(errorOf(noName.html, 'token-name')).toBe('required');
    const personalLimited = await owner.post('/admin/team/tokens', {
      name: 'Limited',
      kind: 'personal',
      userId: h.shopA.userId,
      'permission.orders.read': 'on',
    });
    expect(personalLimited.status).toBe(422);
    expect(personalLimited.html).toContain(
      '<p class="field-error" id="token-permissions-error">only for API tokens</p>',
    );
    expect(personalLimited.html).toMatch(/name="permission\.orders\.read" checked/);
    const stranger = await owner.post('/admin/team/tokens', {
      name: 'Stranger',
      kind: 'personal',
      userId: h.shopB.userId,
    });
    expect(stranger.status).toBe(422);
    expect(errorOf(stranger.html, 'token-member')).toBe('must be a member of this shop');
    expect(await tokens()).toEqual(before);
  });

  it('revoking the token the session runs on ends the session and leads to sign-in', async () => {
    const own = await staff('POST', '/api/tokens', { name: 'Own browser', kind: 'personal' });
    expect(own.status).toBe(201);
    const session = await adminSession(h, own.body.token as string, 'en');
    const tokenId = (own.body.details as { id: string }).id;
    const confirm = await session.get(`/admin/team/tokens/${tokenId}/revoke`);
    expect(confirm.html).toContain('This admin session runs on this token');
    const revoked = await session.post(`/admin/team/tokens/${tokenId}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/admin/sign-in');
    const after = await session.get('/admin/team');
    expect(after.status).toBe(303);
    expect(after.location).toBe('/admin/sign-in');
    expect((await staff('GET', '/api/members', undefined, own.body.token as string)).status).toBe(401);
  });
});

describe('members without members.manage', () => {
  it('a reader and an editor see no team area, and their replayed posts are refused (403)', async () => {
    const page = await owner.get('/admin/team');
    const target = await memberToken('target@a.test', 'reader');
    const token = (await tokens())[0]!;
    for (const role of ['reader', 'editor']) {
      const { token: secret } = await memberToken(`${role}@team.test`, role);
      const session = await adminSession(h, secret, 'en');
      const home = await session.get('/admin');
      expect(home.html).not.toContain('href="/admin/team"');
      expect((await session.get('/admin/team')).status).toBe(404);
      expect((await session.get(`/admin/team/members/${target.userId}/remove`)).status).toBe(404);
      expect((await session.get(`/admin/team/tokens/${token.id}/revoke`)).status).toBe(404);
      const beforeMembers = await members();
      const beforeTokens = await tokens();
      const posts: [string, Record<string, string>][] = [
        [
          '/admin/team/members',
          {
            ...formFields(page.html, 'action="/admin/team/members"'),
            email: 'mallory@a.test',
            role: 'admin',
          },
        ],
        ['/admin/team/members', { email: '', role: '' }],
        [`/admin/team/members/${target.userId}/remove`, {}],
        [
          '/admin/team/tokens',
          { ...formFields(page.html, 'action="/admin/team/tokens"'), name: 'x', kind: 'api', role: 'owner' },
        ],
        [`/admin/team/tokens/${token.id}/revoke`, {}],
      ];
      for (const [path, fields] of posts) {
        const answer = await session.post(path, { ...fields, csrf: session.csrf });
        expect(answer.status, `${role} ${path}`).toBe(403);
      }
      expect(await members()).toEqual(beforeMembers);
      expect(await tokens()).toEqual(beforeTokens);
    }
  });

  it('shop B reaches nothing of shop A', async () => {
    const shopB = await adminSession(h, h.shopB.token, 'en');
    const page = await shopB.get('/admin/team');
    expect(page.status).toBe(200);
    expect(page.html).toContain('owner@b.test');
    expect(page.html).not.toContain('owner@a.test');
    const target = (await members()).find((item) => item.email === 'target@a.test')!;
    const token = (await tokens())[0]!;
    expect(page.html).not.toContain(token.id);
    const beforeMembers = await members();
    const beforeTokens = await tokens();
    expect((await shopB.get(`/admin/team/members/${target.userId}/remove`)).status).toBe(404);
    expect((await shopB.post(`/admin/team/members/${target.userId}/remove`, {})).status).toBe(404);
    expect((await shopB.get(`/admin/team/tokens/${token.id}/revoke`)).status).toBe(404);
    expect((await shopB.post(`/admin/team/tokens/${token.id}/revoke`, {})).status).toBe(404);
    // A personal token for a member of shop A is refused, pinned to the member field.
    const stranger = await shopB.post('/admin/team/tokens', {
      name: 'Into A',
      kind: 'personal',
      userId: target.userId,
    });
    expect(stranger.status).toBe(422);
    expect(await members()).toEqual(beforeMembers);
    expect(await tokens()).toEqual(beforeTokens);
  });

  it('without a session every page leads to sign-in and every post is refused', async () => {
    expect((await h.app.request('/admin/team')).headers.get('location')).toBe('/admin/sign-in');
    const cookie = await adminCookie(h, h.shopA.token);
    const noCsrf = await h.app.request('/admin/team/members', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
      body: new URLSearchParams({ email: 'x@a.test', role: 'reader' }).toString(),
    });
    expect(noCsrf.status).toBe(403);
  });
});
