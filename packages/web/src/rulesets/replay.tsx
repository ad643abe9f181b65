import { useState } from 'preact/hooks';
import type { OptionDescriptor } from '@personae/core';
import { api, type Decisions } from '../lib/api';
import { JudgedTable } from '../ui/JudgedTable';
import { ChoiceField, ErrorLine, useAction } from './shared';

/** One attack of the log judged again, in words. */
export interface JudgedRow {
  readonly seq: number;
  /** Who attacked whom. */
  readonly what: string;
  readonly dice: readonly number[];
  readonly then: string;
  /** Null when the new rules refuse the attack (`refused` says why). */
  readonly now: string | null;
  readonly refused?: string | undefined;
  readonly chanceThen: string;
  readonly chanceNow: string;
  readonly changed: boolean;
  /** Anything the row's reader needs to know (dice drawn past those recorded, a record not reproduced). */
  readonly note?: string | undefined;
}

/** An attack of the log as the ruleset's re-judge gives it, with its verdict then and now. */
interface Rejudged<V> {
  readonly seq: number;
  readonly then: V;
  readonly now: V | null;
  readonly refused?: string | undefined;
  readonly extraDice: number;
  readonly changed: boolean;
}

/** The rows of a ruleset's re-judge in words: `verdict` and `odds` say what an attack came to and its odds under one rule set. */
export function judgedRows<V, R extends Rejudged<V>>(rows: readonly R[], words: { what: (r: R) => string; dice: (r: R) => readonly number[]; verdict: (v: V) => string; odds: (v: V | null) => string; note?: (r: R) => string | undefined }): JudgedRow[] {
  return rows.map((r) => {
    const notes = [words.note?.(r), r.extraDice ? `${r.extraDice} more ${r.extraDice === 1 ? 'die' : 'dice'} drawn than recorded` : undefined].filter((n): n is string => !!n);
    return {
      seq: r.seq,
      what: words.what(r),
      dice: words.dice(r),
      then: words.verdict(r.then),
      now: r.now ? words.verdict(r.now) : null,
      refused: r.refused,
      chanceThen: words.odds(r.then),
      chanceNow: words.odds(r.now),
      changed: r.changed,
      note: notes.length ? notes.join('; ') : undefined,
    };
  });
}

/** Values an option may take on the form: its named values, true/false, or null for a number typed in. */
function optionValues(d: OptionDescriptor): readonly string[] | null {
  if (d.values) return d.values;
  if (d.kind === 'boolean') return ['true', 'false'];
  return null;
}

/**
 * "The same dice, other rules" for a d100 or Lucidity table: the GM reads the table's recorded decisions
 * from the server (GET /api/tables/:id/decisions, refused to everyone else) and `judge` decides every
 * attack of the log again in the browser, under a preset and one option changed. Nothing is sent to the
 * table.
 */
export function RulesetReplay(props: {
  tableId: string;
  token: string;
  /** The table's preset, and the ruleset's presets and options. */
  preset: string;
  presets: readonly string[];
  options: readonly OptionDescriptor[];
  judge: (decisions: Decisions, now: { preset: string; overrides: Record<string, unknown> }) => JudgedRow[];
}) {
  const [preset, setPreset] = useState(props.presets.find((p) => p !== props.preset) ?? props.preset);
  const [option, setOption] = useState('');
  const [value, setValue] = useState('');
  const [judged, setJudged] = useState<{ label: string; rows: JudgedRow[] } | null>(null);
  const [changedOnly, setChangedOnly] = useState(false);
  const act = useAction();
  const descriptor = props.options.find((o) => o.name === option);
  const values = descriptor ? optionValues(descriptor) : null;
  const run = () =>
    act.run(async () => {
      let overrides: Record<string, unknown> = {};
      if (descriptor && value.trim() !== '') {
        const parsed = descriptor.kind === 'boolean' ? value === 'true' : descriptor.kind === 'integer' || descriptor.kind === 'number' ? Number(value) : value;
        if (typeof parsed === 'number' && !Number.isFinite(parsed)) throw new Error(`${option}: "${value}" is not a number`);
        overrides = { [option]: parsed };
      }
      const decisions = await api.decisions(props.tableId, props.token);
      const rows = props.judge(decisions, { preset, overrides });
      setJudged({ label: `${preset}${Object.keys(overrides).length ? `, ${option} = ${value}` : ''}`, rows });
    });
  return (
    <section class="card stack" aria-labelledby="rs-replay-h">
      <h2 id="rs-replay-h">The same dice, other rules (GM only)</h2>
      <p class="hint">Judge every attack of the log again with the dice it drew, under other rules: its outcome then and now, and its exact odds under each. Nothing changes at the table.</p>
      <div class="row">
        <ChoiceField id="rs-replay-preset" label="Rules" value={preset} choices={props.presets} onChange={setPreset} />
        <ChoiceField
          id="rs-replay-option"
          label="With one option changed"
          value={option}
          none="None"
          choices={props.options.map((o) => ({ value: o.name, label: o.name }))}
          onChange={(o) => {
            setOption(o);
            setValue('');
          }}
        />
        {descriptor &&
          (values ? (
            <ChoiceField id="rs-replay-value" label="Value" value={value} none="(the preset's)" choices={values} onChange={setValue} />
          ) : (
            <div class="field">
              <label for="rs-replay-value">Value</label>
              <input id="rs-replay-value" inputMode="numeric" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
            </div>
          ))}
      </div>
      <div class="row">
        <button type="button" class="primary" disabled={act.busy} onClick={() => void run()}>
          Judge the log again
        </button>
        {judged && (
          <label class="check">
            <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.currentTarget.checked)} />
            Only attacks that come out differently
          </label>
        )}
      </div>
      <ErrorLine id="rs-replay-err" error={act.error} />
      {judged && (
        <>
          <JudgedTable
            noun="attack"
            label={judged.label}
            rows={judged.rows}
            changedOnly={changedOnly}
            summaryId="rs-replay-summary"
            columns={['Attack', 'Dice', 'Then', 'Now', 'Odds then', 'Odds now']}
            head={(r) => `#${r.seq}`}
            cells={(r) => (
              <>
                <td>{r.what}</td>
                <td class="mono">{r.dice.join(' ')}</td>
                <td>{r.then}</td>
                <td>
                  <strong>{r.now ?? `refused: ${r.refused ?? ''}`}</strong>
                  {r.note && <span class="muted small"> ({r.note})</span>}
                </td>
                <td>{r.chanceThen}</td>
                <td>{r.chanceNow}</td>
              </>
            )}
          />
        </>
      )}
    </section>
  );
}
