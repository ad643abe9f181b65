import type { ComponentChildren } from 'preact';

/** A row of a log judged again: its entry, and whether it comes out differently now. */
export interface JudgedEntry {
  readonly seq: number;
  readonly changed: boolean;
}

/**
 * The outcome of judging a table's log again under other rules (Personae rolls, d100 and Lucidity
 * attacks): how many came out differently, then one row per entry shown (all, or the changed only).
 */
export function JudgedTable<R extends JudgedEntry>(props: {
  /** "roll" or "attack": what a row is. */
  readonly noun: string;
  /** The rules the log was judged under. */
  readonly label: string;
  readonly rows: readonly R[];
  readonly changedOnly: boolean;
  readonly summaryId: string;
  readonly columns: readonly string[];
  /** The cells of a row after its entry's header cell. */
  readonly head: (row: R) => ComponentChildren;
  readonly cells: (row: R) => ComponentChildren;
}) {
  const { rows, noun } = props;
  const changed = rows.filter((r) => r.changed).length;
  const shown = rows.filter((r) => !props.changedOnly || r.changed);
  const nouns = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}s`;
  return (
    <>
      <p role="status" id={props.summaryId}>
        {rows.length} {noun}{rows.length === 1 ? '' : 's'} judged again under {props.label}: {changed} come{changed === 1 ? 's' : ''} out differently.
      </p>
      {shown.length > 0 && (
        <div class="scroll-x">
          <table class="fairness replay" aria-label={`${nouns} judged again`}>
            <thead>
              <tr>
                <th scope="col">Entry</th>
                {props.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.seq} data-seq={r.seq} data-changed={r.changed ? 'yes' : 'no'}>
                  <th scope="row">{props.head(r)}</th>
                  {props.cells(r)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
