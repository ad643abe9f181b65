import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { percent, plural, signed } from '../lib/format';
import {
  emptyRoller,
  emptySide,
  resolveSide,
  rollCommand,
  rollerOdds,
  parseGiven,
  skillsOf,
  type OddsPoint,
  type ResolvedSide,
  type RollerCharacter,
  type RollerInput,
  type SideInput,
} from '../lib/roller';
import { ATTRIBUTES, ATTRIBUTE_LABELS, DIFFICULTIES, describeEffect, difficultyLabel, unopposedGmDice, type ChallengeResult, type TableOptions } from '../lib/rules';
import { ChallengeView } from './Dice';

export type RollCommand = ReturnType<typeof rollCommand>;

export interface RollerProps {
  idPrefix: string;
  options: TableOptions;
  /** Every character the roller may name as a reactor or assistant. */
  characters: readonly RollerCharacter[];
  /** Ids of the characters this person may roll for. */
  mine: readonly string[];
  /** Whether entered physical dice are accepted. */
  physicalDice: boolean;
  gm: boolean;
  /** Rolls the command; resolves with the result to show, or throws with a message. */
  onRoll: (command: RollCommand, sides: { actor: ResolvedSide; reactor: ResolvedSide | null }) => Promise<ChallengeResult | null>;
  /** A result to show (the latest roll of this person). */
  result?: ChallengeResult | null;
  /** The declared challenge, when the page keeps it (the calculator keeps it in its link). */
  input?: RollerInput;
  onInput?: (update: (x: RollerInput) => RollerInput) => void;
}

function sideSummary(r: ResolvedSide): string {
  const dice = r.diceParts.map((d, i) => (i === 0 ? `${d.value} ${d.source}` : `${d.value >= 0 ? '+' : '−'}${Math.abs(d.value)} ${d.source}`)).join(' ');
  const mods = r.modifiers.length ? r.modifiers.map((m) => `${signed(m.value)} ${m.source}`).join(', ') : '+0';
  return `${plural(r.dice, 'die', 'dice')} (${dice}); adds ${signed(r.modifier)} (${mods})`;
}

