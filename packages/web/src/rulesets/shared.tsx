import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Problem as RuleProblem } from '@personae/core';
import type { Problem } from '../lib/draft';
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
