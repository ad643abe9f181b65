import { useMemo, useState } from 'preact/hooks';
import { cryptoDice } from '@personae/dice';
import { ATTRIBUTE_NAMES, ATTRIBUTES, describeLucidityEvent, lucidityDiceOf, lucidityRuleset, PRESETS, ROLL_PURPOSES, STANDARD_ARRAY, TRAIT_NAMES, type Attribute, type LucidityEvent, type RollPurpose } from '@personae/lucidity';
import type { SecretRollsView } from '@personae/core';
import { RulesetSecretRolls } from '../secret';
import { percent } from '../../lib/format';
import { NumberField, SelectField, TextField } from '../../ui/fields';
import type { RulesetPages, RulesetTableProps } from '../types';
import { BuilderForm, ChoiceField, ErrorLine, fieldProblems, LogList, TableSection, useAction, useDraft } from '../shared';
import { RulesetReplay } from '../replay';
import { newIdFor } from '../ids';
import { RuleSetsCompared } from '../compare';
import { attackChoiceOddsFor, attackOddsFor, canInspire, judgeLucidityLog, mayAttackWithLucidity, LUCIDITY_CHART_VIEWS, lucidityChartGroups, presetAttackOddsFor, type AttackQuery, type LucidityChartView, checkDraft, draftAttributes, draftSheet, lucidityOddsFor, newLucidityDraft, rollDraftScores, rollOddsFor, typedDicePools, viewOptions, type LucidityDraft, type TypedDice, type LucidityView, type ShownCombatant } from './model';

type Me = RulesetTableProps['me'];
const commands = (c: ShownCombatant, me: Me) => me.role === 'gm' || (me.role === 'player' && c.controller === me.participantId);

/**
 * The Lucidity builder: the standard array or rolled scores, traits and skills, a weapon, checked live
 * by the ruleset's sheet check, with the derived values (maxLucidity, maxHealth, maxEnergy, itemSlots,
 * designatedItems, defense) shown as they change.
 */
