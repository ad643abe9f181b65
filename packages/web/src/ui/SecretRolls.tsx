import { useState } from 'preact/hooks';
import type { TableView } from '../lib/rules';

type Reveal = TableView['secretRolls']['reveal'];

const WHEN: Record<Reveal, string> = {
  gm: 'When I reveal them',
  scene: 'At the end of each scene',
  session: 'At the end of each session',
};

/**
 * Secret rolls: when the table reveals them, and for the GM the rolls still sealed, each with a
 * Reveal button. Players see the policy; the commitments and the checks are in the log.
 */
export function SecretRolls(props: { view: TableView; gm: boolean; send: (command: unknown) => Promise<void> }) {
  const { reveal, sealed } = props.view.secretRolls;
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (command: unknown, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      await props.send(command);
      setMessage({ ok: true, text: done });
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : 'The table refused.' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card stack" aria-labelledby="secret-h">
      <h2 id="secret-h">Secret rolls</h2>
      <p class="hint">
        A hidden roll of the GM is sealed: everyone's log shows at once a commitment to its dice (a SHA-256 hash with a random salt). When it is revealed, each
        browser checks the dice against the commitment and marks the roll verified.
      </p>
      {props.gm ? (
        <div class="field">
          <label for="secret-when">Reveal secret rolls</label>
          <select id="secret-when" value={reveal} disabled={busy} onChange={(e) => void run({ type: 'secret-reveal', reveal: e.currentTarget.value }, 'The table will reveal secret rolls as chosen.')}>
            {(Object.keys(WHEN) as Reveal[]).map((k) => (
              <option key={k} value={k}>
                {WHEN[k]}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p>
          Secret rolls are revealed: <strong>{WHEN[reveal].replace('When I reveal them', 'when the GM reveals them').toLowerCase()}</strong>.
        </p>
      )}
      {props.gm && (
        <>
          {sealed.length === 0 ? (
            <p class="muted">No secret roll is waiting to be revealed.</p>
          ) : (
            <ul class="stack" aria-label="Sealed rolls">
              {sealed.map((s) => (
                <li key={s.hash} class="row">
                  <span class="grow">
                    #{s.committedAt}
                    {s.purpose ? ` · ${s.purpose}` : ''} · <span class="hash">{s.hash.slice(0, 16)}…</span>
                  </span>
                  <button type="button" disabled={busy} onClick={() => void run({ type: 'reveal', hash: s.hash }, `The roll committed in entry #${s.committedAt} is revealed.`)}>
                    Reveal #{s.committedAt}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {sealed.length > 1 && (
            <button type="button" disabled={busy} onClick={() => void run({ type: 'reveal' }, 'Every secret roll is revealed.')}>
              Reveal all
            </button>
          )}
        </>
      )}
      {message && (
        <p class={message.ok ? 'ok' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </section>
  );
}
