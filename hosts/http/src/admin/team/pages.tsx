/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { PERMISSIONS } from '@cartwright/service';
import {
  type FieldAttributes,
  type FieldProblem,
  FormField,
  PinnedProblems,
  problemTexts,
} from '../fields.tsx';
import type { MessageKey, Translator } from '../i18n.ts';
import { CsrfField, Layout, NoticeMessage, type PageContext } from '../layout.tsx';

// The shop's team (decision 0047; roles 0006, tokens 0001): members with their roles, the staff
// tokens (never a secret or its hash), the add-member and create-token forms, the removal and
// revocation confirmations, and the one page that shows a new token's secret.

export const ROLE_CHOICES = ['reader', 'editor', 'admin', 'owner'] as const;
export type RoleChoice = (typeof ROLE_CHOICES)[number];

export type Notice = { kind: 'ok' | 'error' | 'warning'; text: string; items?: readonly string[] } | null;

/** A member as `members.list` answers it. */
export interface MemberRecord {
  readonly userId: string;
  readonly email: string;
  readonly name: string | null;
  readonly role: RoleChoice;
  readonly permissions: readonly string[] | null;
  readonly createdAt: string;
}

/** A token as `tokens.list` answers it (no secret, no hash). */
export interface TokenRecord {
  readonly id: string;
  readonly name: string;
  readonly kind: 'personal' | 'api' | 'channel';
  readonly userId: string | null;
  readonly role: RoleChoice | null;
  readonly permissions: readonly string[] | null;
  readonly hint: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
}

export type Entries = Readonly<Record<string, string>>;

export const BASE = '/admin/team';

export function roleName(t: Translator, role: string): string {
  return t.t('team.role', { role });
}

function RoleSelect(props: {
  t: Translator;
  roles: readonly RoleChoice[];
  selected: string;
  attributes: FieldAttributes;
}) {
  return (
    <select {...props.attributes}>
      {props.roles.map((role) => (
        <option value={role} selected={role === props.selected}>
          {roleName(props.t, role)}
        </option>
      ))}
    </select>
  );
}

function tokenState(t: Translator, token: TokenRecord, now: Date): string {
  if (token.revokedAt) return t.t('team.state.revoked', { date: t.date(token.revokedAt) });
  if (token.expiresAt && new Date(token.expiresAt) <= now) return t.t('team.state.expired');
  return t.t('team.state.active');
}

function tokenOwner(t: Translator, token: TokenRecord, members: readonly MemberRecord[]): string {
  if (token.kind !== 'personal') return t.t('team.owner.api');
  return members.find((member) => member.userId === token.userId)?.email ?? t.t('team.owner.gone');
}