function LucidityBuilder(props: { view: LucidityView; gm: boolean; onAdd: (sheet: Record<string, unknown>, foe: boolean) => Promise<void>; onClose: () => void }) {
  const opts = useMemo(() => viewOptions(props.view), [props.view.preset, props.view.options]);
  const draft = useDraft<LucidityDraft>(newLucidityDraft);
  const [rolled, setRolled] = useState('');
  const { value: d, touched, edit } = draft;
  const check = useMemo(() => checkDraft(d, opts), [d, opts]);
  const at = (field: string) => (touched ? fieldProblems(check.problems, field) : []);
  const mods = draftAttributes(d);
  const der = check.derived;
  return (
    <BuilderForm
      prefix="lb"
      title="Build a Lucidity character"
      problems={check.problems}
      derived={der && `maxLucidity ${der.maxLucidity} · maxHealth ${der.maxHealth} · maxEnergy ${der.maxEnergy} · itemSlots ${der.itemSlots} (${der.itemSlotsUsed} used) · designatedItems ${der.designatedItems} · defense ${der.defense}`}
      draft={draft}
      onAdd={() => props.onAdd(draftSheet(d), false)}
      onClose={props.onClose}
    >
      <TextField id="lb-name" label="Name" value={d.name} onInput={(v) => edit((x) => (x.name = v))} problems={at('name')} />
      <SelectField
        id="lb-method"
        label="Attributes"
        value={d.method}
        options={[
          { value: 'standard-array', label: `Standard array (${STANDARD_ARRAY.join(', ')})` },
          { value: 'rolled', label: 'Rolled: 4d6, lowest dropped' },
        ]}
        onChange={(v) => edit((x) => (x.method = v))}
      />
      {d.method === 'rolled' && (
        <div class="row">
          <button
            type="button"
            id="lb-roll"
            class="quiet"
            onClick={() => {
              const r = rollDraftScores(cryptoDice());
              setRolled(r.shown);
              edit((x) => (x.scores = r.scores));
            }}
          >
            Roll 4d6, lowest dropped, 7 times
          </button>
          {rolled && (
            <span id="lb-rolled" class="small">
              {rolled}
            </span>
          )}
        </div>
      )}
      <div class="attr-grid">
        {ATTRIBUTES.map((a: Attribute) =>
          d.method === 'standard-array' ? (
            <SelectField
              key={a}
              id={`lb-attr-${a}`}
              label={`${ATTRIBUTE_NAMES[a]} (${a})`}
              value={String(d.arrayPick[a])}
              options={[2, 1, 0, -1].map((v) => ({ value: String(v), label: v >= 0 ? `+${v}` : String(v) }))}
              onChange={(v) => edit((x) => (x.arrayPick[a] = Number(v)))}
              problems={at(`attributes.${a}`)}
            />
          ) : (
            <NumberField key={a} id={`lb-attr-${a}`} label={`${ATTRIBUTE_NAMES[a]} (${a}) score`} value={d.scores[a]} min={3} max={18} hint={`modifier ${mods[a] >= 0 ? '+' : ''}${mods[a]}`} onChange={(v) => edit((x) => (x.scores[a] = v))} problems={[...at(`creation.scores.${a}`), ...at(`attributes.${a}`)]} />
          ),
        )}
      </div>
      <ErrorLine id="lb-attributes-err" error={touched ? fieldProblems(check.problems, 'attributes').filter((p) => p.path === 'attributes').map((p) => p.message).join(' ') || null : null} />
      <fieldset>
        <legend>
          Traits ({d.traits.length} of {opts.traitCount})
        </legend>
        <div class="row">
          {Array.from({ length: Math.max(opts.traitCount, d.traits.length) }, (_, i) => (
            <SelectField
              key={i}
              id={`lb-trait-${i}`}
              label={`Trait ${i + 1}`}
              value={d.traits[i] ?? ''}
              options={[{ value: '', label: '(choose)' }, ...TRAIT_NAMES.map((t) => ({ value: t, label: t }))]}
              onChange={(v) => edit((x) => {
                x.traits[i] = v;
                x.traits = x.traits.filter(Boolean);
              })}
              problems={at(`traits.${i}`)}
            />
          ))}
        </div>
        <ErrorLine id="lb-traits-err" error={touched ? fieldProblems(check.problems, 'traits').filter((p) => p.path === 'traits').map((p) => p.message).join(' ') || null : null} />
      </fieldset>
      <fieldset>
        <legend>Skills ({d.skills.reduce((n, s) => n + s.rank, 0)} of {opts.skillPoints} points)</legend>
        {d.skills.map((s, i) => (
          <div class="row" key={i}>
            <TextField id={`lb-skill-${i}-name`} label="Skill" value={s.name} onInput={(v) => edit((x) => (x.skills[i]!.name = v))} />
            <NumberField id={`lb-skill-${i}-rank`} label="Rank" value={s.rank} min={1} max={5} onChange={(v) => edit((x) => (x.skills[i]!.rank = v))} problems={at(`skills.${s.name}`)} />
            <button type="button" class="quiet" onClick={() => edit((x) => x.skills.splice(i, 1))}>
              Remove skill {i + 1}
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => edit((x) => x.skills.push({ name: '', rank: 1 }))}>
          + Add a skill
        </button>
        <ErrorLine id="lb-skills-err" error={touched ? fieldProblems(check.problems, 'skills').filter((p) => p.path === 'skills').map((p) => p.message).join(' ') || null : null} />
      </fieldset>
      <fieldset>
        <legend>Weapon and armor</legend>
        <div class="row">
          <TextField id="lb-weapon" label="Weapon" value={d.weapon.name} onInput={(v) => edit((x) => (x.weapon.name = v))} />
          <TextField id="lb-weapon-damage" label="Damage" value={d.weapon.damage} onInput={(v) => edit((x) => (x.weapon.damage = v))} problems={at('items.0.weapon.damage')} />
          <SelectField id="lb-weapon-attr" label="Attacks with" value={d.weapon.attribute} options={[{ value: 'STR', label: 'STR (melee)' }, { value: 'DEX', label: 'DEX (ranged)' }]} onChange={(v) => edit((x) => (x.weapon.attribute = v))} />
          <TextField id="lb-weapon-skill" label="Weapon skill" value={d.weapon.skill} onInput={(v) => edit((x) => (x.weapon.skill = v))} />
          <NumberField id="lb-armor" label="Armor Protection" value={d.armor} min={0} max={20} onChange={(v) => edit((x) => (x.armor = v))} />
        </div>
      </fieldset>
    </BuilderForm>
  );
}

function Meter(props: { label: string; value: number | undefined; max: number | undefined }) {
  if (props.value === undefined) return null;
  return (
    <span>
      {props.label} {props.value}/{props.max}
    </span>
  );
}

function CombatantCard(props: { c: ShownCombatant; current: boolean }) {
  const c = props.c;
  return (
    <li class={`char-card${props.current ? ' current' : ''}`} data-character={c.id} aria-label={c.name}>
      <div class="spread">
        <strong>{c.name}</strong>
        <span class="tag">
          {c.side}
          {c.hidden ? ', hidden' : ''}
        </span>
      </div>
      {props.current && <p class="small">Acting now</p>}
      <p class="small vitals">
        <Meter label="Health" value={c.health} max={c.maxHealth} /> · <Meter label="Lucidity" value={c.lucidity} max={c.maxLucidity} /> · <Meter label="Energy" value={c.energy} max={c.maxEnergy} />
      </p>
      {c.actions !== undefined && (
        <p class="small actions">
          Actions left {c.actions} · move action {c.moveAction ? 'available' : 'used'}
          {c.buffsOffered ? ` · ${c.buffsOffered} buff(s) offered` : ''}
          {c.breaksOffered ? ` · ${c.breaksOffered} break(s) offered` : ''}
        </p>
      )}
      {c.condition !== 'active' && <p class="small error-text">{c.condition}</p>}
    </li>
  );
}

function ActPanel(props: { view: LucidityView; me: Me; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const v = props.view;
  const opts = useMemo(() => viewOptions(v), [v.preset, v.options]);
  const cur = v.combatants.find((c) => c.id === v.current);
  const [target, setTarget] = useState('');
  const [weapon, setWeapon] = useState('');
  const [buffs, setBuffs] = useState(0);
  const [breaks, setBreaks] = useState(0);
  const [attr, setAttr] = useState<Attribute>('STR');
  const [skill, setSkill] = useState('');
  const [purpose, setPurpose] = useState<RollPurpose>('other');
  const [inspire, setInspire] = useState(false);
  const [withLucidity, setWithLucidity] = useState(false);
  const [rollTarget, setRollTarget] = useState(12);
  const [typed, setTyped] = useState<TypedDice>({ d20: '', d6: '', damage: '' });
  const [chart, setChart] = useState<LucidityChartView | ''>('');
  const act = useAction();
  if (!cur || !commands(cur, props.me)) return <p class="muted">{cur ? `${cur.name} acts; wait for your turn.` : v.started ? 'Someone unseen acts.' : 'The encounter has not started.'}</p>;
  const targets = v.combatants.filter((c) => c.id !== cur.id && c.condition !== 'dead');
  const t = targets.find((c) => c.id === target) ?? targets.find((c) => c.side !== cur.side) ?? targets[0];
  const weapons = cur.weapons ?? [];
  const w = weapons.includes(weapon) ? weapon : weapons[0];
  const lucidAttack = withLucidity && mayAttackWithLucidity(v, cur.combatant);
  const attackQuery = t ? { actor: cur.id, target: t.id, ...(w ? { weapon: w } : {}), buffs, breaks, ...(lucidAttack ? { useLucidity: true } : {}) } : null;
  const odds = attackQuery ? attackOddsFor(v, attackQuery) : null;
  const attackChoices = attackQuery && odds && !('error' in odds) ? attackChoiceOddsFor(v, attackQuery) : [];
  const whole = cur.combatant;
  const rollQuery = { actor: cur.id, attribute: attr, skill, target: rollTarget, buffs, breaks, purpose };
  const inspirable = canInspire(cur.combatant);
  const rollOdds = rollOddsFor(v, { ...rollQuery, inspire: inspirable && inspire });
  // The choice in play: the same roll with and without Inspirator, exactly.
  const otherOdds = inspirable ? rollOddsFor(v, { ...rollQuery, inspire: !inspire }) : null;
  const counts = { ...(buffs ? { buffs } : {}), ...(breaks ? { breaks } : {}) };
  // Physical dice: the GM always, a player when the table takes them (setting physicalDice).
  const typing = props.physicalDice || props.me.role === 'gm';
  const net = buffs + (cur.buffsOffered ?? 0) - breaks - (cur.breaksOffered ?? 0);
  /** Sends a roll with the dice typed in, if any; a typing mistake is shown and nothing is sent. */
  const sendRoll = (command: Record<string, unknown>, withDamage: boolean) =>
    act.run(async () => {
      const given = typing ? typedDicePools(typed, net, withDamage) : { pools: {} };
      if ('error' in given) throw new Error(given.error);
      await props.send(command, given.pools);
      setTyped({ d20: '', d6: '', damage: '' });
      setInspire(false);
    });
  return (
    <div class="stack">
      <h3>{cur.name} acts</h3>
      <div class="row">
        <NumberField id="lu-buffs" label="Buffs (d6)" value={buffs} min={0} max={20} onChange={setBuffs} hint={cur.buffsOffered ? `+${cur.buffsOffered} offered by Help` : undefined} />
        <NumberField id="lu-breaks" label="Breaks (d6)" value={breaks} min={0} max={20} onChange={setBreaks} hint={cur.breaksOffered ? `+${cur.breaksOffered} offered by Interfere` : undefined} />
      </div>
      {typing && (
        <div class="row" aria-label="Physical dice">
          <TextField id="lu-dice-d20" label="Physical d20 (optional)" value={typed.d20} placeholder="e.g. 14" onInput={(x) => setTyped({ ...typed, d20: x })} />
          <TextField id="lu-dice-d6" label={`Physical ${net < 0 ? 'break' : 'buff'} d6s (optional)`} value={typed.d6} placeholder="e.g. 5 2" onInput={(x) => setTyped({ ...typed, d6: x })} />
          <TextField id="lu-dice-damage" label="Physical damage dice (optional)" value={typed.damage} placeholder="e.g. 6" onInput={(x) => setTyped({ ...typed, damage: x })} />
        </div>
      )}
      {t && (
        <div class="row">
          <ChoiceField id="lu-target" label="Target" value={t.id} choices={targets} onChange={setTarget} />
          <ChoiceField id="lu-weapon" label="Weapon" value={w ?? ''} choices={weapons} onChange={setWeapon} />
          {mayAttackWithLucidity(v, cur.combatant) && (
            <label class="check">
              <input id="lu-attack-lucidity" type="checkbox" checked={lucidAttack} onChange={(e) => setWithLucidity(e.currentTarget.checked)} /> Attack with a Lucidity roll (in place of the d20)
            </label>
          )}
          <button type="button" disabled={act.busy} onClick={() => void sendRoll({ type: 'attack', actor: cur.id, target: t.id, ...(w ? { weapon: w } : {}), ...counts, ...(lucidAttack ? { useLucidity: true } : {}) }, true)}>
            Attack {t.name}
          </button>
        </div>
      )}
      <p id="lu-attack-odds" aria-live="polite">
        {odds === null
          ? 'Attack odds: the target\'s Defense is the GM\'s to know.'
          : 'error' in odds
            ? odds.error
            : `Attack odds: hit ${percent(odds.hit)} against Defense ${odds.defense}${odds.lucidityTarget !== undefined ? ` (a Lucidity roll at or under ${odds.lucidityTarget})` : ''} with ${odds.buffs} buff(s) and ${odds.breaks} break(s); expected damage ${odds.expectedDamage.toFixed(2)}; ${odds.damageTaken.map((r) => `${r.damage}: ${percent(r.chance)}`).join(', ')}`}
      </p>
      {attackQuery && odds && !('error' in odds) && <RuleSetsCompared id="lu-compare" views={LUCIDITY_CHART_VIEWS} chart={chart} setChart={setChart} entries={() => presetAttackOddsFor(v, attackQuery)} groups={lucidityChartGroups} empty="No rule set lets this attack do damage." />}
      {attackChoices.length > 0 && (
        <ul class="small" id="lu-attack-choices" aria-label="Attack odds with and without each choice">
          {attackChoices.map((c) => (
            <li key={c.label}>
              {c.label}: {c.odds === null ? 'not known' : 'error' in c.odds ? c.odds.error : `hit ${percent(c.odds.hit)}, expected damage ${c.odds.expectedDamage.toFixed(2)}`}
            </li>
          ))}
        </ul>
      )}
      {whole && (
        <div class="row">
          <SelectField id="lu-roll-attr" label="Roll" value={attr} options={ATTRIBUTES.map((a) => ({ value: a, label: a }))} onChange={(x) => setAttr(x)} />
          <SelectField id="lu-roll-skill" label="Skill" value={skill} options={[{ value: '', label: '(none)' }, ...Object.keys(whole.skills).map((s) => ({ value: s, label: s }))]} onChange={setSkill} />
          <NumberField id="lu-roll-target" label="Target" value={rollTarget} onChange={setRollTarget} />
          <SelectField id="lu-roll-purpose" label="About" value={purpose} options={ROLL_PURPOSES.map((p) => ({ value: p, label: p }))} onChange={setPurpose} />
          {inspirable && (
            <label class="check">
              <input id="lu-roll-inspire" type="checkbox" checked={inspire} onChange={(e) => setInspire(e.currentTarget.checked)} /> Inspirator (+CHA, once per rest)
            </label>
          )}
          <span id="lu-roll-odds" class="small">
            d20 + {attr} + rank: {rollOdds === null ? 'unknown' : percent(rollOdds)}
            {otherOdds !== null && ` (${inspire ? 'without' : 'with'} Inspirator: ${percent(otherOdds)})`} · Lucidity roll {percent(lucidityOddsFor(whole, attr, opts))}
          </span>
          <button type="button" disabled={act.busy} onClick={() => void sendRoll({ type: 'roll', actor: cur.id, attribute: attr, ...(skill ? { skill } : {}), target: rollTarget, cost: 1, purpose, ...(inspirable && inspire ? { inspire: true } : {}), ...counts }, false)}>
            Roll (1 action)
          </button>
        </div>
      )}
      <div class="row">
        <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'move', actor: cur.id }))}>
          Move
        </button>
        {t && (
          <>
            <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'help', actor: cur.id, target: t.id, kind: 'buff' }))}>
              Help {t.name} (buff)
            </button>
            <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'help', actor: cur.id, target: t.id, kind: 'break' }))}>
              Interfere with {t.name} (break)
            </button>
          </>
        )}
        <button type="button" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'end-turn' }))}>
          End the turn
        </button>
      </div>
      <ErrorLine id="lu-act-err" error={act.error} />
    </div>
  );
}

