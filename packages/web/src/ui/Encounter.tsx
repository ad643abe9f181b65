import { Avatar } from './Avatar';
import { ChoiceField } from '../rulesets/shared';
import { headline } from '../lib/story';
import { useState } from 'preact/hooks';
import { EMPTY_DESTINATION, RELATIVE_TERMS, actsOutOfTurn, moveDestination, positionText, resolveText, type DestinationInput } from '../lib/encounter';
import { percent, plural } from '../lib/format';
import { actionOdds, type ActionOdds, type ChoiceOdds } from '../lib/choice-odds';
import { parseGiven } from '../lib/roller';
import { undoPreview } from '../lib/undo';
import { ACTOR_POOL, STAGE_LABEL, bankTotal, escalationOrder, type CharacterView, type EnteredPools, type ShownLogEntry, type Stage, type TableView } from '../lib/rules';
import { conditionOf, tallyText } from './Characters';
import { Check, NumberField } from './fields';
import { ObstacleForm } from './ObstacleForm';

/** Sends a table command; `dice`: physical dice typed in, by the named pool each fills. */
type Send = (command: unknown, dice?: EnteredPools) => Promise<void>;

/** The log entries the next undo takes back: the latest encounter action (its entries share one command's time and issuer). */
function nameOf(view: TableView, id: string): string {
  if (id === 'gm') return 'the GM';
  return view.characters.find((c) => c.id === id)?.name ?? 'a hidden character';
}

