import type { TableOptions } from '../../lib/rules';
import { problems, stepOfPath, type Draft, type DraftCheck, type StepId } from '../../lib/draft';
import { plural } from '../../lib/format';
import { Check } from '../fields';
import { SheetView } from '../SheetView';

export function ReviewStep(props: {
  draft: Draft;
  check: DraftCheck;
  valid: boolean;
  options: TableOptions;
  go: (s: StepId) => void;
  onExport: (f: 'yaml' | 'json') => void;
  onImport: (f: File) => void;
  onAdd: (() => void) | undefined;
  busy: boolean;
  gm: boolean;
  hidden: boolean;
  setHidden: (v: boolean) => void;
  outOfScene: boolean;
  setOutOfScene: (v: boolean) => void;
  editing: boolean;
}) {
  const list = problems(props.check);
  const notes = props.check.report?.notes ?? [];
  return (
    <div class="stack">
      {list.length === 0 ? (
        <p class="notice good">Legal character: every creation rule of the table holds.</p>
      ) : (
        <div class="notice bad">
          <p>
            <strong>{plural(list.length, 'rule is', 'rules are')} broken:</strong>
          </p>
          <ul>
            {list.map((p, i) => (
              <li key={i}>
                {p.message}
                {p.source && <span class="rule-source">{p.source}</span>}{' '}
                <button type="button" class="quiet" onClick={() => props.go(stepOfPath(p.path))}>
                  Fix it
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length > 0 && (
        <details>
          <summary>{plural(notes.length, 'note')} (not errors)</summary>
          <ul>
            {notes.map((n, i) => (
              <li key={i}>{n.message}</li>
            ))}
          </ul>
        </details>
      )}
      <div class="row">
        <button type="button" onClick={() => props.onExport('yaml')}>
          Save as YAML
        </button>
        <button type="button" onClick={() => props.onExport('json')}>
          Save as JSON
        </button>
        <button type="button" onClick={() => window.print()} disabled={!props.check.sheet}>
          Print the sheet
        </button>
        <label class="button" for="b-import-2">
          Open a file…
        </label>
        <input
          id="b-import-2"
          class="sr-only"
          type="file"
          accept=".yaml,.yml,.json"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) props.onImport(f);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {props.onAdd && (
        <div class="card" style={{ background: 'var(--accent-soft)' }}>
          {props.gm && !props.editing && (
            <Check label="Hidden from the players (they see only its name and condition)" checked={props.hidden} onChange={props.setHidden} />
          )}
          {props.gm && !props.editing && (
            <Check label="Out of the scene (it joins when you bring it in)" checked={props.outOfScene} onChange={props.setOutOfScene} />
          )}
          <button type="button" class="primary big" disabled={!props.valid || props.busy} onClick={props.onAdd}>
            {props.busy ? 'Saving…' : props.editing ? 'Save the changes at the table' : 'Add to the table'}
          </button>
          {!props.valid && <p class="small muted">{props.editing ? 'The changes are saved once every rule holds.' : 'A character joins the table once every rule holds.'}</p>}
        </div>
      )}
      {props.check.sheet && <SheetView sheet={props.check.sheet} options={props.options} headingLevel={3} />}
    </div>
  );
}
