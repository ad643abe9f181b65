import { useState } from 'preact/hooks';
import { PRESET_CHOICES, PRESET_LABEL } from '../lib/presets';
import { allowedValues, OPTION_DEFINITIONS, tableOptions, type ShownLogEntry, type OptionName, type Preset, type TableView } from '../lib/rules';
import type { RejudgedRoll } from '../lib/lab';
import { JudgedTable } from './JudgedTable';

interface Judged {
  readonly label: string;
  readonly rows: readonly (RejudgedRoll & { seq: number; purpose?: string | undefined })[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const verdict = (v: RejudgedRoll['then']) => `${v.outcome}${v.grade ? ` (${v.grade})` : ''}${v.rollsAgain ? ', rolls again' : ''}`;

/** The rolls of the log the GM can see, with their dice (automatic results have none). */
function rollsOf(log: readonly ShownLogEntry[]): ShownLogEntry[] {
  return log.filter((e) => e.result && (e.result.kind === 'opposed' || e.result.kind === 'unopposed') && !e.reveal);
}

/**
 * The GM judges the table's log again under other rules, with the dice each roll compared
 * (rejudge in the rules library): read only, nothing is sent to the table.
 */
export function ReplayLog(props: { view: TableView }) {
  const [preset, setPreset] = useState<Preset>(props.view.preset === 'core-2011' ? 'srd-v4' : 'core-2011');
  const [option, setOption] = useState<OptionName | ''>('');
  const [value, setValue] = useState('');
  const [judged, setJudged] = useState<Judged | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [changedOnly, setChangedOnly] = useState(false);
  const names = Object.keys(OPTION_DEFINITIONS) as OptionName[];
  const choices = option ? (allowedValues((OPTION_DEFINITIONS[option] as unknown as { schema: Parameters<typeof allowedValues>[0] }).schema) ?? []) : [];

  const run = async () => {
    setError(null);
    try {
      const { rejudge } = await import('../lib/lab');
      const overrides = option && value !== '' ? { [option]: JSON.parse(value) } : {};
      const now = tableOptions(preset, overrides);
      const rows = rollsOf(props.view.log).map((e) => ({ seq: e.seq, purpose: e.purpose, ...rejudge(e.result!, props.view.options, now) }));
      setJudged({ label: `${PRESET_LABEL[preset]}${option && value !== '' ? `, ${option} = ${value}` : ''}`, rows });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The log could not be judged again.');
    }
  };

  return (
    <section class="card stack" aria-labelledby="replay-h">
      <h2 id="replay-h">The same dice, other rules (GM only)</h2>
      <p class="hint">
        Judge every roll of the log again with the dice it compared, under other rules: its outcome then and now, and its exact chance of success under each. Nothing
        changes at the table.
      </p>
      <div class="row">
        <div class="field">
          <label for="replay-preset">Rules</label>
          <select id="replay-preset" value={preset} onChange={(e) => setPreset(e.currentTarget.value as Preset)}>
            {PRESET_CHOICES.map((p) => (
              <option key={p} value={p}>
                {PRESET_LABEL[p]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="replay-option">With one option changed</label>
          <select
            id="replay-option"
            value={option}
            onChange={(e) => {
              setOption(e.currentTarget.value as OptionName | '');
              setValue('');
            }}
          >
            <option value="">None</option>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        {option && choices.length > 0 && (
          <div class="field">
            <label for="replay-value">Value</label>
            <select id="replay-value" value={value} onChange={(e) => setValue(e.currentTarget.value)}>
              <option value="">(the preset's)</option>
              {choices.map((v) => (
                <option key={JSON.stringify(v)} value={JSON.stringify(v)}>
                  {String(v)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <div class="row">
        <button type="button" class="primary" onClick={() => void run()}>
          Judge the log again
        </button>
        {judged && (
          <label class="check">
            <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.currentTarget.checked)} />
            Only rolls that come out differently
          </label>
        )}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {judged && (
        <>
          <JudgedTable
            noun="roll"
            label={judged.label}
            rows={judged.rows}
            changedOnly={changedOnly}
            summaryId="replay-summary"
            columns={['Dice', 'Then', 'Now', 'Chance then', 'Chance now']}
            head={(r) => `#${r.seq}${r.purpose ? ` ${r.purpose}` : ''}`}
            cells={(r) => (
              <>
                <td class="mono">
                  {r.actor.name} {r.actor.dice.join(' ')}
                  {r.actor.modifier ? ` ${r.actor.modifier > 0 ? '+' : ''}${r.actor.modifier}` : ''} vs {r.reactor.name} {r.reactor.dice.join(' ')}
                  {r.reactor.modifier ? ` ${r.reactor.modifier > 0 ? '+' : ''}${r.reactor.modifier}` : ''}
                </td>
                <td>{verdict(r.then)}</td>
                <td>
                  <strong>{verdict(r.now)}</strong>
                </td>
                <td>{pct(r.then.chance)}</td>
                <td>{pct(r.now.chance)}</td>
              </>
            )}
          />
        </>
      )}
    </section>
  );
}
