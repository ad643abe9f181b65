import { Avatar } from './Avatar';
import { useContext, useMemo, useState } from 'preact/hooks';
import { MAX_PORTRAIT_BYTES, PORTRAIT_TYPES, type Participant } from '../lib/api';
import { PortraitUrls } from './portraits';
import { plural } from '../lib/format';
import {
  ATTRIBUTES,
  ATTRIBUTE_LABELS,
  STATUS_LABEL,
  STATUS_PENALTY,
  awardBalances,
  bankTotal,
  decideAdvancement,
  describePurchase,
  developmentPoints,
  threshold,
  type AdvancementCommand,
  type AttributeName,
  type CharacterView,
  type Purchase,
  type TableOptions,
  type TableView,
} from '../lib/rules';
import { download, fileNameFor, writeSheetFile } from '../lib/sheet-files';
import { whoName } from './Log';
import { SheetView } from './SheetView';

export interface CharacterActions {
  send: (command: unknown) => Promise<void>;
  /** Uploads a character's portrait, or removes it (null). */
  setPortrait?: (characterId: string, image: Blob | null) => Promise<void>;
}

export function Characters(props: {
  view: TableView;
  participants: readonly Participant[];
  me: { participantId: string; role: 'gm' | 'player' | 'observer' };
  actions: CharacterActions;
  onBuild: (() => void) | null;
  onEdit: ((c: CharacterView) => void) | null;
}) {
  const { view } = props;
  const gm = props.me.role === 'gm';
  return (
    <section aria-labelledby="chars-h" class="stack">
      <div class="spread">
        <h2 id="chars-h">Characters</h2>
        {props.onBuild && (
          <button type="button" class="primary" onClick={props.onBuild}>
            Build a character
          </button>
        )}
      </div>
      <DevelopmentTallies view={view} />
      {view.characters.length === 0 ? (
        <p class="muted">No characters yet. {props.onBuild ? 'Build one, or open a sheet file in the builder.' : ''}</p>
      ) : (
        <div class="char-grid">
          {view.characters.map((c) => (
            <CharacterCard
              key={c.id}
              c={c}
              view={view}
              participants={props.participants}
              gm={gm}
              mine={c.owner === props.me.participantId}
              actions={props.actions}
              onEdit={props.onEdit}
            />
          ))}
        </div>
      )}
    </section>
  );
}

export function tallyText(t: { successes: number; failures: number; uncounted: number } | null | undefined, clearOnly: boolean): string {
  if (!t) return '–';
  const extra = clearOnly && t.uncounted ? `, ${t.uncounted} glancing not counted` : '';
  return `${plural(t.successes, 'success', 'successes')}, ${plural(t.failures, 'failure')}${extra}`;
}

