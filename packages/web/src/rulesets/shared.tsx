import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Problem as RuleProblem } from '@personae/core';
import type { Problem } from '../lib/draft';
import { SelectField } from '../ui/fields';
import { Invite, Participants, PhysicalDice } from '../ui/TableSettings';
import type { RulesetTableProps } from './types';

/** Pieces the d100 and Lucidity table pages share: problems in the fields' format, the table's links, a log. */

/** A ruleset's problem (field, value, rule) as the app's form fields show it. */
export function fieldProblems(problems: readonly RuleProblem[], field: string): Problem[] {
  return problems
    .filter((p) => p.field === field || p.field.startsWith(`${field}.`))
    .map((p) => {
      const r = p.rule as { document?: string; section?: string } | undefined;
      return { path: p.field, message: p.message, ...(r?.section ? { source: `${r.section}${r.document ? `, ${r.document}` : ''}` } : {}) };
    });
}

/** Runs an action, keeping its error message to show beside the control that started it. */
export function useAction(): { error: string | null; busy: boolean; run: (f: () => Promise<void>) => Promise<void>; clear: () => void } {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return {
    error,
    busy,
    clear: () => setError(null),
    run: async (f) => {
      setError(null);
      setBusy(true);
      try {
        await f();
      } catch (e) {
        setError(e instanceof Error ? e.message : 'That did not work.');
      } finally {
        setBusy(false);
      }
    },
  };
}

export function ErrorLine(props: { id?: string; error: string | null }) {
  if (!props.error) return null;
  return (
    <p id={props.id} class="error-text" role="alert">
      {props.error}
    </p>
  );
}

/** The table's links, people and dice settings, as on every table page. */
export function TableSection(props: RulesetTableProps) {
  const gm = props.me.role === 'gm';
  return (
    <>
      {gm && <Invite tableId={props.tableId} token={props.token} />}
      <Participants participants={props.participants} me={props.me.participantId} gm={gm} tableId={props.tableId} token={props.token} />
      <PhysicalDice allowed={props.settings.physicalDice} gm={gm} tableId={props.tableId} token={props.token} onChanged={props.onSettings} />
    </>
  );
}

/** The shared log, newest first. */
export function LogList(props: { lines: readonly { key: string | number; text: string; ruling?: boolean }[]; omitted: number }) {
  return (
    <section class="card" aria-labelledby="rs-log-h">
      <h2 id="rs-log-h">Log</h2>
      {props.lines.length === 0 ? (
        <p class="muted">Nothing has happened yet.</p>
      ) : (
        <ol class="log rs-log" reversed>
          {[...props.lines].reverse().map((l) => (
            <li key={l.key} class={l.ruling ? 'ruling' : undefined}>
              {l.text}
            </li>
          ))}
        </ol>
      )}
      {props.omitted > 0 && <p class="muted small">{props.omitted} earlier entries are not shown.</p>}
    </section>
  );
}

/** A labelled block of values (derived values, tracks). */
export function Values(props: { label: string; items: readonly [string, ComponentChildren][]; id?: string }) {
  return (
    <div class="kv" id={props.id} aria-label={props.label}>
      {props.items.map(([k, v]) => (
        <div key={k}>
          <span class="muted small">{k}</span> <strong>{v}</strong>
        </div>
      ))}
    </div>
  );
}

/** One choice of a select: a plain word, a character (`id`, `name`) or a value with its label. */
export type Choice = string | { id: string; name: string } | { value: string; label: string };

const choiceOption = (c: Choice): { value: string; label: string } => (typeof c === 'string' ? { value: c, label: c } : 'id' in c ? { value: c.id, label: c.name } : c);

/** A labelled select over a list of choices, with an optional first entry meaning "none" (value ''). */
export function ChoiceField(props: { id: string; label: ComponentChildren; value: string; choices: readonly Choice[]; onChange: (v: string) => void; none?: string; hint?: ComponentChildren; problems?: readonly Problem[]; class?: string; disabled?: boolean }) {
  const options = [...(props.none === undefined ? [] : [{ value: '', label: props.none }]), ...props.choices.map(choiceOption)];
  return <SelectField {...props} options={options} />;
}

/** A builder's draft: every edit works on a copy and marks the form touched, so problems show from then on. */
export function useDraft<T>(initial: () => T): { value: T; touched: boolean; touch: () => void; edit: (f: (x: T) => void) => void } {
  const [value, setValue] = useState<T>(initial);
  const [touched, setTouched] = useState(false);
  return {
    value,
    touched,
    touch: () => setTouched(true),
    edit: (f) => {
      setTouched(true);
      setValue((prev) => {
        const next = structuredClone(prev);
        f(next);
        return next;
      });
    },
  };
}

/**
 * A ruleset's builder form: its fields, then the derived values (or how many problems remain), every
 * problem once touched, and the buttons. Adding is refused while the draft has problems.
 */
export function BuilderForm(props: {
  prefix: string;
  title: string;
  class?: string;
  problems: readonly { message: string }[];
  derived: ComponentChildren | null;
  draft: { touched: boolean; touch: () => void };
  onAdd: () => Promise<void>;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const { prefix, problems } = props;
  const { touched } = props.draft;
  const ok = problems.length === 0;
  const act = useAction();
  return (
    <form
      class={`card stack ${props.class ?? ''}`}
      aria-labelledby={`${prefix}-h`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.draft.touch();
        if (!ok) return;
        void act.run(async () => {
          await props.onAdd();
          props.onClose();
        });
      }}
    >
      <h2 id={`${prefix}-h`}>{props.title}</h2>
      {props.children}
      <section aria-labelledby={`${prefix}-derived-h`} aria-live="polite">
        <h3 id={`${prefix}-derived-h`}>Derived</h3>
        {props.derived ? (
          <p id={`${prefix}-derived`}>{props.derived}</p>
        ) : (
          <p id={`${prefix}-derived`} class="muted">
            {problems.length} problem{problems.length === 1 ? '' : 's'} to fix before the sheet is legal.
          </p>
        )}
        {touched && !ok && (
          <ul id={`${prefix}-problems`} class="stack">
            {problems.map((p, i) => (
              <li key={i} class="error-text">
                {p.message}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ErrorLine id={`${prefix}-error`} error={act.error} />
      <div class="row">
        <button type="submit" disabled={act.busy || (touched && !ok)}>
          Add the character
        </button>
        <button type="button" class="quiet" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