function GmPanel(props: { view: LucidityView; send: RulesetTableProps['send']; version: number; participants: RulesetTableProps['participants']; me: RulesetTableProps['me'] }) {
  const v = props.view;
  const act = useAction();
  const [actor, setActor] = useState('');
  const [target, setTarget] = useState('');
  const [kind, setKind] = useState<'minor' | 'major' | 'rescue'>('minor');
  const [success, setSuccess] = useState('yes');
  const [ruling, setRuling] = useState('');
  const [foe, setFoe] = useState('');
  const [handed, setHanded] = useState('');
  const [handTo, setHandTo] = useState('');
  const a = v.combatants.find((c) => c.id === actor) ?? v.combatants[0];
  const t = v.combatants.find((c) => c.id === target) ?? v.combatants.find((c) => c.id !== a?.id);
  return (
    <div class="stack">
      <h3>GM</h3>
      <div class="row">
        {!v.started && (
          <button type="button" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'start' }))}>
            Roll initiative and start
          </button>
        )}
        <button type="button" class="quiet" disabled={act.busy || !v.canUndo} onClick={() => void act.run(() => props.send({ type: 'undo', seen: props.version }, undefined, props.version))}>
          Undo
        </button>
      </div>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          let block: unknown;
          try {
            block = JSON.parse(foe);
          } catch {
            void act.run(async () => {
              throw new Error('statBlock: the stat block is not JSON');
            });
            return;
          }
          const name = String((block as { name?: unknown })?.name ?? 'foe');
          void act.run(() => props.send({ type: 'add', id: newIdFor(props.me, name, props.view.combatants), side: 'foe', hidden: (block as { hidden?: boolean }).hidden === true, statBlock: { ...(block as object), hidden: undefined } }));
        }}
      >
        <div class="field grow">
          <label for="lu-foe">A foe's stat block (JSON; "hidden": true keeps it from the players)</label>
          <textarea id="lu-foe" rows={2} value={foe} onInput={(e) => setFoe(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={act.busy || !foe.trim()}>
          Add the foe
        </button>
      </form>
      {a && t && (
        <form
          class="row"
          aria-label="Exploit ruling"
          onSubmit={(e) => {
            e.preventDefault();
            void act.run(async () => {
              await props.send({ type: 'exploit', actor: a.id, target: t.id, kind, success: success === 'yes', ruling });
              setRuling('');
            });
          }}
        >
          <SelectField id="lu-ex-actor" label="Exploit by" value={a.id} options={v.combatants.map((c) => ({ value: c.id, label: c.name }))} onChange={setActor} />
          <SelectField id="lu-ex-target" label="On" value={t.id} options={v.combatants.map((c) => ({ value: c.id, label: c.name }))} onChange={setTarget} />
          <SelectField id="lu-ex-kind" label="Kind" value={kind} options={[{ value: 'minor', label: 'minor' }, { value: 'major', label: 'major' }, { value: 'rescue', label: 'rescue' }]} onChange={setKind} />
          <SelectField id="lu-ex-success" label="Outcome" value={success} options={[{ value: 'yes', label: 'it happens' }, { value: 'no', label: 'it fails' }]} onChange={setSuccess} />
          <TextField id="lu-ex-ruling" label="Ruling" value={ruling} onInput={setRuling} maxLength={500} />
          <button type="submit" disabled={act.busy || !ruling.trim()}>
            Record the ruling
          </button>
        </form>
      )}
      {v.combatants.length > 0 && (
        <form
          class="row"
          aria-label="Hand a character over"
          onSubmit={(e) => {
            e.preventDefault();
            const c = handed || v.combatants[0]!.id;
            void act.run(() => props.send({ type: 'set-controller', id: c, controller: handTo === '' ? null : handTo }));
          }}
        >
          <ChoiceField id="lu-hand-who" label="Hand" value={handed || v.combatants[0]!.id} choices={v.combatants} onChange={setHanded} />
          <SelectField id="lu-hand-to" label="To" value={handTo} options={[{ value: '', label: 'the GM' }, ...props.participants.filter((p) => p.role === 'player').map((p) => ({ value: p.id, label: p.displayName }))]} onChange={setHandTo} />
          <button type="submit" disabled={act.busy}>
            Hand over
          </button>
        </form>
      )}
      <ErrorLine id="lu-gm-err" error={act.error} />
    </div>
  );
}

