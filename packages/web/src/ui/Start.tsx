import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { newCommandId } from '../lib/format';
import { navigate } from '../lib/route';
import { forgetTable, rememberTab, saveTable, savedTables, type SavedTable } from '../lib/storage';
import { PERSONAE, RULESET_CHOICES, rulesetChoice } from '../rulesets/catalog';
import { Frame, link } from './Frame';

export function tablePath(t: { tableId: string; token: string; role: string }): string {
  return `/${t.role === 'observer' ? 'watch' : 'table'}/${encodeURIComponent(t.tableId)}#token=${encodeURIComponent(t.token)}`;
}

export function StartPage() {
  const [name, setName] = useState('');
  const [gmName, setGmName] = useState('');
  const [physical, setPhysical] = useState(true);
  const [ruleset, setRuleset] = useState(PERSONAE);
  const [preset, setPreset] = useState<string>(rulesetChoice(PERSONAE)!.presets[0]!.id);
  const choice = rulesetChoice(ruleset) ?? RULESET_CHOICES[0]!;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tables, setTables] = useState<SavedTable[]>(savedTables);

  const [restoreError, setRestoreError] = useState<string | null>(null);
  const restore = async (file: File | undefined) => {
    if (!file) return;
    setRestoreError(null);
    let data: unknown;
    try {
      data = JSON.parse(await file.text());
    } catch {
      setRestoreError(`${file.name} is not a table backup: it is not JSON.`);
      return;
    }
    try {
      const created = await api.importTable(data);
      const tableName = (data as { table?: { name?: unknown } }).table?.name;
      saveTable({
        tableId: created.tableId,
        tableName: typeof tableName === 'string' ? tableName : file.name,
        role: 'gm',
        displayName: null,
        token: created.gm.token,
        invite: created.invite.link,
        observer: created.observer.link,
      });
      rememberTab(created.tableId, 'table');
      navigate(tablePath({ tableId: created.tableId, token: created.gm.token, role: 'gm' }));
    } catch (err) {
      setRestoreError(`${file.name} was not opened: ${err instanceof ApiError ? err.message : 'the server did not accept it.'}`);
    }
  };

  const create = async (e: Event) => {
    e.preventDefault();
    if (!name.trim() || !gmName.trim()) {
      setError(!name.trim() ? 'Give the table a name.' : 'Say what the players should call you.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      let created;
      if (ruleset === PERSONAE) {
        created = await api.createTable(name.trim(), gmName.trim(), physical);
        // The table plays by the chosen document from its first entry on (a logged, changeable choice).
        await api.command(created.tableId, created.gm.token, { commandId: newCommandId(), command: { type: 'configure', preset } });
      } else {
        created = await api.createTable(name.trim(), gmName.trim(), physical, { ruleset, preset });
      }
      saveTable({
        tableId: created.tableId,
        tableName: name.trim(),
        role: 'gm',
        displayName: gmName.trim(),
        token: created.gm.token,
        invite: created.invite.link,
        observer: created.observer.link,
      });
      // The GM's first task is to invite the players: the table opens on the tab with the invite link.
      rememberTab(created.tableId, 'table');
      navigate(tablePath({ tableId: created.tableId, token: created.gm.token, role: 'gm' }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The table could not be created.');
      setBusy(false);
    }
  };

  return (
    <Frame>
      <main id="main">
        <section class="hero">
          <h1>Personae Table</h1>
          <p>
            Play Personae with every roll explained. Build characters with the rules checked as you go, see the exact odds before you
            roll, and keep one shared log that every player sees live.
          </p>
        </section>
        <div class="start-grid">
          <section class="card" aria-labelledby="create-h">
            <h2 id="create-h">Start a table</h2>
            <p class="muted small">You will be the Game Moderator. You get an invite link to send to the players.</p>
            <form onSubmit={create} class="stack" noValidate>
              <div class="field">
                <label for="table-name">Table name</label>
                <input id="table-name" type="text" value={name} maxLength={100} autoComplete="off" placeholder="The Salt Road" onInput={(e) => setName(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="gm-name">Your name</label>
                <input id="gm-name" type="text" value={gmName} maxLength={60} autoComplete="nickname" onInput={(e) => setGmName(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="table-ruleset">Game</label>
                <select
                  id="table-ruleset"
                  value={ruleset}
                  onChange={(e) => {
                    const next = rulesetChoice(e.currentTarget.value) ?? RULESET_CHOICES[0]!;
                    setRuleset(next.id);
                    setPreset(next.presets[0]!.id);
                  }}
                >
                  {RULESET_CHOICES.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.title}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="table-preset">Rules</label>
                <select id="table-preset" value={preset} aria-describedby="table-preset-hint" onChange={(e) => setPreset(e.currentTarget.value)}>
                  {choice.presets.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.label}
                    </option>
                  ))}
                </select>
                <span id="table-preset-hint" class="hint">
                  {choice.hint}
                </span>
              </div>
              <label class="check">
                <input type="checkbox" checked={physical} onChange={(e) => setPhysical(e.currentTarget.checked)} />
                Players may enter the results of physical dice
              </label>
              {error && (
                <p class="error-text" role="alert">
                  {error}
                </p>
              )}
              <button class="primary big" type="submit" disabled={busy}>
                {busy ? 'Creating…' : 'Create the table'}
              </button>
            </form>
          </section>

          <section class="card" aria-labelledby="tools-h">
            <h2 id="tools-h">Without a table</h2>
            <p>
              <a class="button" href="/builder" onClick={link('/builder')}>
                Character builder
              </a>
            </p>
            <p class="muted small">The six creation steps with every rule checked live; save the sheet as YAML or JSON, or print it.</p>
            <p>
              <a class="button" href="/roller" onClick={link('/roller')}>
                Odds and dice roller
              </a>
            </p>
            <p class="muted small">Exact odds of any challenge under core-2011 or srd-v4, and rolls explained die by die.</p>
            <p>
              <a href="/roller/d100" onClick={link('/roller/d100')}>
                d100 attack odds
              </a>{' '}
              ·{' '}
              <a href="/roller/lucidity" onClick={link('/roller/lucidity')}>
                Lucidity attack odds
              </a>
            </p>
            <p class="muted small">Exact odds of one attack under each preset of the d100 and Lucidity rulesets, by link.</p>
          </section>

          <section class="card stack" aria-labelledby="restore-h">
            <h2 id="restore-h">Continue from a backup</h2>
            <div class="field">
              <label for="restore-file">A table's backup file (.json)</label>
              <input id="restore-file" type="file" accept=".json,application/json" aria-describedby="restore-hint" onChange={(e) => void restore(e.currentTarget.files?.[0])} />
              <span id="restore-hint" class="hint">
                The GM's download from the Table tab. It opens as a new table with new links: send the players the new invite.
              </span>
            </div>
            {restoreError && (
              <p class="error-text" role="alert">
                {restoreError}
              </p>
            )}
          </section>

          {tables.length > 0 && (
            <section class="card" aria-labelledby="mine-h">
              <h2 id="mine-h">Your tables</h2>
              <ul class="table-list">
                {tables.map((t) => (
                  <li key={t.tableId + t.token}>
                    <span>
                      <a href={tablePath(t)} onClick={link(tablePath(t))}>
                        {t.tableName}
                      </a>{' '}
                      <span class="muted small">
                        {t.role === 'gm' ? 'GM' : t.role === 'player' ? `player${t.displayName ? ` (${t.displayName})` : ''}` : 'watching'}
                      </span>
                    </span>
                    <button
                      class="quiet"
                      type="button"
                      aria-label={`Forget ${t.tableName} on this device`}
                      onClick={() => {
                        forgetTable(t.tableId, t.token);
                        setTables(savedTables());
                      }}
                    >
                      Forget
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </main>
    </Frame>
  );
}