export function Roller(props: RollerProps) {
  const [own, setOwn] = useState<RollerInput>(() => {
    const r = emptyRoller();
    const first = props.mine[0];
    if (first) r.actor = pickCharacter(r.actor, first, props.characters, props.options);
    return r;
  });
  const input = props.input ?? own;
  const setInput = props.onInput ?? setOwn;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<ChallengeResult | null>(null);
  /** Counts this person's rolls, so each new result is brought into view once. */
  const [rolls, setRolls] = useState(0);
  const resultRef = useRef<HTMLElement>(null);
  const p = props.idPrefix;
  useEffect(() => {
    const el = resultRef.current;
    if (!rolls || !el) return;
    // The result comes into view where the person is looking (on a phone it is below the fold).
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
    el.focus({ preventScroll: true });
  }, [rolls]);
  const { options } = props;

  const actor = useMemo(() => resolveSide(input.actor, props.characters, options, 'actor'), [input.actor, props.characters, options]);
  const reactor = useMemo(() => (input.mode === 'opposed' ? resolveSide(input.reactor, props.characters, options, 'reactor') : null), [input.mode, input.reactor, props.characters, options]);
  const odds = useMemo(() => {
    try {
      return rollerOdds(actor, reactor, input.difficulty, options);
    } catch {
      return null;
    }
  }, [actor, reactor, input.difficulty, options]);
  const gmDice = unopposedGmDice(actor.dice);
  const gmGiven = input.mode === 'unopposed' ? parseGiven(input.gmGiven, gmDice) : { dice: null, problem: null };
  const givenProblems = [actor.givenProblem, reactor?.givenProblem, gmGiven.problem].filter(Boolean) as string[];
  const canRoll = props.mine.length > 0 || props.gm || input.actor.character === '';
  const actorAllowed = input.actor.character === '' || props.gm || props.mine.includes(input.actor.character);

  const roll = async (e: Event) => {
    e.preventDefault();
    if (givenProblems.length) {
      setError(givenProblems.join(' '));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await props.onRoll(rollCommand({ ...input, hidden: props.gm && input.hidden }, actor, reactor, gmGiven.dice), { actor, reactor });
      setShown(result);
      if (result) setRolls((n) => n + 1);
      setInput((x) => ({ ...x, actor: { ...x.actor, given: '' }, reactor: { ...x.reactor, given: '' }, gmGiven: '' }));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The roll failed.');
    } finally {
      setBusy(false);
    }
  };

  const result = shown ?? props.result ?? null;
  const actorChoices = props.characters.filter((c) => props.gm || props.mine.includes(c.id));

  return (
    <form onSubmit={roll} class="stack" aria-labelledby={`${p}-h`} noValidate>
      <h2 id={`${p}-h`}>Challenge roller</h2>
      <div class="sides">
        <SideFields
          prefix={`${p}-actor`}
          legend="Actor (issues the challenge)"
          side={input.actor}
          resolved={actor}
          characters={actorChoices}
          others={props.characters.filter((c) => c.id !== input.actor.character)}
          allowFree
          assistants
          physicalDice={props.physicalDice}
          options={options}
          onChange={(s) => setInput((x) => ({ ...x, actor: s }))}
          allCharacters={props.characters}
        />
        <fieldset>
          <legend>Answered by</legend>
          <div class="row" role="radiogroup" aria-label="Kind of challenge">
            <label class="check">
              <input type="radio" name={`${p}-mode`} checked={input.mode === 'opposed'} onChange={() => setInput((x) => ({ ...x, mode: 'opposed' }))} />
              A reactor (opposed)
            </label>
            <label class="check">
              <input type="radio" name={`${p}-mode`} checked={input.mode === 'unopposed'} onChange={() => setInput((x) => ({ ...x, mode: 'unopposed' }))} />
              A difficulty (unopposed)
            </label>
          </div>
          {input.mode === 'opposed' ? (
            <SideFields
              prefix={`${p}-reactor`}
              legend="Reactor (answers)"
              side={input.reactor}
              resolved={reactor!}
              characters={props.characters}
              others={[]}
              allowFree
              physicalDice={props.physicalDice && props.gm}
              options={options}
              onChange={(s) => setInput((x) => ({ ...x, reactor: s }))}
              allCharacters={props.characters}
              nested
            />
          ) : (
            <div class="stack">
              <div class="field">
                <label for={`${p}-difficulty`}>Difficulty</label>
                <select
                  id={`${p}-difficulty`}
                  value={String(input.difficulty)}
                  aria-describedby={`${p}-difficulty-hint`}
                  onChange={(e) => setInput((x) => ({ ...x, difficulty: Number(e.currentTarget.value) }))}
                >
                  {DIFFICULTIES.map((d) => (
                    <option key={d.name} value={String(d.value)}>
                      {d.label} (+{d.value})
                    </option>
                  ))}
                </select>
                <span id={`${p}-difficulty-hint`} class="hint">
                  The GM rolls {plural(gmDice, 'die', 'dice')} (one fewer than the actor's {actor.dice}, at least one) and adds {input.difficulty}.
                </span>
              </div>
              {props.physicalDice && props.gm && (
                <div class="field">
                  <label for={`${p}-gm-given`}>GM's physical dice (optional)</label>
                  <input
                    id={`${p}-gm-given`}
                    type="text"
                    inputMode="numeric"
                    value={input.gmGiven}
                    placeholder={`${gmDice} results, e.g. 7 4`}
                    aria-invalid={gmGiven.problem ? 'true' : undefined}
                    onInput={(e) => setInput((x) => ({ ...x, gmGiven: e.currentTarget.value }))}
                  />
                  {gmGiven.problem && <span class="error-text">{gmGiven.problem}</span>}
                </div>
              )}
            </div>
          )}
        </fieldset>
      </div>

      <div class="field">
        <label for={`${p}-purpose`}>What is at stake (optional)</label>
        <input id={`${p}-purpose`} type="text" maxLength={300} value={input.purpose} placeholder="Climb the tower wall" onInput={(e) => setInput((x) => ({ ...x, purpose: e.currentTarget.value }))} />
      </div>

      <OddsPanel odds={odds} actor={actor} reactor={reactor} difficulty={input.difficulty} options={options} prefix={p} />

      <div class="row roll-bar">
        {props.gm && (
          <label class="check">
            <input type="checkbox" checked={input.hidden} onChange={(e) => setInput((x) => ({ ...x, hidden: e.currentTarget.checked }))} />
            Hidden roll (only the GM sees it)
          </label>
        )}
        <button type="submit" class="primary big" disabled={busy || !canRoll || !actorAllowed}>
          {busy ? 'Rolling…' : `Roll${odds ? ` (${percent(odds.odds.success)} to succeed)` : ''}`}
        </button>
      </div>
      {!actorAllowed && <p class="error-text">You can only roll for your own characters.</p>}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      {result && (
        <section aria-label="Latest roll" class="latest-roll" tabIndex={-1} ref={resultRef}>
          <ChallengeView key={rolls} result={result} graded={options.grades === 'srd-v4'} fresh={shown !== null} />
        </section>
      )}
    </form>
  );
}

function pickCharacter(side: SideInput, id: string, characters: readonly RollerCharacter[], options: TableOptions): SideInput {
  const c = characters.find((x) => x.id === id);
  if (!c) return { ...side, character: '' };
  const first = skillsOf(c.sheet, options)[0];
  return { ...side, character: id, skill: first?.name ?? '', attribute: first?.attribute ?? side.attribute, ability: '' };
}

function SideFields(props: {
  prefix: string;
  legend: string;
  side: SideInput;
  resolved: ResolvedSide;
  characters: readonly RollerCharacter[];
  others: readonly RollerCharacter[];
  allCharacters: readonly RollerCharacter[];
  allowFree: boolean;
  assistants?: boolean;
  physicalDice: boolean;
  options: TableOptions;
  onChange: (s: SideInput) => void;
  nested?: boolean;
}) {
  const { side, prefix: p } = props;
  const set = (patch: Partial<SideInput>) => props.onChange({ ...side, ...patch });
  const c = props.allCharacters.find((x) => x.id === side.character);
  const skills = skillsOf(c?.sheet ?? null, props.options);
  const abilities = c?.sheet?.specialAbilities ?? [];
  const Wrapper = props.nested ? 'div' : 'fieldset';
  const extraAssistants = side.assistants.filter((a) => !props.others.some((o) => o.name === a));
  return (
    <Wrapper class={props.nested ? 'stack' : undefined}>
      {props.nested ? <h3 class="small">{props.legend}</h3> : <legend>{props.legend}</legend>}
      <div class="stack">
        <div class="field">
          <label for={`${p}-who`}>Who</label>
          <select id={`${p}-who`} value={side.character} onChange={(e) => props.onChange(pickCharacter(side, e.currentTarget.value, props.allCharacters, props.options))}>
            {props.allowFree && <option value="">A pool typed in</option>}
            {props.characters.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
                {x.penalty ? ` (${x.penalty.status}, −${x.penalty.dice})` : ''}
              </option>
            ))}
          </select>
        </div>
        {c ? (
          c.sheet ? (
            <div class="row">
              <div class="field grow">
                <label for={`${p}-skill`}>Skill</label>
                <select
                  id={`${p}-skill`}
                  value={side.skill}
                  onChange={(e) => {
                    const k = skills.find((s) => s.name === e.currentTarget.value);
                    set({ skill: e.currentTarget.value, ...(k ? { attribute: k.attribute } : {}) });
                  }}
                >
                  {skills.map((k) => (
                    <option key={k.name} value={k.name}>
                      {k.name} ({k.dice} dice)
                    </option>
                  ))}
                  <option value="">Unskilled (1 die)</option>
                </select>
              </div>
              <div class="field grow">
                <label for={`${p}-attr`}>Attribute</label>
                <select id={`${p}-attr`} value={side.attribute} onChange={(e) => set({ attribute: e.currentTarget.value as SideInput['attribute'] })}>
                  {ATTRIBUTES.map((a) => (
                    <option key={a} value={a}>
                      {ATTRIBUTE_LABELS[a]} (+{c.sheet!.attributes[a]})
                    </option>
                  ))}
                </select>
              </div>
              {abilities.length > 0 && (
                <div class="field grow">
                  <label for={`${p}-ability`}>Special ability</label>
                  <select id={`${p}-ability`} value={side.ability} onChange={(e) => set({ ability: e.currentTarget.value })}>
                    <option value="">None</option>
                    {abilities.map((a) => (
                      <option key={a.name} value={a.name}>
                        {a.name}: {describeEffect(a.effect)}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </div>
          ) : (
            <PoolFields prefix={p} side={side} set={set} named={false} />
          )
        ) : (
          <PoolFields prefix={p} side={side} set={set} named />
        )}

        <div>
          <span class="small" style={{ fontWeight: 600 }} id={`${p}-mods-h`}>
            Circumstances
          </span>
          {side.modifiers.map((m, i) => (
            <div class="modifier-row" key={i} role="group" aria-label={`Modifier ${i + 1}`}>
              <div class="field">
                <label for={`${p}-mod-${i}-v`}>Value</label>
                <input
                  id={`${p}-mod-${i}-v`}
                  type="number"
                  inputMode="numeric"
                  min={-20}
                  max={20}
                  value={m.value}
                  onInput={(e) => {
                    const v = e.currentTarget.valueAsNumber;
                    if (Number.isFinite(v)) set({ modifiers: side.modifiers.map((x, j) => (j === i ? { ...x, value: Math.trunc(v) } : x)) });
                  }}
                />
              </div>
              <div class="field">
                <label for={`${p}-mod-${i}-s`}>Because</label>
                <input
                  id={`${p}-mod-${i}-s`}
                  type="text"
                  maxLength={100}
                  value={m.source}
                  placeholder="high ground"
                  onInput={(e) => set({ modifiers: side.modifiers.map((x, j) => (j === i ? { ...x, source: e.currentTarget.value } : x)) })}
                />
              </div>
              <button type="button" class="quiet danger" aria-label={`Remove modifier ${m.source || i + 1}`} onClick={() => set({ modifiers: side.modifiers.filter((_, j) => j !== i) })}>
                Remove
              </button>
            </div>
          ))}
          <p style={{ marginTop: '6px' }}>
            <button
              type="button"
              id={`${p}-add-mod`}
              onClick={() => {
                set({ modifiers: [...side.modifiers, { value: 1, source: '' }] });
                requestAnimationFrame(() => document.getElementById(`${p}-mod-${side.modifiers.length}-v`)?.focus());
              }}
            >
              + Add a modifier
            </button>
          </p>
        </div>

        {props.assistants && (
          <div>
            <span class="small" style={{ fontWeight: 600 }}>
              Assistants{' '}
              <span class="muted">
                ({props.options.assist === 'core-2011' ? '+1 to the result each' : props.options.assist === 'web' ? '+1 die each' : 'each steers one grade'})
              </span>
            </span>
            <div class="row">
              {props.others.map((o) => (
                <label class="check" key={o.id}>
                  <input
                    type="checkbox"
                    checked={side.assistants.includes(o.name)}
                    onChange={(e) => set({ assistants: e.currentTarget.checked ? [...side.assistants, o.name] : side.assistants.filter((a) => a !== o.name) })}
                  />
                  {o.name}
                </label>
              ))}
              <div class="field">
                <label for={`${p}-assist-n`}>Others helping</label>
                <input
                  id={`${p}-assist-n`}
                  type="number"
                  min={0}
                  max={10}
                  value={extraAssistants.length}
                  onInput={(e) => {
                    const n = Math.max(0, Math.min(10, Math.trunc(e.currentTarget.valueAsNumber || 0)));
                    const named = side.assistants.filter((a) => props.others.some((o) => o.name === a));
                    set({ assistants: [...named, ...Array.from({ length: n }, (_, i) => `helper ${i + 1}`)] });
                  }}
                />
              </div>
            </div>
          </div>
        )}

        {props.physicalDice && (
          <div class="field">
            <label for={`${p}-given`}>Physical dice (optional)</label>
            <input
              id={`${p}-given`}
              type="text"
              inputMode="numeric"
              value={side.given}
              placeholder={`${props.resolved.dice} results, e.g. 9 6 3`}
              aria-invalid={props.resolved.givenProblem ? 'true' : undefined}
              aria-describedby={`${p}-given-hint`}
              onInput={(e) => set({ given: e.currentTarget.value })}
            />
            <span id={`${p}-given-hint`} class={props.resolved.givenProblem ? 'error-text' : 'hint'}>
              {props.resolved.givenProblem ?? 'Leave empty to let the table roll.'}
            </span>
          </div>
        )}
        <p class="breakdown" aria-live="polite">
          {props.resolved.name}: {sideSummary(props.resolved)}
        </p>
        {props.resolved.notes.map((n, i) => (
          <p key={i} class="small notice warn">
            {n}
          </p>
        ))}
      </div>
    </Wrapper>
  );
}

function PoolFields(props: { prefix: string; side: SideInput; set: (patch: Partial<SideInput>) => void; named: boolean }) {
  const { prefix: p, side, set } = props;
  return (
    <div class="row">
      {props.named && (
        <div class="field grow">
          <label for={`${p}-name`}>Name</label>
          <input id={`${p}-name`} type="text" maxLength={80} value={side.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </div>
      )}
      <div class="field">
        <label for={`${p}-dice`}>Dice</label>
        <input
          id={`${p}-dice`}
          type="number"
          inputMode="numeric"
          min={0}
          max={30}
          value={side.dice}
          onInput={(e) => Number.isFinite(e.currentTarget.valueAsNumber) && set({ dice: Math.max(0, Math.min(30, Math.trunc(e.currentTarget.valueAsNumber))) })}
        />
      </div>
      <div class="field">
        <label for={`${p}-bonus`}>Attribute</label>
        <input
          id={`${p}-bonus`}
          type="number"
          inputMode="numeric"
          min={-30}
          max={30}
          value={side.bonus}
          onInput={(e) => Number.isFinite(e.currentTarget.valueAsNumber) && set({ bonus: Math.trunc(e.currentTarget.valueAsNumber) })}
        />
      </div>
    </div>
  );
}

function OddsPanel(props: { odds: ReturnType<typeof rollerOdds> | null; actor: ResolvedSide; reactor: ResolvedSide | null; difficulty: number; options: TableOptions; prefix: string }) {
  const o = props.odds;
  if (!o) return <p class="notice warn">The odds cannot be worked out for these pools.</p>;
  const crit = 1 - (o.odds.criticals[0] ?? 1);
  const grades = props.options.grades === 'srd-v4';
  const against = props.reactor ? `${props.reactor.name}'s ${plural(props.reactor.dice, 'die', 'dice')} ${signed(props.reactor.modifier)}` : `${difficultyLabel(props.difficulty)}`;
  return (
    <section class="card" aria-labelledby={`${props.prefix}-odds-h`} style={{ background: '#fbfaf6' }}>
      <h3 id={`${props.prefix}-odds-h`}>
        Odds before rolling <span class="muted small">({o.odds.method === 'exact' ? 'exact' : `simulated, ${o.odds.samples} rolls`})</span>
      </h3>
      <p class="small muted">
        {props.actor.name}'s {plural(props.actor.dice, 'die', 'dice')} {signed(props.actor.modifier)} against {against}
      </p>
      <div class="odds" aria-live="polite">
        <div class="stat">
          Success<strong>{percent(o.odds.success)}</strong>
        </div>
        <div class="stat">
          {grades ? 'Clear' : 'On the highest dice'}
          <strong>{percent(o.odds.clearSuccess)}</strong>
        </div>
        <div class="stat">
          {grades ? 'Glancing' : 'By tie-break'}
          <strong>{percent(o.odds.glancingSuccess)}</strong>
        </div>
        <div class="stat">
          {o.odds.fullTie > 0 ? 'Full tie' : 'Failure'}
          <strong>{percent(o.odds.fullTie > 0 ? o.odds.fullTie : o.odds.failure)}</strong>
        </div>
        <div class="stat">
          A critical<strong>{percent(crit)}</strong>
        </div>
      </div>
      {o.odds.fullTie > 0 && <p class="small">Failure {percent(o.odds.failure)}.</p>}
      <SweepChart actor={o.actorSweep} reactor={o.reactorSweep} actorName={props.actor.name} reactorName={props.reactor?.name ?? null} />
      {o.odds.note && <p class="small muted">{o.odds.note}</p>}
    </section>
  );
}

/** Bars: the chance of success with one die fewer, as declared and one die more, for each side. */
function SweepChart(props: { actor: OddsPoint[]; reactor: OddsPoint[]; actorName: string; reactorName: string | null }) {
  const groups: { title: string; points: OddsPoint[] }[] = [{ title: `${props.actorName}'s dice`, points: props.actor }];
  if (props.reactorName && props.reactor.length) groups.push({ title: `${props.reactorName}'s dice`, points: props.reactor });
  const barW = 44;
  const gap = 10;
  const groupW = 3 * barW + 2 * gap;
  const groupGap = 36;
  const h = 120;
  const top = 18;
  const width = groups.length * groupW + (groups.length - 1) * groupGap + 8;
  const height = top + h + 40;
  const label = groups.map((g) => `${g.title}: ${g.points.map((pt) => `${pt.dice} dice ${percent(pt.success)}`).join(', ')}`).join('; ');
  return (
    <figure style={{ margin: 0 }}>
      <svg class="chart" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Chance of success: ${label}`}>
        {groups.map((g, gi) => {
          const x0 = 4 + gi * (groupW + groupGap);
          return (
            <g key={g.title}>
              <line x1={x0 - 2} x2={x0 + groupW + 2} y1={top + h} y2={top + h} stroke="#6d6658" />
              {g.points.map((pt, i) => {
                const slot = pt.label === 'one die fewer' ? 0 : pt.label === 'as declared' ? 1 : 2;
                const x = x0 + slot * (barW + gap);
                const bh = Math.max(1, pt.success * h);
                const current = pt.label === 'as declared';
                return (
                  <g key={i}>
                    <rect x={x} y={top + h - bh} width={barW} height={bh} rx={3} fill={current ? '#24427d' : '#8fa6d4'} />
                    <text x={x + barW / 2} y={top + h - bh - 4} text-anchor="middle" font-weight={current ? 700 : 400}>
                      {percent(pt.success)}
                    </text>
                    <text x={x + barW / 2} y={top + h + 15} text-anchor="middle">
                      {pt.dice}d
                    </text>
                  </g>
                );
              })}
              <text x={x0 + groupW / 2} y={top + h + 33} text-anchor="middle" font-weight={700}>
                {g.title}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption class="small muted">Chance of success with one die fewer, as declared, and one die more.</figcaption>
    </figure>
  );
}

export { emptySide };