function MembersTable(props: { page: PageContext; members: readonly MemberRecord[]; currentUserId: string }) {
  const { t } = props.page;
  if (props.members.length === 0) return <p>{t.t('team.members.none')}</p>;
  return (
    <table class="data" id="team-members">
      <thead>
        <tr>
          <th scope="col">{t.t('team.col.email')}</th>
          <th scope="col">{t.t('team.col.name')}</th>
          <th scope="col">{t.t('team.col.role')}</th>
          <th scope="col">{t.t('team.col.since')}</th>
          <th scope="col">{t.t('team.col.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {props.members.map((member) => (
          <tr data-member={member.userId}>
            <th scope="row">
              {member.email}
              {member.userId === props.currentUserId ? ` ${t.t('team.you')}` : ''}
            </th>
            <td>{member.name ?? ''}</td>
            <td>
              {roleName(t, member.role)}
              {member.permissions ? ` (${t.t('team.customPermissions')})` : ''}
            </td>
            <td>{t.date(member.createdAt)}</td>
            <td>
              <a
                href={`${BASE}/members/${member.userId}/remove`}
                aria-label={t.t('team.member.removeNamed', { email: member.email })}
              >
                {t.t('team.member.remove')}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TokensTable(props: {
  page: PageContext;
  tokens: readonly TokenRecord[];
  members: readonly MemberRecord[];
  currentTokenId: string;
  now: Date;
}) {
  const { t } = props.page;
  if (props.tokens.length === 0) return <p>{t.t('team.tokens.none')}</p>;
  return (
    <table class="data" id="team-tokens">
      <thead>
        <tr>
          <th scope="col">{t.t('team.col.token')}</th>
          <th scope="col">{t.t('team.col.kind')}</th>
          <th scope="col">{t.t('team.col.owner')}</th>
          <th scope="col">{t.t('team.col.role')}</th>
          <th scope="col">{t.t('team.col.created')}</th>
          <th scope="col">{t.t('team.col.expires')}</th>
          <th scope="col">{t.t('team.col.lastUsed')}</th>
          <th scope="col">{t.t('team.col.state')}</th>
          <th scope="col">{t.t('team.col.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {props.tokens.map((token) => {
          const member = props.members.find((item) => item.userId === token.userId);
          const role = token.kind === 'personal' ? member?.role : token.role;
          return (
            <tr data-token={token.id}>
              <th scope="row">
                {token.name} <span class="meta">{token.hint}</span>
                {token.id === props.currentTokenId ? (
                  <>
                    {' '}
                    <span class="badge">{t.t('team.current')}</span>
                  </>
                ) : null}
              </th>
              <td>{t.t(`team.kind.${token.kind === 'personal' ? 'personal' : 'api'}` as MessageKey)}</td>
              <td>{tokenOwner(t, token, props.members)}</td>
              <td>
                {role ? roleName(t, role) : ''}
                {token.permissions ? ` (${t.t('team.customPermissions')})` : ''}
              </td>
              <td>{t.date(token.createdAt)}</td>
              <td>{token.expiresAt ? t.date(token.expiresAt) : t.t('team.noExpiry')}</td>
              <td>{token.lastUsedAt ? t.date(token.lastUsedAt) : t.t('team.never')}</td>
              <td>{tokenState(t, token, props.now)}</td>
              <td>
                {token.revokedAt ? null : (
                  <a
                    href={`${BASE}/tokens/${token.id}/revoke`}
                    aria-label={t.t('team.token.revokeNamed', { name: token.name })}
                  >
                    {t.t('team.token.revoke')}
                  </a>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A refused form's notice: its first problem for the whole form (else "see the fields"), the rest listed. */
function FormProblems({ page, problems }: { page: PageContext; problems: readonly FieldProblem[] }) {
  if (problems.length === 0) return null;
  const general = problems.filter((problem) => problem.field === null);
  return (
    <NoticeMessage
      kind="error"
      text={general[0]?.text ?? page.t.t('team.error.fields')}
      items={general.slice(1).map((problem) => problem.text)}
    />
  );
}

function AddMemberForm(props: {
  page: PageContext;
  roles: readonly RoleChoice[];
  entries: Entries;
  problems: readonly FieldProblem[];
}) {
  const { t, csrf } = props.page;
  return (
    <form method="post" action={`${BASE}/members`} class="team-member-form" id="add-member">
      <h2>{t.t('team.add.title')}</h2>
      <p class="hint">{t.t('team.add.hint')}</p>
      <FormProblems page={props.page} problems={props.problems} />
      <CsrfField token={csrf} />
      <FormField
        id="member-email"
        name="email"
        label={t.t('team.field.email')}
        problems={problemTexts(props.problems, 'email')}
        control={(attributes) => (
          <input type="email" autocomplete="off" required value={props.entries.email ?? ''} {...attributes} />
        )}
      />
      <FormField
        id="member-name"
        name="name"
        label={t.t('team.field.memberName')}
        problems={problemTexts(props.problems, 'name')}
        control={(attributes) => <input type="text" value={props.entries.name ?? ''} {...attributes} />}
      />
      <FormField
        id="member-role"
        name="role"
        label={t.t('team.field.role')}
        problems={problemTexts(props.problems, 'role')}
        control={(attributes) => (
          <RoleSelect
            t={t}
            roles={props.roles}
            selected={props.entries.role ?? 'reader'}
            attributes={attributes}
          />
        )}
      />
      <button type="submit">{t.t('team.add.submit')}</button>
    </form>
  );
}

function CreateTokenForm(props: {
  page: PageContext;
  roles: readonly RoleChoice[];
  members: readonly MemberRecord[];
  currentUserId: string;
  entries: Entries;
  problems: readonly FieldProblem[];
}) {
  const { t, csrf } = props.page;
  const { entries, problems } = props;
  const kind = entries.kind === 'api' ? 'api' : 'personal';
  const kindProblems = problemTexts(problems, 'kind');
  const permissionProblems = problemTexts(problems, 'permissions');
  return (
    <form method="post" action={`${BASE}/tokens`} class="team-token-form" id="create-token">
      <h2>{t.t('team.create.title')}</h2>
      <FormProblems page={props.page} problems={problems} />
      <CsrfField token={csrf} />
      <FormField
        id="token-name"
        name="name"
        label={t.t('team.field.tokenName')}
        hint={t.t('team.field.tokenNameHint')}
        problems={problemTexts(problems, 'name')}
        control={(attributes) => (
          <input type="text" required maxlength={200} value={entries.name ?? ''} {...attributes} />
        )}
      />
      <fieldset data-field="kind" aria-describedby={kindProblems.length > 0 ? 'token-kind-error' : undefined}>
        <legend>{t.t('team.field.kind')}</legend>
        <label class="inline">
          <input type="radio" name="kind" value="personal" checked={kind === 'personal'} />{' '}
          {t.t('team.field.kindPersonal')}
        </label>
        <label class="inline">
          <input type="radio" name="kind" value="api" checked={kind === 'api'} /> {t.t('team.field.kindApi')}
        </label>
        <PinnedProblems id="token-kind-error" problems={kindProblems} />
      </fieldset>
      <FormField
        id="token-member"
        name="userId"
        label={t.t('team.field.member')}
        problems={problemTexts(problems, 'userId')}
        control={(attributes) => (
          <select {...attributes}>
            {props.members.map((member) => (
              <option
                value={member.userId}
                selected={member.userId === (entries.userId ?? props.currentUserId)}
              >
                {`${member.email} · ${roleName(t, member.role)}`}
              </option>
            ))}
          </select>
        )}
      />
      <FormField
        id="token-role"
        name="role"
        label={t.t('team.field.tokenRole')}
        problems={problemTexts(problems, 'role')}
        control={(attributes) => (
          <RoleSelect t={t} roles={props.roles} selected={entries.role ?? 'reader'} attributes={attributes} />
        )}
      />
      <fieldset
        data-field="permissions"
        aria-describedby={
          permissionProblems.length > 0
            ? 'token-permissions-hint token-permissions-error'
            : 'token-permissions-hint'
        }
      >
        <legend>{t.t('team.field.permissions')}</legend>
        <p class="hint" id="token-permissions-hint">
          {t.t('team.field.permissionsHint')}
        </p>
        {PERMISSIONS.map((permission) => (
          <label class="inline">
            <input
              type="checkbox"
              name={`permission.${permission}`}
              checked={entries[`permission.${permission}`] === 'on'}
            />{' '}
            {t.t(`team.permission.${permission}`)}
          </label>
        ))}
        <PinnedProblems id="token-permissions-error" problems={permissionProblems} />
      </fieldset>
      <FormField
        id="token-expires"
        name="expiresAt"
        label={t.t('team.field.expires')}
        hint={t.t('team.field.expiresHint')}
        problems={problemTexts(problems, 'expiresAt')}
        control={(attributes) => <input type="date" value={entries.expiresAt ?? ''} {...attributes} />}
      />
      <button type="submit">{t.t('team.create.submit')}</button>
    </form>
  );
}

export function TeamPage(props: {
  page: PageContext;
  members: readonly MemberRecord[];
  tokens: readonly TokenRecord[];
  roles: readonly RoleChoice[];
  currentUserId: string;
  currentTokenId: string;
  now: Date;
  notice: Notice;
  member?: { entries: Entries; problems: readonly FieldProblem[] };
  token?: { entries: Entries; problems: readonly FieldProblem[] };
}) {
  const { page } = props;
  const { t } = page;
  return (
    <Layout page={page} title={t.t('team.title')}>
      <h1>{t.t('team.title')}</h1>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <h2>{t.t('team.members')}</h2>
      <MembersTable page={page} members={props.members} currentUserId={props.currentUserId} />
      <AddMemberForm
        page={page}
        roles={props.roles}
        entries={props.member?.entries ?? {}}
        problems={props.member?.problems ?? []}
      />
      <h2>{t.t('team.tokens')}</h2>
      <p class="hint">{t.t('team.tokens.hint')}</p>
      <TokensTable
        page={page}
        tokens={props.tokens}
        members={props.members}
        currentTokenId={props.currentTokenId}
        now={props.now}
      />
      <CreateTokenForm
        page={page}
        roles={props.roles}
        members={props.members}
        currentUserId={props.currentUserId}
        entries={props.token?.entries ?? {}}
        problems={props.token?.problems ?? []}
      />
    </Layout>
  );
}

/** The answer to a token's creation: the only page that ever shows its secret. */
export function TokenCreatedPage(props: { page: PageContext; name: string; secret: string }) {
  const { t } = props.page;
  return (
    <Layout page={props.page} title={t.t('team.created.title')}>
      <h1>{t.t('team.created.title')}</h1>
      <NoticeMessage kind="warning" text={t.t('team.created.copy')} />
      {/* hx-history="false": htmx keeps no copy of this page in the tab's history cache. */}
      <div class="field" hx-history="false">
        <label for="token-secret">{t.t('team.created.secret', { name: props.name })}</label>
        <input
          type="text"
          id="token-secret"
          readonly
          autocomplete="off"
          spellcheck={false}
          size={props.secret.length}
          value={props.secret}
          aria-describedby="token-secret-hint"
        />
        <p class="hint" id="token-secret-hint">
          {t.t('team.created.hint')}
        </p>
      </div>
      <p>
        <a href={BASE}>{t.t('team.back')}</a>
      </p>
    </Layout>
  );
}

export function RemoveMemberPage(props: {
  page: PageContext;
  member: MemberRecord;
  self: boolean;
  notice: Notice;
}) {
  const { t, csrf } = props.page;
  const { email, userId } = props.member;
  return (
    <Layout page={props.page} title={t.t('team.remove.title', { email })}>
      <p>
        <a href={BASE}>{t.t('team.back')}</a>
      </p>
      <h1>{t.t('team.remove.title', { email })}</h1>
      {props.notice ? <NoticeMessage {...props.notice} /> : null}
      <p>
        {t.t('team.remove.explain', { email })} ({roleName(t, props.member.role)})
      </p>
      {props.self ? <p>{t.t('team.remove.self')}</p> : null}
      <form method="post" action={`${BASE}/members/${userId}/remove`}>
        <CsrfField token={csrf} />
        <button type="submit">{t.t('team.remove.confirm', { email })}</button>
      </form>
    </Layout>
  );
}

export function RevokeTokenPage(props: { page: PageContext; token: TokenRecord; self: boolean }) {
  const { t, csrf } = props.page;
  const { name, id } = props.token;
  return (
    <Layout page={props.page} title={t.t('team.revoke.title', { name })}>
      <p>
        <a href={BASE}>{t.t('team.back')}</a>
      </p>
      <h1>{t.t('team.revoke.title', { name })}</h1>
      <p>{t.t('team.revoke.explain', { name })}</p>
      {props.self ? <NoticeMessage kind="warning" text={t.t('team.revoke.self')} /> : null}
      <form method="post" action={`${BASE}/tokens/${id}/revoke`}>
        <CsrfField token={csrf} />
        <button type="submit">{t.t('team.revoke.confirm', { name })}</button>
      </form>
    </Layout>
  );
}
