/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';

// The admin's one labelled field (decision 0047): label, control, hint and the problems pinned to
// it. The control gets `aria-describedby` (hint, then problems) and `aria-invalid`; the problems
// are one `<p class="field-error" id="<id>-error">`, or with `list` one `<li>` each in a
// `<ul class="field-errors" id="<id>-error">`. Every area maps its own error container to texts.

/** A problem of a form, pinned to a field (`null`: the form as a whole). */
export interface FieldProblem {
  readonly field: string | null;
  readonly text: string;
}

/** A problem's text; with `lang` when it is not in the page's language (an operation's English). */
export type ProblemText = string | { readonly text: string; readonly lang: string };

/** What a field hands its control: spread them onto the input, select or textarea. */
export type FieldAttributes = {
  id: string;
  name: string;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: 'true' | undefined;
};

/** The texts of the problems pinned to the field `name`. */
export function problemTexts(problems: readonly FieldProblem[], name: string): string[] {
  return problems.filter((problem) => problem.field === name).map((problem) => problem.text);
}

/** A labelled control with its hint and pinned problems; ids are `<id>`, `<id>-hint`, `<id>-error`. */
export function FormField(props: {
  id: string;
  name: string;
  label: Child;
  hint?: Child | undefined;
  /** The problems pinned to this field, in the order they are shown. */
  problems: readonly ProblemText[];
  /** One list item per problem (`ul.field-errors`) instead of one paragraph. */
  list?: boolean | undefined;
  control: (attributes: FieldAttributes) => Child;
}) {
  const { id, hint, problems } = props;
  const invalid = problems.length > 0;
  const described = [hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={invalid ? 'field has-error' : 'field'} data-field={props.name}>
      <label for={id}>{props.label}</label>
      {props.control({
        id,
        name: props.name,
        'aria-describedby': described || undefined,
        'aria-invalid': invalid ? 'true' : undefined,
      })}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <PinnedProblems id={`${id}-error`} problems={problems} list={props.list} />
    </div>
  );
}

/**
 * The problems pinned to a control (its `aria-describedby` names `id`): one paragraph, or with
 * `list` one item each; nothing without problems. Also for a fieldset's or a checkbox's problems.
 */
export function PinnedProblems(props: {
  id: string;
  problems: readonly ProblemText[];
  list?: boolean | undefined;
}) {
  const { id, problems } = props;
  if (problems.length === 0) return null;
  return props.list ? (
    <ul class="field-errors" id={id}>
      {problems.map((problem) =>
        typeof problem === 'string' ? <li>{problem}</li> : <li lang={problem.lang}>{problem.text}</li>,
      )}
    </ul>
  ) : (
    <p class="field-error" id={id}>
      {problems.flatMap((problem, index) => [
        index === 0 ? '' : ' ',
        typeof problem === 'string' ? problem : <span lang={problem.lang}>{problem.text}</span>,
      ])}
    </p>
  );
}

/**
 * A delete that needs a ticked confirmation box: its own section and form posting the record's
 * `revision` with `confirm=on` to `action` (the operation refuses a stale revision).
 */
export function ConfirmedDelete(props: {
  /** The section's heading id. */
  id: string;
  heading: string;
  action: string;
  csrf: string;
  revision: number;
  hint: string;
  confirm: string;
}) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.heading}</h2>
      <form method="post" action={props.action} class="card">
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="revision" value={String(props.revision)} />
        <p class="hint" id="delete-hint">
          {props.hint}
        </p>
        <div class="field field-row">
          <input
            type="checkbox"
            id="f-delete-confirm"
            name="confirm"
            required
            aria-describedby="delete-hint"
          />
          <label for="f-delete-confirm">{props.confirm}</label>
        </div>
        <button type="submit" class="secondary">
          {props.heading}
        </button>
      </form>
    </section>
  );
}