export function Encounter(props: { view: TableView; me: { participantId: string; role: 'gm' | 'player' | 'observer' }; send: Send; physicalDice: boolean; onAward?: () => void }) {
  const { view } = props;
  const scene = view.scene;
  const gm = props.me.role === 'gm';
  const [error, setError] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const run = async (inner: unknown, hidden = false, seen?: number, dice?: EnteredPools) => {
    setError(null);
    try {
      await props.send({ type: 'encounter', command: inner, hidden, ...(seen === undefined ? {} : { seen }) }, dice);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
    }
  };
  if (!scene) {
    return (
      <section aria-labelledby="enc-h">
        <h2 id="enc-h">Encounter</h2>
        <p class="muted">The scene starts when the first character joins the table.</p>
      </section>
    );
  }
  const stage = scene.clock.stage;
  const steps = escalationOrder(view.options);
  const later = steps.slice(steps.indexOf(stage) + 1) as Exclude<Stage, 'scene'>[];
  const earlier = steps.slice(0, steps.indexOf(stage)) as Exclude<Stage, 'violent'>[];
  const combat = scene.combat;
  const current = combat ? (combat.order[combat.index] ?? null) : null;
  const mine = (id: string) => gm || view.characters.find((c) => c.id === id)?.owner === props.me.participantId;
  const preview = undoPreview(view.log);
  // A player's undo names one of their own characters; the server checks that the action is theirs.
  const undoActor = gm ? 'gm' : (view.characters.find((c) => c.owner === props.me.participantId)?.id ?? 'gm');
  const present = view.characters.filter((c) => c.play?.present);

  return (
    <section aria-labelledby="enc-h" class="stack">
      <div class="spread">
        <h2 id="enc-h">Encounter</h2>
        <span class="tag">
          {scene.betweenSessions ? `After session ${scene.clock.session}` : `Session ${scene.clock.session}`} · day {scene.clock.day} · scene {scene.clock.scene}
        </span>
      </div>
      <p aria-live="polite">
        <strong>{STAGE_LABEL[stage][0]!.toUpperCase() + STAGE_LABEL[stage].slice(1)}</strong>
        {combat ? ` · round ${combat.round} · ${current ? `${nameOf(view, current)}'s turn` : ''}` : ''}
      </p>

      {scene.betweenSessions && <SessionSummary view={view} session={scene.clock.session} gm={gm} onAward={props.onAward} />}

      {gm && (
        <div class="card stack" style={{ background: '#fbfaf6' }}>
          <h3>Scene and escalation</h3>
          <div class="row">
            {later.map((to) => (
              <button key={to} type="button" class={to === 'violent' ? 'primary' : ''} onClick={() => run({ type: 'escalate', actor: 'gm', to })}>
                Escalate to a {STAGE_LABEL[to]}
              </button>
            ))}
            {earlier.length > 0 && stage !== 'scene' && (
              <button type="button" onClick={() => run({ type: 'de-escalate', actor: 'gm', to: earlier[earlier.length - 1] })}>
                De-escalate to a {STAGE_LABEL[earlier[earlier.length - 1]!]}
              </button>
            )}
            {stage !== 'scene' && (
              <button type="button" onClick={() => run({ type: 'end-encounter', actor: 'gm' })}>
                End the encounter
              </button>
            )}
          </div>
          <div class="row">
            <div class="field grow">
              <label for="enc-title">Next scene</label>
              <input id="enc-title" type="text" maxLength={120} value={title} placeholder="The ferry at dusk" onInput={(e) => setTitle(e.currentTarget.value)} />
            </div>
            <button type="button" onClick={() => run({ type: 'begin-scene', actor: 'gm', ...(title.trim() ? { title: title.trim() } : {}) })}>
              Begin a new scene
            </button>
            <button type="button" onClick={() => run({ type: 'end-scene', actor: 'gm' })}>
              End the scene
            </button>
          </div>
          <div class="row">
            <button type="button" onClick={() => run({ type: 'begin-day', actor: 'gm' })}>
              Next day
            </button>
            <button type="button" onClick={() => run({ type: 'end-session', actor: 'gm' })}>
              End the session
            </button>
            <button type="button" onClick={() => run({ type: 'begin-session', actor: 'gm' })}>
              Begin the next session
            </button>
          </div>
        </div>
      )}

      {combat && (
        <div class="card">
          <h3>Action order · round {combat.round}</h3>
          <ol class="order" aria-label="Action order">
            {combat.order.map((id, i) => {
              const c = view.characters.find((x) => x.id === id);
              const cond = c ? conditionOf(c, view.options) : null;
              const isCurrent = i === combat.index;
              return (
                <li key={id} class={`${isCurrent ? 'current' : ''} ${cond && !cond.conscious ? 'out' : ''}`} aria-current={isCurrent ? true : undefined}>
                  <Avatar name={nameOf(view, id)} id={id} />
                  <strong>{nameOf(view, id)}</strong>
                  {isCurrent && <span class="tag">now acting</span>}
                  {cond && <span class={`status-tag ${cond.status}`}>{cond.label}{cond.penalty ? ` −${cond.penalty}` : ''}</span>}
                  {combat.actedThisRound.includes(id) && !isCurrent && <span class="small muted">acted</span>}
                </li>
              );
            })}
          </ol>
          {current && (
            <p class="small">
              {nameOf(view, current)}: {plural(combat.turn.moves, 'move')} made, action {combat.turn.actionUsed ? 'used' : 'free'}
              {combat.turn.ability ? `, ${combat.turn.ability} used this turn` : ''}.
            </p>
          )}
          {view.scene?.followUp && (
            <p class="notice info" id="follow-up">
              {view.scene.followUp.kind === 'taunt'
                ? `${nameOf(view, view.scene.followUp.actor)} must attack ${nameOf(view, view.scene.followUp.reactor)} at once (${view.scene.followUp.ability}), out of turn; anything else waits for it.`
                : `${nameOf(view, view.scene.followUp.actor)} may issue ${nameOf(view, view.scene.followUp.reactor)} an immediate follow-up challenge (${view.scene.followUp.ability}); anything else lets it lapse.`}
            </p>
          )}
          {current && mine(current) && (
            <button type="button" onClick={() => run({ type: 'end-turn', actor: current })}>
              End {nameOf(view, current)}'s turn
            </button>
          )}
        </div>
      )}

      <ConditionTable view={view} />

      {gm && <ObstacleForm view={view} run={run} />}

      {props.me.role !== 'observer' && <ActionForm present={present} mine={mine} current={current} turn={combat?.turn ?? null} gm={gm} physicalDice={props.physicalDice} options={view.options} stage={stage} run={run} view={view} />}

      {scene.effects.length > 0 && (
        <div class="card">
          <h3>Powers in effect</h3>
          <ul class="table-list">
            {scene.effects.map((e) => (
              <li key={e.id}>
                <span>
                  #{e.id} {e.power} by {nameOf(view, e.owner)} on {e.targets.map((t) => nameOf(view, t)).join(', ')} ({e.duration}
                  {e.duration === 'maintain' ? `, kept up in round ${e.maintainedRound}` : ''})
                </span>
                {mine(e.owner) && (
                  <span class="row">
                    {e.duration === 'maintain' && (
                      <button type="button" onClick={() => run({ type: 'maintain', actor: e.owner, effect: e.id })}>
                        Maintain
                      </button>
                    )}
                    <button type="button" onClick={() => run({ type: 'end-effect', actor: e.owner, effect: e.id })}>
                      End
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      {(gm || view.canUndo || view.canRedo) && (
        <div class="card">
          <h3>Undo and redo</h3>
          {!gm && <p class="small muted">You may take back your own last action while nothing else has happened after it.</p>}
          {view.canUndo && preview.length > 0 ? (
            <div class="undo-preview" id="undo-preview">
              Undo takes back the latest encounter action:
              <ul>
                {preview.map((e) => (
                  <li key={e.seq}>{headline(e)}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p class="small muted">{view.canUndo ? 'Undo takes back the latest encounter action.' : 'Nothing to undo.'}</p>
          )}
          <div class="row">
            <button type="button" disabled={!view.canUndo} aria-describedby={preview.length ? 'undo-preview' : undefined} onClick={() => run({ type: 'undo', actor: undoActor }, false, view.seq)}>
              Undo
            </button>
            <button type="button" disabled={!view.canRedo} onClick={() => run({ type: 'redo', actor: undoActor }, false, view.seq)}>
              Redo
            </button>
          </div>
          <p class="small muted">Both appear in the log: an undo never deletes what happened, it records that it was taken back.</p>
        </div>
      )}
      {error && (
        <p class="notice bad" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/**
 * The end of a session in a few lines: how far the story went, how each character fared, and for the
 * GM the next step. personae-core-2011.txt "Advancement": development points are awarded between
 * sessions, from the challenges each character issued.
 */
function SessionSummary(props: { view: TableView; session: number; gm: boolean; onAward?: (() => void) | undefined }) {
  const { view } = props;
  const clock = view.scene!.clock;
  const dev = view.development;
  return (
    <section class="card stack session-summary" aria-labelledby="summary-h">
      <h3 id="summary-h">Session {props.session} is over</h3>
      <p>
        The story reached day {clock.day}, scene {clock.scene}. {dev.characters.length === 0 ? 'No character issued a challenge.' : 'Each character’s challenges this session:'}
      </p>
      {dev.characters.length > 0 && (
        <ul>
          {dev.characters.map((r) => {
            const c = view.characters.find((x) => x.id === r.id);
            const cond = c ? conditionOf(c, view.options) : null;
            return (
              <li key={r.id}>
                <Avatar name={r.name} id={r.id} size="small" />
                <strong>{r.name}</strong>: {tallyText(r.tally, dev.countsOnlyClear)}
                {cond && cond.status !== 'unharmed' ? ` · ends ${cond.label.toLowerCase()}` : ''}
              </li>
            );
          })}
        </ul>
      )}
      {props.gm ? (
        <div class="row">
          <p class="grow">
            Award development points now, on each character’s card{dev.countsOnlyClear ? ' (only clear successes count at this table)' : ''}. Begin the next session when the group meets again.
          </p>
          {props.onAward && (
            <button type="button" class="primary" onClick={props.onAward}>
              Award development points
            </button>
          )}
        </div>
      ) : (
        <p class="small muted">The GM awards development points between sessions; they appear on your character’s card.</p>
      )}
    </section>
  );
}

function ConditionTable(props: { view: TableView }) {
  const { view } = props;
  const rows = view.characters.filter((c) => c.play);
  if (!rows.length) return null;
  const showPosition = rows.some((c) => c.play?.position != null);
  const showResolve = view.options.nonViolentExtended === 'health-track' && (view.scene?.clock.stage === 'non-violent' || rows.some((c) => c.play?.resolve));
  return (
    <div class="card sheet-view">
      <h3>Condition</h3>
      <div class="table-scroll"><table>
        <thead>
          <tr>
            <th scope="col">Character</th>
            <th scope="col">Status</th>
            <th scope="col">Hits</th>
            <th scope="col">
              <abbr title="Criticals banked">Crit.</abbr>
            </th>
            {showPosition && <th scope="col">Position</th>}
            {showResolve && <th scope="col">Resolve</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const cond = conditionOf(c, view.options)!;
            return (
              <tr key={c.id}>
                <th scope="row">
                  {c.name}
                  {!cond.present && <span class="small muted"> (not in the scene)</span>}
                </th>
                <td>
                  <span class={`status-tag ${cond.status}`}>{cond.label}</span>
                  {cond.penalty ? ` −${plural(cond.penalty, 'die', 'dice')}` : ''}
                  {!cond.conscious && cond.status !== 'dead' ? ', unconscious' : ''}
                  {cond.stabilized ? ', stabilized' : ''}
                </td>
                <td class="nowrap">{cond.threshold !== null ? `${cond.hits} of ${cond.threshold}` : '–'}</td>
                <td>{bankTotal(view.scene?.banks[c.id])}</td>
                {showPosition && <td>{positionText(c.play?.position) || '–'}</td>}
                {showResolve && (
                  <td class="nowrap">{resolveText(c.play?.resolve)}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table></div>
    </div>
  );
}

type ActionKind = 'attack' | 'power' | 'interact' | 'stabilize' | 'recover' | 'move' | 'spend-criticals';

function ActionForm(props: {
  physicalDice: boolean;
  present: CharacterView[];
  mine: (id: string) => boolean;
  current: string | null;
  /** The turn in progress in a violent encounter: what the acting character has used of it. */
  turn: { actor: string; moves: number; actionUsed: boolean } | null;
  gm: boolean;
  options: TableView['options'];
  stage: Stage;
  run: (inner: unknown, hidden?: boolean, seen?: number, dice?: EnteredPools) => Promise<void>;
  /** The table, for the odds of the action before it is taken. */
  view: TableView;
}) {
  const actors = props.present.filter((c) => props.mine(c.id) && c.play?.def);
  const [actorId, setActorId] = useState<string>('');
  const [kind, setKind] = useState<ActionKind>('attack');
  const [target, setTarget] = useState('');
  const [weapon, setWeapon] = useState('');
  const [power, setPower] = useState('');
  const [skill, setSkill] = useState('');
  const [ability, setAbility] = useState('');
  const [mod, setMod] = useState(0);
  const [modWhy, setModWhy] = useState('');
  const [given, setGiven] = useState('');
  const [count, setCount] = useState(1);
  const [purpose, setPurpose] = useState('');
  const [hidden, setHidden] = useState(false);
  const [destination, setDestination] = useState<DestinationInput>(EMPTY_DESTINATION);
  const [subsequent, setSubsequent] = useState(false);
  const [spendBonus, setSpendBonus] = useState(0);
  const [steer, setSteer] = useState(false);
  const [helpers, setHelpers] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  if (!actors.length) return null;
  // A challenge that follows at once from Taunt or Misdirection (core-2011 "What Special Abilities Can Do").
  const follow = props.view.scene?.followUp ?? null;
  const actor = actors.find((c) => c.id === actorId) ?? actors.find((c) => c.id === follow?.actor) ?? actors.find((c) => c.id === props.current) ?? actors[0]!;
  const def = actor.play!.def!;
  const others = props.present.filter((c) => c.id !== actor.id);
  const preferred = follow?.actor === actor.id ? follow.reactor : undefined;
  const targetId = others.some((c) => c.id === target) ? target : preferred && others.some((c) => c.id === preferred) ? preferred : (others[0]?.id ?? '');
  const weapons = ['', ...def.weapons.map((w) => w.name), 'unarmed'];
  const skills = def.skills.map((s) => s.name);
  const dice = parseGiven(given, 0).dice;
  const distance = props.options.distance;
  const moveTo = moveDestination(distance, destination);
  const destinationProblem = kind === 'move' && 'problem' in moveTo ? moveTo.problem : null;
  const offersSubsequent = props.options.nonViolentExtended === 'subsequent-challenges' && props.stage === 'non-violent';
  const asSubsequent = kind === 'interact' && offersSubsequent && subsequent;
  /** The encounter command the form declares. */
  const declared = (): Record<string, unknown> => {
    const modifiers = mod ? [{ value: mod, source: modWhy.trim() || 'circumstance' }] : [];
    const extra = {
      ...(modifiers.length ? { modifiers } : {}),
      ...(ability ? { abilities: [ability] } : {}),
      ...(purpose.trim() ? { purpose: purpose.trim() } : {}),
      ...(spendBonus > 0 || steer ? { spend: { ...(spendBonus > 0 ? { bonus: spendBonus } : {}), ...(steer ? { steer: 1 } : {}) } } : {}),
      ...(helpers.length ? { assistants: helpers } : {}),
    };
    let inner: Record<string, unknown>;
    switch (kind) {
      case 'attack':
        inner = { type: 'attack', actor: actor.id, target: targetId, ...(weapon ? { weapon } : {}), ...(skill ? { skill } : {}), ...extra };
        break;
      case 'power':
        inner = { type: 'power', actor: actor.id, power: power || def.powers[0]?.name || '', target: targetId, ...extra };
        break;
      case 'interact':
        inner = asSubsequent
          ? { type: 'interact', actor: actor.id, target: targetId, skill: skill || skills[0] || 'Persuasion', subsequent: true }
          : { type: 'interact', actor: actor.id, target: targetId, skill: skill || skills[0] || 'Persuasion', ...extra };
        break;
      case 'stabilize':
        inner = { type: 'stabilize', actor: actor.id, target: targetId };
        break;
      case 'recover':
        inner = { type: 'recover', actor: actor.id, ...(targetId && targetId !== actor.id ? { target: targetId } : {}) };
        break;
      case 'move':
        inner = { type: 'move', actor: actor.id, ...(purpose.trim() ? { description: purpose.trim() } : {}), ...('to' in moveTo && moveTo.to !== undefined ? { to: moveTo.to } : {}) };
        break;
      case 'spend-criticals':
        inner = { type: 'spend-criticals', actor: actor.id, count, purpose: purpose.trim() || 'a feat agreed at the table' };
        break;
    }
    return inner;
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (destinationProblem) return;
    const inner = declared();
    setBusy(true);
    // The dice typed in are the acting character's own roll: its pool "actor".
    const rolls = dice && kind !== 'move' && kind !== 'stabilize' && kind !== 'spend-criticals' && !asSubsequent;
    await props.run(inner, props.gm && hidden, undefined, rolls ? { [ACTOR_POOL]: dice } : undefined);
    setBusy(false);
    setGiven('');
    setSpendBonus(0);
    setSteer(false);
    setHelpers([]);
    if (kind === 'move') setDestination(EMPTY_DESTINATION);
  };
  const needsTarget = kind !== 'move' && kind !== 'spend-criticals';
  const rollsChallenge = (kind === 'attack' || kind === 'power' || (kind === 'interact' && !asSubsequent)) && targetId !== '';
  const bank = bankTotal(props.view.scene?.banks[actor.id]);
  const helpersOffered = others.filter((c) => c.id !== targetId && c.play?.present !== false && c.play?.conscious !== false && (props.gm || props.mine(c.id)));
  const chances = rollsChallenge ? actionOdds(props.view, declared(), kind === 'power' ? [] : skills, (id) => nameOf(props.view, id)) : null;
  const oddsBySkill = chances?.bySkill ?? new Map<string, number>();
  // A follow-up challenge and an obstacle's challenges are made out of turn, spending no action (the engine checks it).
  const outOfTurn = actsOutOfTurn(follow, { id: actor.id, obstacle: def.obstacle !== undefined }, kind, targetId);
  // In a violent encounter a character acts on its own turn (the engine would refuse it otherwise).
  const waiting = !outOfTurn && props.current !== null && props.current !== actor.id && kind !== 'spend-criticals';
  const currentName = props.present.find((c) => c.id === props.current)?.name ?? 'another character';
  const used = outOfTurn ? null : usedUp(kind, actor.name, props.turn?.actor === actor.id ? props.turn : null);
  return (
    <form class="card stack" onSubmit={submit} aria-labelledby="act-h" noValidate>
      <h3 id="act-h">Act</h3>
      <div class="row">
        <ChoiceField id="act-actor" class="grow" label="Character" value={actor.id} choices={actors} onChange={setActorId} />
        <div class="field grow">
          <label for="act-kind">Action</label>
          <select id="act-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as ActionKind)}>
            <option value="attack">Attack</option>
            {def.powers.length > 0 && <option value="power">Use a power</option>}
            <option value="interact">Interaction challenge</option>
            <option value="stabilize">Stabilize someone Dying</option>
            <option value="recover">Recovery challenge</option>
            <option value="move">Move</option>
            <option value="spend-criticals">Spend criticals</option>
          </select>
        </div>
        {needsTarget && (
          <div class="field grow">
            <label for="act-target">{kind === 'recover' ? 'Who recovers' : 'Target'}</label>
            <select id="act-target" value={kind === 'recover' && !target ? actor.id : targetId} onChange={(e) => setTarget(e.currentTarget.value)}>
              {kind === 'recover' && <option value={actor.id}>{actor.name} (self)</option>}
              {others.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {(kind === 'attack' || kind === 'interact' || kind === 'power') && (
        <div class="row">
          {kind === 'attack' && (
            <div class="field grow">
              <label for="act-weapon">Weapon</label>
              <select id="act-weapon" value={weapon} onChange={(e) => setWeapon(e.currentTarget.value)}>
                {weapons.map((w) => (
                  <option key={w} value={w}>
                    {w === '' ? 'The skill’s own weapon' : w}
                  </option>
                ))}
              </select>
            </div>
          )}
          {kind === 'power' && (
            <div class="field grow">
              <label for="act-power">Power</label>
              <select id="act-power" value={power} onChange={(e) => setPower(e.currentTarget.value)}>
                {def.powers.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {kind !== 'power' && (
            <div class="field grow">
              <label for="act-skill">Skill</label>
              <select id="act-skill" value={skill} onChange={(e) => setSkill(e.currentTarget.value)}>
                <option value="">{kind === 'attack' ? 'The weapon’s skill' : 'Choose…'}</option>
                {skills.map((s) => (
                  <option key={s} value={s}>
                    {s}
                    {oddsBySkill.has(s) ? ` (${percent(oddsBySkill.get(s)!)})` : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          {def.specialAbilities.filter((a) => !a.quality).length > 0 && (
            <div class="field grow">
              <label for="act-ability">Special ability</label>
              <select id="act-ability" value={ability} onChange={(e) => setAbility(e.currentTarget.value)}>
                <option value="">None</option>
                {def.specialAbilities
                  .filter((a) => !a.quality)
                  .map((a) => (
                    <option key={a.name} value={a.name}>
                      {a.name}
                    </option>
                  ))}
              </select>
            </div>
          )}
          <div class="field">
            <label for="act-mod">Modifier</label>
            <input id="act-mod" type="number" min={-20} max={20} value={mod} onInput={(e) => setMod(Math.trunc(e.currentTarget.valueAsNumber || 0))} />
          </div>
          <div class="field grow">
            <label for="act-mod-why">Because</label>
            <input id="act-mod-why" type="text" maxLength={100} value={modWhy} placeholder="flanking" onInput={(e) => setModWhy(e.currentTarget.value)} />
          </div>
        </div>
      )}
      {rollsChallenge && (
        <div class="row">
          {bank > 0 && (
            <NumberField id="act-spend" label="Criticals spent before rolling (+1 each)" value={spendBonus} min={0} max={bank} hint={`${actor.name} has ${plural(bank, 'critical', 'criticals')} banked.`} onChange={(v) => setSpendBonus(Math.max(0, Math.min(bank, Math.trunc(v))))} />
          )}
          {bank > spendBonus && <Check id="act-steer" label="Keep a critical to steer a failure to a glancing success after the dice (spent only if needed)" checked={steer} onChange={setSteer} />}
          {helpersOffered.length > 0 && (
            <fieldset>
              <legend>Assisted by</legend>
              {helpersOffered.map((c) => (
                <Check key={c.id} id={`act-help-${c.id}`} label={c.name} checked={helpers.includes(c.id)} onChange={(on) => setHelpers(on ? [...helpers, c.id] : helpers.filter((h) => h !== c.id))} />
              ))}
            </fieldset>
          )}
        </div>
      )}
      {rollsChallenge && chances && <ChoiceOddsPanel chances={chances} />}
      {kind === 'spend-criticals' && (
        <div class="field">
          <label for="act-count">Criticals</label>
          <input id="act-count" type="number" min={1} max={20} value={count} onInput={(e) => setCount(Math.max(1, Math.trunc(e.currentTarget.valueAsNumber || 1)))} />
        </div>
      )}
      {kind === 'move' && distance === 'relative' && (
        <div class="field">
          <label for="act-to">Destination (optional)</label>
          <input
            id="act-to"
            type="text"
            maxLength={60}
            list="act-to-terms"
            value={destination.term}
            placeholder="close, adjacent, very near, pretty far"
            aria-describedby="act-to-hint"
            onInput={(e) => setDestination({ ...destination, term: e.currentTarget.value })}
          />
          <datalist id="act-to-terms">
            {RELATIVE_TERMS.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          <span id="act-to-hint" class="small muted">
            A relative term, or any word the group uses; it becomes the character's position.
          </span>
        </div>
      )}
      {kind === 'move' && distance === 'grid' && (
        <fieldset class="row">
          <legend>Destination square (optional)</legend>
          {(['x', 'y'] as const).map((axis) => (
            <div class="field" key={axis}>
              <label for={`act-to-${axis}`}>{axis}</label>
              <input
                id={`act-to-${axis}`}
                type="number"
                step={1}
                min={-10000}
                max={10000}
                value={destination[axis]}
                aria-invalid={destinationProblem ? true : undefined}
                aria-describedby={destinationProblem ? 'act-to-problem' : undefined}
                onInput={(e) => setDestination({ ...destination, [axis]: e.currentTarget.value })}
              />
            </div>
          ))}
        </fieldset>
      )}
      {destinationProblem && (
        <p id="act-to-problem" class="notice bad">
          {destinationProblem}
        </p>
      )}
      {kind === 'interact' && offersSubsequent && (
        <div class="field">
          <label class="check">
            <input type="checkbox" checked={subsequent} aria-describedby="act-subsequent-hint" onChange={(e) => setSubsequent(e.currentTarget.checked)} />
            As a subsequent challenge of the last one
          </label>
          <span id="act-subsequent-hint" class="small muted">
            Rolls nothing: both sides compare the next-highest dice of the last interaction against the same target, with the same skill. Modifiers, abilities and entered dice are not used.
          </span>
        </div>
      )}
      {kind !== 'stabilize' && (
        <div class="field">
          <label for="act-purpose">{kind === 'move' ? 'Description (optional)' : kind === 'spend-criticals' ? 'On what' : 'What for (optional)'}</label>
          <input id="act-purpose" type="text" maxLength={200} value={purpose} onInput={(e) => setPurpose(e.currentTarget.value)} />
        </div>
      )}
      {(props.physicalDice || props.gm) && (kind === 'attack' || kind === 'interact' || kind === 'power' || kind === 'recover') && (
        <div class="field">
          <label for="act-given">Physical dice for {actor.name} (optional)</label>
          <input id="act-given" type="text" inputMode="numeric" value={given} placeholder="e.g. 9 6 3" onInput={(e) => setGiven(e.currentTarget.value)} />
        </div>
      )}
      {waiting && (
        <p id="act-waiting" class="notice info">
          It is {currentName}'s turn. {actor.name} acts when its turn comes in the action order.
        </p>
      )}
      {!waiting && used && (
        <p id="act-used" class="notice info">
          {used}
        </p>
      )}
      <div class="row">
        {props.gm && (
          <label class="check">
            <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.currentTarget.checked)} />
            Hidden (only the GM sees it)
          </label>
        )}
        <button
          class="primary"
          type="submit"
          disabled={busy || waiting || used !== null || destinationProblem !== null || (needsTarget && !targetId && kind !== 'recover')}
          aria-describedby={waiting ? 'act-waiting' : used ? 'act-used' : undefined}
        >
          {busy ? 'Rolling…' : kind === 'attack' ? `Attack ${nameOfList(others, targetId)}` : 'Do it'}
        </button>
      </div>
    </form>
  );
}

/**
 * Why the acting character cannot take this action now, or null. personae-core-2011.txt "The Action
 * Order, and Actions": on its turn a character makes a move and one action, and the action may be a
 * second move; spending criticals takes no action.
 */
export function usedUp(kind: ActionKind, name: string, turn: { moves: number; actionUsed: boolean } | null): string | null {
  if (!turn || !turn.actionUsed || kind === 'spend-criticals') return null;
  if (turn.moves >= 1) return `${name} has moved and used this turn's action: nothing is left but to end the turn.`;
  return kind === 'move' ? null : `${name} has already used this turn's action; a move is still possible, then end the turn.`;
}

function nameOfList(list: CharacterView[], id: string): string {
  return list.find((c) => c.id === id)?.name ?? '';
}

/** One chance per choice, as "without X: 40%" or "with Y: 55%". */
function ChoiceList(props: { id: string; choices: readonly ChoiceOdds[] }) {
  if (props.choices.length === 0) return null;
  return (
    <ul class="small" id={props.id}>
      {props.choices.map((w) => (
        <li key={w.label}>
          {w.label}: {w.odds.ok ? percent(w.odds.odds.success) : w.odds.reason}
        </li>
      ))}
    </ul>
  );
}

/** The chance of the declared action, without each choice in it and with each the player could add, as the rules library works them out. */
function ChoiceOddsPanel(props: { chances: ActionOdds }) {
  const { declared } = props.chances;
  return (
    <section id="act-odds" class="notice info" aria-live="polite" aria-label="Odds of this action">
      {declared.ok ? (
        <>
          <p>
            <strong>{declared.automatic ? 'Succeeds without a roll' : `${percent(declared.odds.success)} to succeed`}</strong>
            {!declared.automatic && <span class="muted small"> ({declared.odds.method === 'exact' ? 'exact' : 'simulated'}: {percent(declared.odds.clearSuccess)} clear, {percent(declared.odds.glancingSuccess)} glancing{declared.odds.fullTie > 0 ? `, ${percent(declared.odds.fullTie)} full tie` : ''})</span>}
          </p>
          <ChoiceList id="act-odds-without" choices={props.chances.without} />
          <ChoiceList id="act-odds-with" choices={props.chances.with} />
        </>
      ) : (
        <p class="small">No odds for this action yet: {declared.reason}.</p>
      )}
    </section>
  );
}