/** A hand-over's log line names the participant by id; the page shows the name people know. */
function withParticipantNames(text: string, participants: RulesetTableProps['participants']): string {
  return participants.reduce((t, p) => t.replace(`participant ${p.id}`, p.displayName), text);
}

/** The table page of a Lucidity table: combatants and their tracks, the builder, the turn, the log. */
export function LucidityTable(props: RulesetTableProps) {
  const v = props.view as LucidityView | null;
  const [building, setBuilding] = useState(false);
  if (!v) return <p class="muted">Joining the table…</p>;
  const gm = props.me.role === 'gm';
  const observer = props.me.role === 'observer';
  const name = (id: string) => v.combatants.find((c) => c.id === id)?.name ?? 'someone unseen';
  return (
    <div class="stack" data-ruleset="lucidity">
      <section class="card" aria-labelledby="lu-enc-h">
        <h2 id="lu-enc-h">Encounter</h2>
        <p id="lu-turn" aria-live="polite">
          {!v.started ? 'Not started: the GM rolls initiative (d20 + AWA) once the characters are in.' : `Round ${v.round} · ${v.current ? `${name(v.current)}'s turn` : 'someone unseen acts'}`}
        </p>
        {v.order.length > 0 && (
          <ol class="order" aria-label="Initiative order">
            {v.order.map((id) => (
              <li key={id} aria-current={id === v.current ? 'true' : undefined}>
                {name(id)}
              </li>
            ))}
          </ol>
        )}
        {!observer && v.started && <ActPanel view={v} me={props.me} send={props.send} physicalDice={props.settings.physicalDice} />}
        {gm && <GmPanel view={v} send={props.send} version={props.version} participants={props.participants} me={props.me} />}
      </section>
      <section class="card" aria-labelledby="lu-chars-h">
        <div class="spread">
          <h2 id="lu-chars-h">Characters</h2>
          {!observer && !building && (
            <button type="button" onClick={() => setBuilding(true)}>
              Build a character
            </button>
          )}
        </div>
        {v.combatants.length === 0 ? (
          <p class="muted">No characters yet.</p>
        ) : (
          <ul class="char-grid" id="lu-characters">
            {v.combatants.map((c) => (
              <CombatantCard key={c.id} c={c} current={c.id === v.current} />
            ))}
          </ul>
        )}
      </section>
      {building && (
        <LucidityBuilder
          view={v}
          gm={gm}
          onClose={() => setBuilding(false)}
          onAdd={(sheet) => props.send({ type: 'add', id: newIdFor(props.me, String(sheet.name), v.combatants), side: 'party', sheet })}
        />
      )}
      <LogList lines={v.log.map((l) => ({ key: l.seq, text: l.type === 'controller-set' ? withParticipantNames(l.text, props.participants) : l.text, ruling: l.type === 'exploit-ruled' }))} omitted={v.logOmitted} />
      <RulesetSecretRolls
        view={props.view as SecretRollsView<LucidityEvent>}
        gm={gm}
        participants={props.participants}
        send={(c) => props.send(c)}
        diceOf={lucidityDiceOf}
        describe={(e) => describeLucidityEvent(e, (id) => v.combatants.find((c) => c.id === id)?.name ?? id)}
        fairness={{ sides: 20, die: 'a fair d20', rolls: 'Attacks and rolls' }}
      />
      {gm && <RulesetReplay tableId={props.tableId} token={props.token} preset={v.preset} presets={PRESETS} options={lucidityRuleset.options} judge={judgeLucidityLog} />}
      <TableSection {...props} />
    </div>
  );
}

export const lucidityPages: RulesetPages = { id: 'lucidity', Table: LucidityTable };
