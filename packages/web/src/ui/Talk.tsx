import { useState } from 'preact/hooks';
import type { Participant } from '../lib/api';

/**
 * Table talk: say something to everyone, or whisper. A player whispers to the GM; the GM to one
 * player. The server sends a whisper to its speaker and its recipient only.
 */
export function Talk(props: { idPrefix: string; me: Participant['id']; gm: boolean; participants: readonly Participant[]; send: (command: unknown) => Promise<void> }) {
  const [text, setText] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const p = props.idPrefix;
  const players = props.participants.filter((x) => x.role === 'player' && x.id !== props.me);
  const recipient = props.gm && to && !players.some((x) => x.id === to) ? '' : to;

  const say = async (e: Event) => {
    e.preventDefault();
    const words = text.trim();
    if (!words) {
      setError('Write something to say first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await props.send({ type: 'say', text: words, ...(recipient ? { to: recipient } : {}) });
      setText('');
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That was not sent.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="talk stack" onSubmit={say} aria-label="Table talk" noValidate>
      <div class="row">
        <div class="field grow">
          <label for={`${p}-text`}>Say</label>
          <input
            id={`${p}-text`}
            type="text"
            maxLength={1000}
            autoComplete="off"
            value={text}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? `${p}-err` : undefined}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`${p}-to`}>To</label>
          <select id={`${p}-to`} value={recipient} onChange={(e) => setTo(e.currentTarget.value)}>
            <option value="">Everyone</option>
            {props.gm ? (
              players.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.displayName} (whisper)
                </option>
              ))
            ) : (
              <option value="gm">The GM (whisper)</option>
            )}
          </select>
        </div>
        <button type="submit" disabled={busy}>
          {recipient ? 'Whisper' : 'Send'}
        </button>
      </div>
      {error && (
        <p id={`${p}-err`} class="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
