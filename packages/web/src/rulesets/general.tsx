import { useState } from 'preact/hooks';
import { Invite, Participants, PhysicalDice } from '../ui/TableSettings';
import { rulesetChoice } from './catalog';
import { newIdFor } from './ids';
import type { RulesetPages, RulesetTableProps } from './types';

/** A character as the general page reads it from a ruleset's view: only the fields every view has. */
interface ShownCharacter {
  id: string;
  name?: string;
  side?: string;
}

function charactersOf(view: unknown): ShownCharacter[] {
  const v = (view ?? {}) as { characters?: unknown; combatants?: unknown };
  const list = Array.isArray(v.characters) ? v.characters : Array.isArray(v.combatants) ? v.combatants : [];
  return list.filter((c): c is ShownCharacter => typeof c === 'object' && c !== null && typeof (c as ShownCharacter).id === 'string');
}

/** A short id for a character from its name: letters and digits, joined by dashes. */
/**
 * The table page of a ruleset without pages of its own: who is at the table, its characters, a sheet
 * file to add a character with (checked by the server), and the table's links and settings.
 */
export function generalPages(id: string, addCommand: (characterId: string, sheet: unknown) => unknown): RulesetPages {
  function GeneralTable(props: RulesetTableProps) {
    const [text, setText] = useState('');
    const [error, setError] = useState<string | null>(null);
    const [done, setDone] = useState('');
    const gm = props.me.role === 'gm';
    const observer = props.me.role === 'observer';
    const characters = charactersOf(props.view);
    const title = rulesetChoice(id)?.title ?? id;

    const add = async (e: Event) => {
      e.preventDefault();
      setError(null);
      setDone('');
      let sheet: unknown;
      try {
        sheet = JSON.parse(text);
      } catch {
        setError('The sheet is not JSON.');
        return;
      }
      const name = typeof (sheet as { name?: unknown })?.name === 'string' ? (sheet as { name: string }).name : 'character';
      const characterId = newIdFor(props.me, name, characters);
      try {
        await props.send(addCommand(characterId, sheet));
        setText('');
        setDone(`${name} joined the table.`);
      } catch (err) {
        setError(err instanceof Error ? err.message : 'The character was not added.');
      }
    };

    return (
      <div class="stack" data-ruleset={id}>
        <section class="card" aria-labelledby="chars-h">
          <h2 id="chars-h">Characters</h2>
          <p class="muted small">This table plays {title}.</p>
          {characters.length === 0 ? (
            <p class="muted">No characters yet.</p>
          ) : (
            <ul>
              {characters.map((c) => (
                <li key={c.id}>
                  {c.name ?? c.id}
                  {c.side ? <span class="muted small"> · {c.side}</span> : null}
                </li>
              ))}
            </ul>
          )}
          {!observer && (
            <form class="stack" onSubmit={add} noValidate>
              <div class="field">
                <label for="sheet-json">A character sheet (JSON)</label>
                <textarea id="sheet-json" rows={6} value={text} onInput={(e) => setText(e.currentTarget.value)} />
                <span class="hint">The server checks the sheet against the {title} rules and names any problem.</span>
              </div>
              {error && (
                <p class="error-text" role="alert">
                  {error}
                </p>
              )}
              {done && <p role="status">{done}</p>}
              <button type="submit" disabled={!text.trim()}>
                Add the character
              </button>
            </form>
          )}
        </section>
        {gm && <Invite tableId={props.tableId} token={props.token} />}
        <Participants participants={props.participants} me={props.me.participantId} gm={gm} tableId={props.tableId} token={props.token} />
        <PhysicalDice allowed={props.settings.physicalDice} gm={gm} tableId={props.tableId} token={props.token} onChanged={props.onSettings} />
      </div>
    );
  }
  return { id, Table: GeneralTable };
}