/** Challenges each character issued this session and the one before, to award development points from. */
function DevelopmentTallies(props: { view: TableView }) {
  const dev = props.view.development;
  if (!dev || dev.characters.length === 0) return null;
  return (
    <details class="card">
      <summary>Successes and failures this session (for development points)</summary>
      <p class="small muted">
        Challenges each character issued.{' '}
        {dev.countsOnlyClear ? 'Only clear successes count (option developmentCountsOnlyClear).' : 'Every success counts.'}
      </p>
      <div class="sheet-view">
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Character</th>
                <th scope="col">This session</th>
                <th scope="col">The session before</th>
              </tr>
            </thead>
            <tbody>
              {dev.characters.map((r) => (
                <tr key={r.id}>
                  <th scope="row">{r.name}</th>
                  <td>{tallyText(r.tally, dev.countsOnlyClear)}</td>
                  <td>{tallyText(r.lastSession, dev.countsOnlyClear)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </details>
  );
}

export function conditionOf(c: CharacterView, options: TableOptions) {
  const play = c.play;
  if (!play) return null;
  const t = play.def ? threshold(play.def, options) : null;
  return {
    status: play.status,
    label: STATUS_LABEL[play.status],
    penalty: play.status === 'dead' ? 0 : STATUS_PENALTY[play.status],
    hits: play.hits,
    threshold: t,
    conscious: play.conscious,
    stabilized: play.stabilized,
    present: play.present,
  };
}

function CharacterCard(props: {
  c: CharacterView;
  view: TableView;
  participants: readonly Participant[];
  gm: boolean;
  mine: boolean;
  actions: CharacterActions;
  onEdit: ((c: CharacterView) => void) | null;
}) {
  const { c, view, gm } = props;
  const [error, setError] = useState<string | null>(null);
  const cond = conditionOf(c, view.options);
  const crits = bankTotal(view.scene?.banks[c.id]);
  const dp = c.sheet ? developmentPoints(c.sheet) : null;
  const run = async (command: unknown) => {
    setError(null);
    try {
      await props.actions.send(command);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
    }
  };
  const canAdvance = (gm || props.mine) && c.sheet !== null;
  return (
    <article class="card char-card" aria-labelledby={`char-${c.id}-h`}>
      <div class="spread">
        <div class="char-title">
          <Avatar name={c.name} id={c.id} size="large" />
          <h3 id={`char-${c.id}-h`}>{c.name}</h3>
        </div>
        {c.hidden && <span class="tag hidden">{gm ? 'Hidden from players' : 'Hidden'}</span>}
      </div>
      <p class="small muted">
        {c.sheet ? `${c.sheet.concept} · ` : ''}
        {c.owner ? `played by ${whoName(props.participants, c.owner)}` : "the GM's character"}
      </p>
      {cond && (
        <>
          <dl class="kv">
            <dt>Condition</dt>
            <dd>
              <span class={`status-tag ${cond.status}`}>{cond.label}</span>
              {cond.penalty ? ` −${plural(cond.penalty, 'die', 'dice')}` : ''}
              {!cond.conscious && cond.status !== 'dead' ? ' · unconscious' : ''}
              {cond.stabilized ? ' · stabilized' : ''}
              {!cond.present ? ' · not in the scene' : ''}
            </dd>
            {cond.threshold !== null && (
              <>
                <dt>Hits</dt>
                <dd>
                  {cond.hits} ({cond.threshold} before {c.play?.def?.tier === 'minion' && c.play.def.role !== 'main' ? 'Incapacitated' : 'Injured'})
                </dd>
              </>
            )}
            <dt>Criticals</dt>
            <dd>{crits} banked</dd>
            {dp && (
              <>
                <dt>Development</dt>
                <dd>
                  {dp.unspent} of {dp.awarded} points unspent
                </dd>
              </>
            )}
          </dl>
        </>
      )}
      {c.sheet && (
        <details>
          <summary>Sheet</summary>
          <SheetView sheet={c.sheet} options={view.options} headingLevel={3} />
          <button
            type="button"
            onClick={async () => {
              const text = await writeSheetFile(c.sheet!, 'yaml');
              download(text, fileNameFor(c.sheet!, 'yaml'), 'application/yaml');
            }}
          >
            Save as YAML
          </button>
        </details>
      )}
      {(gm || props.mine) && props.actions.setPortrait && <PortraitUpload c={c} set={props.actions.setPortrait} />}
      {canAdvance && <Advancement c={c} options={view.options} gm={gm} run={run} />}
      {canAdvance && props.onEdit && (
        <p>
          <button type="button" onClick={() => props.onEdit!(c)}>
            Edit the sheet in the builder
          </button>
        </p>
      )}
      {gm && (
        <div class="row" style={{ marginTop: '8px' }}>
          <button type="button" onClick={() => run({ type: 'set-visibility', id: c.id, hidden: !c.hidden })}>
            {c.hidden ? 'Reveal to players' : 'Hide from players'}
          </button>
          {!c.play?.present && (
            <button type="button" onClick={() => run({ type: 'enter-scene', id: c.id })}>
              Bring into the scene
            </button>
          )}
          <button
            type="button"
            class="danger"
            onClick={() => {
              if (window.confirm(`Remove ${c.name} from the table?`)) void run({ type: 'remove-character', id: c.id });
            }}
          >
            Remove
          </button>
        </div>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}

type Kind =
  | 'attribute'
  | 'skill'
  | 'prowess-pool'
  | 'assign-dice'
  | 'special-ability'
  | 'special-ability-upgrade'
  | 'talent'
  | 'talent-upgrade'
  | 'power'
  | 'power-upgrade'
  | 'hit'
  | 'slot-skill'
  | 'slot-ability'
  | 'slot-talent'
  | 'slot-power';
const KINDS: { value: Kind; label: string }[] = [
  { value: 'attribute', label: '+1 to an attribute' },
  { value: 'skill', label: 'Unlock a skill' },
  { value: 'prowess-pool', label: '+3 Prowess Pool dice' },
  { value: 'assign-dice', label: 'Assign pool dice to a skill' },
  { value: 'special-ability', label: 'A new special ability' },
  { value: 'special-ability-upgrade', label: 'Upgrade a special ability' },
  { value: 'talent', label: 'A new talent' },
  { value: 'talent-upgrade', label: 'Upgrade a talent' },
  { value: 'power', label: 'A new power' },
  { value: 'power-upgrade', label: 'Upgrade a power' },
  { value: 'hit', label: '+1 hit before Injured' },
  { value: 'slot-skill', label: 'Unspent creation slot: a skill (free)' },
  { value: 'slot-ability', label: 'Unspent creation slot: a special ability (free)' },
  { value: 'slot-talent', label: 'Unspent creation slot: a talent (free)' },
  { value: 'slot-power', label: 'Unspent creation slot: a power (free)' },
];

/** Development points: the GM awards them; the player spends them, with the cost and every rule checked before sending. */
function Advancement(props: { c: CharacterView; options: TableOptions; gm: boolean; run: (command: unknown) => Promise<void> }) {
  const sheet = props.c.sheet!;
  const id = props.c.id;
  const [points, setPoints] = useState(1);
  const [note, setNote] = useState('');
  const [kind, setKind] = useState<Kind>('attribute');
  const [attribute, setAttribute] = useState<AttributeName>('competence');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [dice, setDice] = useState(1);
  const [improve, setImprove] = useState('uses');
  const balances = awardBalances(sheet);
  const dp = developmentPoints(sheet);

  const purchase: Purchase | null = useMemo((): Purchase | null => {
    switch (kind) {
      case 'attribute':
        return { kind, attribute };
      case 'skill':
        return name.trim() ? { kind, skill: { name: name.trim(), attribute, dice: 2 } } : null;
      case 'prowess-pool':
        return { kind: 'prowess-pool' };
      case 'hit':
        return { kind: 'hit' };
      case 'assign-dice':
        return target ? { kind, skill: target, dice } : null;
      case 'special-ability':
        return name.trim() ? { kind, ability: { name: name.trim(), conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' } } } : null;
      case 'special-ability-upgrade':
        return target ? { kind, ability: target } : null;
      case 'talent':
        return name.trim() ? { kind, talent: { name: name.trim(), kind: 'expertise', native: false, uses: 1, dice: 1, resourceCap: 1 } } : null;
      case 'talent-upgrade':
        return target ? { kind, talent: target, improve: improve as 'uses' | 'dice' | 'resourceCap' } : null;
      case 'power':
        return name.trim() ? { kind, power: { name: name.trim(), duration: 'instant', targets: 1, hits: 0, upgrades: 0 } } : null;
      case 'power-upgrade':
        return target ? { kind, power: target, improve: improve as 'targets' | 'hits' } : null;
      case 'slot-skill':
        return name.trim() ? { kind: 'unspent-slot', trait: { type: 'skill', skill: { name: name.trim(), attribute, dice: 2 } } } : null;
      case 'slot-ability':
        return name.trim()
          ? { kind: 'unspent-slot', trait: { type: 'special-ability', ability: { name: name.trim(), conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' } } } }
          : null;
      case 'slot-talent':
        return name.trim() ? { kind: 'unspent-slot', trait: { type: 'talent', talent: { name: name.trim(), kind: 'expertise', native: false, uses: 1, dice: 1, resourceCap: 1 } } } : null;
      case 'slot-power':
        return name.trim() ? { kind: 'unspent-slot', trait: { type: 'power', power: { name: name.trim(), duration: 'instant', targets: 1, hits: 0, upgrades: 0 } } } : null;
    }
  }, [kind, attribute, name, target, dice, improve]);

  const command: AdvancementCommand | null = purchase ? { type: 'spend', purchase } : null;
  const decision = useMemo(() => (command ? decideAdvancement(sheet, command, props.options) : null), [sheet, command, props.options]);
  const targets =
    kind === 'assign-dice'
      ? ['Block', 'Dodge', 'Resist', ...sheet.skills.map((s) => s.name)].filter((v, i, a) => a.indexOf(v) === i)
      : kind === 'special-ability-upgrade'
        ? sheet.specialAbilities.map((a) => a.name)
        : kind === 'talent-upgrade'
          ? sheet.talents.map((t) => t.name)
          : kind === 'power-upgrade'
            ? sheet.powers.map((p) => p.name)
            : [];
  const p = `adv-${id}`;
  const last = [...sheet.history].reverse().find((e): e is Exclude<typeof e, { type: 'undo' }> => e.type !== 'undo' && !sheet.history.some((u) => u.type === 'undo' && u.entry === e.id));

  return (
    <details>
      <summary>
        Advancement ({dp.unspent} {dp.unspent === 1 ? 'point' : 'points'} to spend)
      </summary>
      <div class="stack">
        {balances.length > 0 && (
          <p class="small">
            Awards:{' '}
            {balances.map((b) => `#${b.id}: ${b.left} of ${b.points} left${b.category ? ` (${b.category})` : ''}`).join(' · ')}
          </p>
        )}
        {props.gm && (
          <div class="row">
            <div class="field">
              <label for={`${p}-points`}>Award points</label>
              <input id={`${p}-points`} type="number" min={1} max={20} value={points} onInput={(e) => setPoints(Math.max(1, Math.trunc(e.currentTarget.valueAsNumber || 1)))} />
            </div>
            <div class="field grow">
              <label for={`${p}-note`}>For</label>
              <input id={`${p}-note`} type="text" maxLength={120} value={note} placeholder="end of session 3" onInput={(e) => setNote(e.currentTarget.value)} />
            </div>
            <button type="button" onClick={() => props.run({ type: 'advance', id, command: { type: 'award', points, ...(note.trim() ? { note: note.trim() } : {}) } })}>
              Award
            </button>
          </div>
        )}
        <div class="row">
          <div class="field grow">
            <label for={`${p}-kind`}>Spend on</label>
            <select id={`${p}-kind`} value={kind} onChange={(e) => { setKind(e.currentTarget.value as Kind); setTarget(''); }}>
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          </div>
          {(kind === 'attribute' || kind === 'skill' || kind === 'slot-skill') && (
            <div class="field">
              <label for={`${p}-attr`}>Attribute</label>
              <select id={`${p}-attr`} value={attribute} onChange={(e) => setAttribute(e.currentTarget.value as AttributeName)}>
                {ATTRIBUTES.map((a) => (
                  <option key={a} value={a}>
                    {ATTRIBUTE_LABELS[a]} ({sheet.attributes[a]})
                  </option>
                ))}
              </select>
            </div>
          )}
          {(kind === 'skill' || kind === 'special-ability' || kind === 'talent' || kind === 'power' || kind.startsWith('slot-')) && (
            <div class="field grow">
              <label for={`${p}-name`}>Name</label>
              <input id={`${p}-name`} type="text" maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </div>
          )}
          {targets.length > 0 || ['assign-dice', 'special-ability-upgrade', 'talent-upgrade', 'power-upgrade'].includes(kind) ? (
            <div class="field grow">
              <label for={`${p}-target`}>Which</label>
              <select id={`${p}-target`} value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
                <option value="">Choose…</option>
                {targets.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {kind === 'assign-dice' && (
            <div class="field">
              <label for={`${p}-dice`}>Dice</label>
              <input id={`${p}-dice`} type="number" min={1} max={10} value={dice} onInput={(e) => setDice(Math.max(1, Math.trunc(e.currentTarget.valueAsNumber || 1)))} />
            </div>
          )}
          {(kind === 'talent-upgrade' || kind === 'power-upgrade') && (
            <div class="field">
              <label for={`${p}-improve`}>Improve</label>
              <select id={`${p}-improve`} value={improve} onChange={(e) => setImprove(e.currentTarget.value)}>
                {(kind === 'talent-upgrade' ? ['uses', 'dice', 'resourceCap'] : ['targets', 'hits']).map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        {decision &&
          (decision.ok ? (
            <p class="small ok-text" aria-live="polite">
              {describePurchase(purchase!)}: costs{' '}
              {decision.entry.type === 'spend' ? plural(decision.entry.cost, 'point') : '0 points'}
              {decision.entry.type === 'spend' && decision.entry.award ? ` from award #${decision.entry.award}` : ''}.
            </p>
          ) : (
            <p class="small error-text" aria-live="polite">
              {decision.error.message}
              <span class="rule-source">{decision.error.source}</span>
            </p>
          ))}
        <div class="row">
          <button type="button" class="primary" disabled={!decision?.ok} onClick={() => props.run({ type: 'advance', id, command })}>
            Spend
          </button>
          {last && (props.gm || last.type !== 'award') && (
            <button type="button" onClick={() => props.run({ type: 'advance', id, command: { type: 'undo' } })}>
              Undo {last.type === 'award' ? `award of ${last.points}` : `“${describePurchase(last.purchase)}”`}
            </button>
          )}
        </div>
      </div>
    </details>
  );
}

/** The player of a character, or the GM, uploads its portrait; the server checks it again. */
function PortraitUpload(props: { c: CharacterView; set: (characterId: string, image: Blob | null) => Promise<void> }) {
  const { c } = props;
  const has = useContext(PortraitUrls).has(c.id);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `portrait-${c.id}`;
  const run = async (image: Blob | null) => {
    setError(null);
    setBusy(true);
    try {
      await props.set(c.id, image);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The portrait could not be saved.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="field portrait-upload">
      <label for={id}>Portrait</label>
      <div class="row">
        <input
          id={id}
          type="file"
          accept={PORTRAIT_TYPES.join(',')}
          disabled={busy}
          aria-describedby={`${id}-hint${error ? ` ${id}-err` : ''}`}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (!file) return;
            if (!PORTRAIT_TYPES.includes(file.type)) return setError(`portrait: "${file.name}" is ${file.type || 'of an unknown type'}; a portrait is a PNG, JPEG or WebP image.`);
            if (file.size > MAX_PORTRAIT_BYTES) return setError(`portrait: "${file.name}" is ${Math.ceil(file.size / 1024)} KiB; a portrait is at most ${MAX_PORTRAIT_BYTES / 1024} KiB.`);
            void run(file);
          }}
        />
        {has && (
          <button type="button" class="quiet danger" disabled={busy} onClick={() => void run(null)}>
            Remove the portrait
          </button>
        )}
      </div>
      <span id={`${id}-hint`} class="hint">
        PNG, JPEG or WebP, at most {MAX_PORTRAIT_BYTES / 1024} KiB. Shown in the action order, the log and here, to everyone who may see {c.name}.
      </span>
      {error && (
        <p id={`${id}-err`} class="error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
