import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { navigate } from '../lib/route';
import { saveTable, savedTables } from '../lib/storage';
import { Frame } from './Frame';
import { tablePath } from './Start';

export function JoinPage(props: { tableId: string; invite: string | null }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const already = savedTables().find((t) => t.tableId === props.tableId && t.role === 'player');
  // Which table the invite opens, asked of the server: null while asking, false for a link that no longer works.
  const [table, setTable] = useState<string | null | false>(null);
  useEffect(() => {
    if (!props.invite) return;
    let live = true;
    api.invitation(props.tableId, props.invite).then(
      (r) => live && setTable(r.table.name),
      (err: unknown) => live && setTable(err instanceof ApiError && err.code === 'unauthorized' ? false : null),
    );
    return () => {
      live = false;
    };
  }, [props.tableId, props.invite]);

  const join = async (e: Event) => {
    e.preventDefault();
    if (!props.invite) return;
    if (!name.trim()) {
      setError('Say what the others should call you.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const joined = await api.join(props.tableId, props.invite, name.trim());
      let tableName = table || 'Table';
      try {
        tableName = (await api.table(props.tableId, joined.token)).table.name;
      } catch {
        // the name is only for "Your tables"
      }
      saveTable({ tableId: props.tableId, tableName, role: 'player', displayName: joined.displayName, token: joined.token });
      navigate(tablePath({ tableId: props.tableId, token: joined.token, role: 'player' }), true);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 'unauthorized'
          ? 'This invite link no longer works: the GM may have replaced it. Ask the GM for the new link.'
          : err instanceof Error
            ? err.message
            : 'Joining failed.',
      );
      setBusy(false);
    }
  };

  return (
    <Frame {...(table ? { where: table } : {})}>
      <main id="main">
        <div class="card" style={{ maxWidth: '32rem' }}>
          <h1>{table ? `Join ${table}` : 'Join the table'}</h1>
          {!props.invite ? (
            <p class="notice bad" role="alert">
              This link has no invite in it. Ask the GM to send the full invite link again.
            </p>
          ) : (
            <form onSubmit={join} class="stack" noValidate>
              {table === false && (
                <p class="notice bad" role="alert">
                  This invite link no longer works: the GM may have replaced it. Ask the GM for the new link.
                </p>
              )}
              <p>{table ? <>You were invited to play at <strong>{table}</strong>.</> : 'You were invited to play.'} Choose the name the others will see.</p>
              {already && (
                <p class="notice info">
                  You already joined this table as {already.displayName}.{' '}
                  <a href={tablePath(already)}>Open it</a>.
                </p>
              )}
              <div class="field">
                <label for="display-name">Your name</label>
                <input id="display-name" type="text" value={name} maxLength={60} autoComplete="nickname" onInput={(e) => setName(e.currentTarget.value)} />
              </div>
              {error && (
                <p class="error-text" role="alert">
                  {error}
                </p>
              )}
              <button class="primary big" type="submit" disabled={busy}>
                {busy ? 'Joining…' : 'Join'}
              </button>
            </form>
          )}
        </div>
      </main>
    </Frame>
  );
}
