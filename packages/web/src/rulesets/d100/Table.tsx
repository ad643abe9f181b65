import { useState } from 'preact/hooks';
import { AILMENT_NAMES, d100DiceOf, ELEMENTS, HURRY_SKILLS, d100Ruleset, endTurnRollers, LOCATIONS, PRESET_NAMES, WITHHELD, type CharacterView, type EncounterEvent } from '@personae/d100';
import type { SecretRollsView } from '@personae/core';
import { RulesetSecretRolls } from '../secret';
import { percent } from '../../lib/format';
import type { RulesetPages, RulesetTableProps } from '../types';
import { ChoiceField, ErrorLine, LogList, TableSection, useAction } from '../shared';
import { NumberField, OptionalNumberField } from '../../ui/fields';
import { RulesetReplay } from '../replay';
import { newIdFor } from '../ids';
import { D100Builder } from './Builder';
import { RuleSetsCompared } from '../compare';
import { ailmentTitle, ammunitionNotes, attackCommand, attackRange, choiceOddsFor, conditionNotes, confusedAttackText, D100_CHART_VIEWS, d100ChartGroups, describeD100Event, draftSheet, fateBlockCommand, fateBlockField, fateCommand, fateOffers, inflictCommand, judgeD100Log, mayScatter, oddsFor, reloadChoices, reloadCommand, presetOddsFor, SCORE_KEYS, SCORE_LABEL, testCommand, testOddsFor, type D100ChartView, type D100View, type Score } from './model';
import { controls, mayType, mergedBoxes, PoolFields, poolBoxes, typedPools, usePoolText, type PoolBox } from './dice';


function Track(props: { label: string; left: number; max: number }) {
  return (
    <span class="track">
      {props.label} {props.left}/{props.max}
    </span>
  );
}

/** What is left of the acting character's Turn ("Structured Time"): its Action and Move, and a One More's extra one. */
function economyLine(t: CharacterView['turn'], own: boolean): string {
  const slot = (what: string, free: boolean, on: string | null) => (free ? `${what} left` : on ? `${what} spent on ${on}` : `no ${what}`);
  const parts = own ? [slot('Action', t.action, t.actionSpentOn), slot('Move', t.move, t.moveSpentOn)] : [];
  if (t.oneMore) parts.push('one more Move or Action (One More)');
  return `This turn: ${parts.join(' · ')}`;
}

/** One character card: wound tracks, Stress, Persona, ailments with turns left, injuries, Fate Points. */
function CharacterCard(props: { c: CharacterView; current: boolean; holder: boolean; name: (id: string) => string }) {
  const c = props.c;
  const where = c.conditions.position;
  const notes = conditionNotes(c, props.name);
  const known = c.affinitiesKnown;
  const table = Object.entries(c.fighter.persona?.affinities ?? c.fighter.affinities).map(([el, a]) => `${el} ${a}`);
  const affinities = known === 'all' ? (table.length ? table.join(', ') : 'all normal') : `${table.length ? `${table.join(', ')}; ` : ''}${known.length ? 'the rest' : 'not'} known (Analyse Target reveals them)`;
  const stowed = c.fighter.stowed ?? c.sheet?.stowed ?? [];
  const kit = c.sheet?.consumables.map((k) => `${k.name} ×${c.fighter.consumables?.[k.name] ?? k.count}`) ?? [];
  const ammunition = ammunitionNotes(c);
  return (
    <li class={`char-card${props.current ? ' current' : ''}`} data-character={c.id} aria-label={c.name}>
      <div class="spread">
        <strong>{c.name}</strong>
        <span class="tag">{c.side}</span>
      </div>
      {props.current && <p class="small">Acting now</p>}
      {props.holder && <p class="small">Holds a One More</p>}
      {(props.current || c.turn.oneMore) && <p class="small economy">{economyLine(c.turn, props.current)}</p>}
      <p class="small wounds">
        Wounds:{' '}
        {c.wounds && c.woundMax ? (
          <>
            <Track label="Light" left={c.wounds.light} max={c.woundMax.light} /> · <Track label="Heavy" left={c.wounds.heavy} max={c.woundMax.heavy} /> · <Track label="Deadly" left={c.wounds.deadly} max={c.woundMax.deadly} />
          </>
        ) : (
          'not known (Advanced Analyse Target reveals them)'
        )}
      </p>
      <p class="small">
        Stress {c.stress} · Fate Points {c.fatePoints}
        {c.persona ? ` · Persona ${c.persona.name}${c.persona.wounds !== null ? ` ${c.persona.wounds}/${c.persona.max}` : ''}` : ''}
      </p>
      <p class="small resources">
        Spirit {c.spirit.current}/{c.spirit.max} · Exertion {c.exertion.current}/{c.exertion.max}
      </p>
      {where && (
        <p class="small position">
          At ({where.x}, {where.y}){where.elevation ? `, ${where.elevation} m up` : ''} · {c.engagedWith.length ? `Engaged in Melee with ${c.engagedWith.map(props.name).join(', ')}` : 'not engaged'}
        </p>
      )}
      {notes.length > 0 && <p class="small conditions">{notes.join(' · ')}</p>}
      <p class="small affinities">Affinities: {affinities}</p>
      {(stowed.length > 0 || kit.length > 0) && (
        <p class="small">
          {stowed.length > 0 ? `Put away: ${stowed.join(', ')}` : ''}
          {stowed.length > 0 && kit.length > 0 ? ' · ' : ''}
          {kit.length > 0 ? `Consumables: ${kit.join(', ')}` : ''}
        </p>
      )}
      {ammunition.length > 0 && <p class="small ammunition">Loaded: {ammunition.join(' · ')}</p>}
      <p class="small ailments">Ailments: {c.ailments.length ? c.ailments.map((a) => `${ailmentTitle(a.name)}${a.turnsLeft !== null ? ` (${a.turnsLeft} turn${a.turnsLeft === 1 ? '' : 's'} left)` : ''}`).join(', ') : 'none'}</p>
      {c.injuries.length > 0 && <p class="small">Injuries: {c.injuries.map((i) => `${i.name} (${i.location})`).join(', ')}</p>}
      {(c.out || c.dead) && <p class="small error-text">{c.dead ? 'Dead' : 'Out of the fight'}</p>}
    </li>
  );
}

/** How many Advantages and Disadvantages a declaration names ("How Attacks Work": +10 and -10 each); ids `<prefix>-adv`, `<prefix>-dis`. */
function AdvantageFields(props: { prefix: string; adv: number; dis: number; setAdv: (n: number) => void; setDis: (n: number) => void }) {
  const count = (id: string, label: string, value: number, set: (n: number) => void) => (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="number" min={0} max={20} value={value} onInput={(e) => set(Math.max(0, e.currentTarget.valueAsNumber || 0))} />
    </div>
  );
  return (
    <>
      {count(`${props.prefix}-adv`, 'Advantages', props.adv, props.setAdv)}
      {count(`${props.prefix}-dis`, 'Disadvantages', props.dis, props.setDis)}
    </>
  );
}

/** The attack of the character the viewer acts for (chosen above the forms when there are two). */
function AttackPanel(props: { view: D100View; a: CharacterView | undefined; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const v = props.view;
  const a = props.a;
  // Confused at 4+ DoF: its Action is an attack on the nearest character, of either side
  const owed = a && v.confusedAttack?.who === a.id ? v.confusedAttack : null;
  const targets = a ? v.characters.filter((c) => (owed ? owed.candidates.includes(c.id) : c.side !== a.side) && !c.out) : [];
  const [defender, setDefender] = useState('');
  const d = targets.find((c) => c.id === defender) ?? targets[0];
  const [weapon, setWeapon] = useState('');
  const weapons = a?.sheet?.weapons ?? [];
  const w = weapons.find((x) => x.name === weapon) ?? weapons[0];
  const [called, setCalled] = useState('');
  const [adv, setAdv] = useState(0);
  const [dis, setDis] = useState(0);
  const typed = usePoolText();
  const [chart, setChart] = useState<D100ChartView | ''>('');
  const act = useAction();
  if (!a) return <p class="muted">{v.current === null ? 'The encounter has not started.' : 'None of your characters may act now.'}</p>;
  if (!d) return <p class="muted">No enemy is left to attack.</p>;
  const decl = { attacker: a.id, defender: d.id, ...(w ? { weapon: w.name } : {}), ...(called ? { called } : {}), advantages: adv, disadvantages: dis };
  const odds = oddsFor(v, decl);
  const reach = attackRange(a, d, w);
  const choices = odds && !('error' in odds) ? choiceOddsFor(v, decl) : [];
  // A Called Attack rolls no location; the Agility test is rolled only against a Shocked defender.
  const shocked = d.ailments.some((x) => x.name === 'shocked');
  const boxes = mayType(props.me, props.physicalDice) ? poolBoxes(v, props.me, attackCommand(decl), (name) => (name !== 'location' || !called) && (name !== 'actor' || shocked)) : [];
  return (
    <form
      class="stack"
      aria-labelledby="d1-attack-h"
      onSubmit={(e) => {
        e.preventDefault();
        void act.run(async () => {
          await props.send(attackCommand(decl), typedPools(boxes, typed.text));
          typed.clear();
        });
      }}
    >
      <h3 id="d1-attack-h">Attack by {a.name}</h3>
      <div class="row">
        <ChoiceField id="d1-defender" label="Target" value={d.id} choices={targets} onChange={setDefender} />
        <ChoiceField id="d1-weapon" label="Weapon" value={w?.name ?? ''} choices={weapons.map((x) => ({ value: x.name, label: `${x.name} (${x.element}, damage ${x.damage})` }))} onChange={setWeapon} />
        <ChoiceField id="d1-called" label="Called location" value={called} choices={LOCATIONS} none="none (roll it)" onChange={setCalled} />
        <AdvantageFields prefix="d1" adv={adv} dis={dis} setAdv={setAdv} setDis={setDis} />
      </div>
      {reach && (
        <p id="d1-range" class={`small${reach.beyond ? ' error-text' : ''}`} aria-live="polite">
          {reach.text}
        </p>
      )}
      <PoolFields idPrefix="d1-dice" boxes={boxes} text={typed.text} onInput={typed.set} />
      <div id="d1-odds" class="odds" aria-live="polite">
        {odds === null ? (
          <p class="muted">{d.detailsKnown ? "The odds need both characters' numbers." : `No odds: ${d.name}'s Evasion is not known until it is Analysed (Advanced Analyse Target reveals its Scores).`}</p>
        ) : 'error' in odds ? (
          <p class="error-text">{odds.error}</p>
        ) : (
          <p>
            Before rolling: hit <strong>{percent(odds.hit)}</strong> · Critical {percent(odds.critical)} · Fumble {percent(odds.fumble)} · Stagger (One More) {percent(odds.stagger)} · takes {d.name} out {percent(odds.out)} · wounds:{' '}
            {Object.entries(odds.wounds)
              .sort((x, y) => Number(x[0]) - Number(y[0]))
              .map(([n, p]) => `${n}: ${percent(p)}`)
              .join(', ')}
          </p>
        )}
        <RuleSetsCompared id="d1-compare" views={D100_CHART_VIEWS} chart={chart} setChart={setChart} entries={() => presetOddsFor(v, decl)} groups={d100ChartGroups} empty="No rule set gives this attack a wound." />
        {choices.length > 0 && (
          <ul class="small" id="d1-odds-choices" aria-label="Hit chance with and without each choice">
            {choices.map((c) => (
              <li key={c.label}>
                {c.label}: {c.odds === null ? 'not known' : 'error' in c.odds ? c.odds.error : `hit ${percent(c.odds.hit)}, takes ${d.name} out ${percent(c.odds.out)}`}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ErrorLine id="d1-attack-err" error={act.error} />
      <button type="submit" disabled={act.busy}>
        Attack {d.name}
      </button>
    </form>
  );
}

/**
 * A plain test of one of the viewer's characters ("How Attacks Work"): a Score or a skill, Advantages
 * and Disadvantages, the die typed in or left to the table, and its exact odds before it is rolled.
 */
function TestPanel(props: { view: D100View; mine: readonly CharacterView[]; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const v = props.view;
  const [who, setWho] = useState('');
  const c = props.mine.find((x) => x.id === who) ?? props.mine[0];
  const [what, setWhat] = useState('agility');
  const [adv, setAdv] = useState(0);
  const [dis, setDis] = useState(0);
  const act = useAction();
  const typed = usePoolText();
  if (!c) return null;
  const skills = c.sheet?.skills ?? [];
  // "score:NAME" or "skill:INDEX"; a choice no longer there falls back to Agility
  const [kind, key] = what.includes(':') ? what.split(':') : ['score', what];
  const skill = kind === 'skill' && skills[Number(key)] ? Number(key) : undefined;
  const score: Score = skill !== undefined ? (skills[skill]!.score as Score) : SCORE_KEYS.includes(key as Score) ? (key as Score) : 'agility';
  const decl = { who: c.id, score, ...(skill !== undefined ? { skill } : {}), advantages: adv, disadvantages: dis };
  const command = testCommand(v, decl);
  const odds = testOddsFor(v, decl);
  const reroll = c.fatePoints > 0 ? testOddsFor(v, decl, true) : null;
  const boxes = mayType(props.me, props.physicalDice) && !('error' in command) ? poolBoxes(v, props.me, command, (name) => name === 'actor') : [];
  const chance = odds && !('error' in odds) ? ` (${percent(odds.success)} to succeed)` : '';
  const choices = [
    ...SCORE_KEYS.map((k) => ({ value: `score:${k}`, label: SCORE_LABEL[k] })),
    ...skills.map((sk, i) => ({ value: `skill:${i}`, label: `${sk.name}${sk.focus ? ` (${sk.focus})` : ''} (skill)` })),
  ];
  return (
    <form
      class="stack"
      aria-labelledby="d1-test-h"
      onSubmit={(e) => {
        e.preventDefault();
        void act.run(async () => {
          if ('error' in command) throw new Error(String(command.error));
          await props.send(command, typedPools(boxes, typed.text));
          typed.clear();
        });
      }}
    >
      <h3 id="d1-test-h">Test</h3>
      <div class="row">
        <ChoiceField id="d1-test-who" label="Character" value={c.id} choices={props.mine} onChange={setWho} />
        <ChoiceField id="d1-test-what" label="Score or skill" value={skill !== undefined ? `skill:${skill}` : `score:${score}`} choices={choices} onChange={setWhat} />
        <AdvantageFields prefix="d1-test" adv={adv} dis={dis} setAdv={setAdv} setDis={setDis} />
      </div>
      <PoolFields idPrefix="d1-test-dice" boxes={boxes} text={typed.text} onInput={typed.set} />
      <div id="d1-test-odds" class="odds" aria-live="polite">
        {odds === null ? (
          <p class="muted">The odds need the character's numbers.</p>
        ) : 'error' in odds ? (
          <p class="error-text">{odds.error}</p>
        ) : (
          <p>
            Before rolling: target {odds.target}, success <strong>{percent(odds.success)}</strong> · Critical {percent(odds.critical)}
            {reroll && !('error' in reroll) ? ` · with a Fate Point to reroll a failure ${percent(reroll.success)}` : ''}
          </p>
        )}
      </div>
      <ErrorLine id="d1-test-err" error={act.error} />
      <button type="submit" disabled={act.busy}>
        Roll the test{chance}
      </button>
    </form>
  );
}

/**
 * Fate Points ("Fate Points"): each spend the rules allow the chosen character now, one point each,
 * with the choice it needs; a Reroll's new roll may be typed in. The server refuses what it must.
 */
function FatePanel(props: { view: D100View; mine: readonly CharacterView[]; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const v = props.view;
  const spenders = props.mine.filter((c) => c.fatePoints > 0 && !c.dead);
  const [who, setWho] = useState('');
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [heavy, setHeavy] = useState<number | undefined>(undefined);
  const act = useAction();
  const typed = usePoolText();
  const c = spenders.find((x) => x.id === who) ?? spenders[0];
  if (!c) return null;
  const offers = fateOffers(v, c);
  const block = fateBlockField(c);
  const rerollBoxes = mayType(props.me, props.physicalDice) && offers.some((o) => o.spend === 'reroll') ? poolBoxes(v, props.me, { type: 'spend-fate', who: c.id, spend: 'reroll' }, (name) => name === 'reroll', 'for the Fate Point Reroll') : [];
  return (
    <fieldset class="stack" id="d1-fate">
      <legend>Fate Points</legend>
      <div class="row">
        <ChoiceField id="d1-fate-who" label="Spend for" value={c.id} choices={spenders} onChange={(x) => { setWho(x); setHeavy(undefined); }} />
        <p class="small">
          {c.name} has {c.fatePoints} Fate Point{c.fatePoints === 1 ? '' : 's'}; each spend costs one.
        </p>
      </div>
      <div class="row" data-spend="block-heavy">
        <NumberField id="d1-fate-block" label={`${block.label}: ${block.value}`} value={heavy ?? block.value} min={0} max={block.max} onChange={setHeavy} />
        <button type="button" class="quiet" disabled={act.busy || (heavy ?? block.value) === block.value} onClick={() => void act.run(async () => { await props.send(fateBlockCommand(c.id, heavy ?? block.value)); setHeavy(undefined); })}>
          Declare (1 Fate Point per Heavy wound blocked)
        </button>
      </div>
      {offers.map((o) => (
        <div class="row" key={o.spend} data-spend={o.spend}>
          {o.choices && o.choices.length > 1 && <ChoiceField id={`d1-fate-${o.spend}`} label={o.label} value={picked[o.spend] ?? o.choices[0]!.value} choices={o.choices} onChange={(x) => setPicked((p) => ({ ...p, [o.spend]: x }))} />}
          {o.spend === 'reroll' && <PoolFields idPrefix="d1-fate-dice" boxes={rerollBoxes} text={typed.text} onInput={typed.set} />}
          <button
            type="button"
            class="quiet"
            disabled={act.busy}
            onClick={() =>
              void act.run(async () => {
                await props.send(fateCommand(c.id, o, picked[o.spend]), o.spend === 'reroll' ? typedPools(rerollBoxes, typed.text) : undefined);
                typed.clear();
              })
            }
          >
            {o.choices?.length === 1 ? `${o.label}: ${o.choices[0]!.label}` : o.label} (1 Fate Point)
          </button>
        </div>
      ))}
      <ErrorLine id="d1-fate-err" error={act.error} />
    </fieldset>
  );
}

/** The altitude bands of flyers (the flight passage of d100-combat-rules.txt). */
const ALTITUDE_CHOICES = [
  { value: 'ground', label: 'Ground' },
  { value: 'low', label: 'Low (about 20 m)' },
  { value: 'high', label: 'High (above 150 m)' },
];

/**
 * The acting character's other actions ("Analysing Targets, Disrupting Targets and Tricks",
 * "Equipment Actions"): Analyse, Distract, Scary Face and Push on an enemy; Equip Item; Use
 * Consumable on itself or an ally. Only what the character can do is offered; the server decides.
 */
function ActionsPanel(props: { view: D100View; c: CharacterView; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const c = props.c;
  const v = props.view;
  const enemies = v.characters.filter((o) => o.side !== c.side && !o.out);
  const allies = v.characters.filter((o) => o.side === c.side && !o.out);
  const [enemy, setEnemy] = useState('');
  const e = enemies.find((o) => o.id === enemy) ?? enemies[0];
  const [obstacle, setObstacle] = useState('');
  const stowed = c.fighter.stowed ?? c.sheet?.stowed ?? [];
  const inHand = (c.sheet?.weapons ?? []).map((w) => w.name).filter((n) => !stowed.includes(n));
  const [item, setItem] = useState('');
  const draw = stowed.find((n) => n === item) ?? stowed[0];
  const [stow, setStow] = useState('');
  const kit = (c.sheet?.consumables ?? []).filter((k) => (c.fighter.consumables?.[k.name] ?? k.count) > 0);
  const [use, setUse] = useState('');
  const u = kit.find((k) => k.name === use) ?? kit[0];
  const [on, setOn] = useState('');
  const ally = allies.find((o) => o.id === on) ?? c;
  const level = c.sheet?.arcanaLevel ?? 0;
  const reloads = reloadChoices(c);
  const [reload, setReload] = useState('');
  const r = reloads.find((x) => x.value === reload) ?? reloads[0];
  const [hurry, setHurry] = useState('');
  const [hurryTarget, setHurryTarget] = useState<number | undefined>(undefined);
  const act = useAction();
  const typed = usePoolText();
  const typing = mayType(props.me, props.physicalDice);
  const boxesOf = (command: Record<string, unknown>, purpose: string) => (typing ? poolBoxes(v, props.me, command, () => true, purpose) : []);
  const disrupt = e ? boxesOf({ type: 'distract', who: c.id, target: e.id }, '') : [];
  const push = e ? boxesOf({ type: 'trick', attacker: c.id, defender: e.id, kind: 'push' }, 'for a Push') : [];
  // "Equipment Actions", Reload: the hurry test is made only as a Reload begins, not on one under way
  const underWay = !!r && c.fighter.reloading?.weapon === r.value;
  const reloadSent = r ? reloadCommand(c.id, r.value, underWay ? '' : (hurry as (typeof HURRY_SKILLS)[number] | ''), hurryTarget) : null;
  const reloadBoxes = reloadSent && !underWay && hurry ? boxesOf(reloadSent, '') : [];
  // Each command takes the typed boxes of the pools it rolls; Analyse, Equip and the rest roll none.
  const send = (command: Record<string, unknown>, boxes: readonly PoolBox[] = []) =>
    void act.run(async () => {
      await props.send(command, typedPools(boxes, typed.text));
      typed.clear();
    });
  return (
    <div class="stack" id="d1-actions">
      {e && (
        <div class="row">
          <ChoiceField id="d1-act-target" label="Enemy" value={e.id} choices={enemies} onChange={setEnemy} />
          {level >= 4 && (
            <button type="button" disabled={act.busy} onClick={() => send({ type: 'analyse', who: c.id, target: e.id })}>
              Analyse {e.name}
            </button>
          )}
          {level >= 7 && (
            <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'analyse', who: c.id, target: e.id, advanced: true })}>
              Advanced Analyse
            </button>
          )}
          {!c.conditions.stealthy && (
            <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'go-stealthy', who: c.id })}>
              Go stealthy
            </button>
          )}
          <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'distract', who: c.id, target: e.id }, disrupt)}>
            Distract
          </button>
          <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'scary-face', who: c.id, target: e.id }, disrupt)}>
            Scary Face
          </button>
          <div class="field">
            <label for="d1-push-obstacle">Solid object behind it (m)</label>
            <input id="d1-push-obstacle" type="number" min={0} max={100} placeholder="none" value={obstacle} onInput={(x) => setObstacle(x.currentTarget.value)} />
          </div>
          <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'trick', attacker: c.id, defender: e.id, kind: 'push', ...(obstacle.trim() ? { obstacle: Math.max(0, Math.trunc(Number(obstacle)) || 0) } : {}) }, push)}>
            Push
          </button>
        </div>
      )}
      {e && <PoolFields idPrefix="d1-act-dice" boxes={mergedBoxes(disrupt, push)} text={typed.text} onInput={typed.set} />}
      {draw && (
        <div class="row">
          <ChoiceField id="d1-equip" label="Draw" value={draw} choices={stowed.map((n) => ({ value: n, label: n }))} onChange={setItem} />
          <ChoiceField id="d1-stow" label="Put away" value={stow} choices={inHand.map((n) => ({ value: n, label: n }))} none="nothing" onChange={setStow} />
          <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'equip', who: c.id, item: draw, ...(stow ? { stow } : {}) })}>
            Equip
          </button>
        </div>
      )}
      {r && reloadSent && (
        <div class="row" id="d1-reload">
          <ChoiceField id="d1-reload-weapon" label="Reload" value={r.value} choices={reloads} onChange={setReload} />
          {!underWay && (
            <ChoiceField id="d1-reload-hurry" label="Hurry it (a test)" value={hurry} choices={HURRY_SKILLS.map((k) => ({ value: k, label: k === 'ballistics' ? 'Ballistics' : 'Survival' }))} none="no" onChange={setHurry} />
          )}
          {!underWay && hurry && <OptionalNumberField id="d1-reload-target" label="Hurry test target" hint="blank: the sheet's" value={hurryTarget} min={-200} max={300} onChange={setHurryTarget} />}
          <PoolFields idPrefix="d1-reload-dice" boxes={reloadBoxes} text={typed.text} onInput={typed.set} />
          <button type="button" class="quiet" disabled={act.busy} onClick={() => send(reloadSent, reloadBoxes)}>
            {underWay ? `Go on reloading ${r.value}` : `Reload ${r.value}`}
          </button>
        </div>
      )}
      {u && (
        <div class="row">
          <ChoiceField id="d1-consumable" label="Consumable" value={u.name} choices={kit.map((k) => ({ value: k.name, label: `${k.name} (${c.fighter.consumables?.[k.name] ?? k.count} left)` }))} onChange={setUse} />
          <ChoiceField id="d1-consumable-on" label="On" value={ally.id} choices={allies} onChange={setOn} />
          <button type="button" class="quiet" disabled={act.busy} onClick={() => send({ type: 'use-consumable', who: c.id, item: u.name, target: ally.id })}>
            Use
          </button>
        </div>
      )}
      <ErrorLine id="d1-actions-err" error={act.error} />
    </div>
  );
}

/** A won Distract: its maker may force the target to reroll its test in the command just made. */
function ForceRerollPanel(props: { view: D100View; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const v = props.view;
  const act = useAction();
  const typed = usePoolText();
  const mine = v.characters.filter((c) => c.conditions.distracting && controls(c, props.me));
  if (!mine.length) return null;
  // The new roll is the target's: the GM's to type in when the target is the GM's character.
  const boxesOf = (who: string) => (mayType(props.me, props.physicalDice) ? poolBoxes(v, props.me, { type: 'force-reroll', who }) : []);
  const all = mergedBoxes(...mine.map((c) => boxesOf(c.id)));
  const name = (id: string) => v.characters.find((c) => c.id === id)?.name ?? 'someone unseen';
  return (
    <div class="row" id="d1-force-reroll">
      {mine.flatMap((c) =>
        (['attack', 'evasion', 'test'] as const).map((test) => (
          <button key={`${c.id}-${test}`} type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'force-reroll', who: c.id, test }, typedPools(boxesOf(c.id), typed.text)))}>
            {c.name}: make {name(c.conditions.distracting!)} reroll its {test}
          </button>
        )),
      )}
      <PoolFields idPrefix="d1-force-dice" boxes={all} text={typed.text} onInput={typed.set} />
      <ErrorLine id="d1-force-err" error={act.error} />
    </div>
  );
}

/** Whole metres typed into a map field. */
function Metres(props: { id: string; label: string; value: number; onChange: (n: number) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} type="number" step={1} value={props.value} onInput={(e) => props.onChange(Math.trunc(e.currentTarget.valueAsNumber || 0))} />
    </div>
  );
}

/** The acting character's Move on the map and its Protect ("Movement and Combat", "Defending and Protecting"). */
function MovePanel(props: { view: D100View; c: CharacterView; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const c = props.c;
  const at = c.conditions.position;
  const [x, setX] = useState(at?.x ?? 0);
  const [y, setY] = useState(at?.y ?? 0);
  const [run, setRun] = useState(false);
  const [rush, setRush] = useState(false);
  const [fullSpeed, setFullSpeed] = useState(false);
  const [band, setBand] = useState<string>(c.conditions.altitude ?? 'ground');
  const flies = !!c.sheet?.flight;
  const inTerrain = !!(c.conditions.terrain ?? c.conditions.difficultTerrain);
  const allies = props.view.characters.filter((o) => o.side === c.side && o.id !== c.id && !o.out);
  const [ally, setAlly] = useState('');
  const a = allies.find((o) => o.id === ally) ?? allies[0];
  // first aid ("Blood Loss"): any bleeding character the viewer sees; the server checks the reach
  const bleeding = props.view.characters.filter((o) => o.conditions.bloodLoss && !o.out);
  const [patient, setPatient] = useState('');
  const p = bleeding.find((o) => o.id === patient) ?? bleeding[0];
  const act = useAction();
  const typed = usePoolText();
  const aid = usePoolText();
  const typing = mayType(props.me, props.physicalDice);
  // A move rolls only for full speed through terrain or in stealth; first aid is a Medical test.
  const moveCommand = { type: 'move', who: c.id, x, y, run, ...(inTerrain && fullSpeed ? { fullSpeed } : {}), ...(c.conditions.stealthy && rush ? { stealthFullSpeed: true } : {}), ...(flies ? { altitude: band } : {}) };
  const moveBoxes = typing && ((inTerrain && fullSpeed) || c.conditions.stealthy) ? poolBoxes(props.view, props.me, moveCommand) : [];
  const staunchBoxes = typing && p ? poolBoxes(props.view, props.me, { type: 'staunch', who: c.id, target: p.id }, () => true, 'for first aid') : [];
  const sendWith = (command: Record<string, unknown>, boxes: readonly PoolBox[], text: typeof typed) =>
    void act.run(async () => {
      await props.send(command, typedPools(boxes, text.text));
      text.clear();
    });
  return (
    <div class="stack" id="d1-move">
      {at ? (
        <div class="row">
          <Metres id="d1-move-x" label="Move to x" value={x} onChange={setX} />
          <Metres id="d1-move-y" label="y" value={y} onChange={setY} />
          <label class="check">
            <input id="d1-move-run" type="checkbox" checked={run} onChange={(e) => setRun(e.currentTarget.checked)} />
            Run
          </label>
          {c.conditions.stealthy && (
            <label class="check">
              <input id="d1-move-rush" type="checkbox" checked={rush} onChange={(e) => setRush(e.currentTarget.checked)} />
              Full speed in stealth (two Disadvantages on the stealth test)
            </label>
          )}
          {inTerrain && (
            <label class="check">
              <input id="d1-move-full" type="checkbox" checked={fullSpeed} onChange={(e) => setFullSpeed(e.currentTarget.checked)} />
              Full speed through the terrain (a test)
            </label>
          )}
          {flies && <ChoiceField id="d1-move-band" label="Altitude" value={band} choices={ALTITUDE_CHOICES} onChange={setBand} />}
          <PoolFields idPrefix="d1-move-dice" boxes={moveBoxes} text={typed.text} onInput={typed.set} />
          <button type="button" disabled={act.busy} onClick={() => sendWith(moveCommand, moveBoxes, typed)}>
            Move {c.name}
          </button>
        </div>
      ) : (
        <p class="muted small">{c.name} is not on the map: the GM places characters.</p>
      )}
      {a && (
        <div class="row">
          <ChoiceField id="d1-protect" label="Protect" value={a.id} choices={allies} onChange={setAlly} />
          <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'protect', ally: a.id, ...(c.id !== props.view.current ? { who: c.id } : {}) }))}>
            Protect {a.name}
          </button>
        </div>
      )}
      {p && (
        <div class="row">
          <ChoiceField id="d1-staunch" label="First aid (Medical)" value={p.id} choices={bleeding} onChange={setPatient} />
          <PoolFields idPrefix="d1-staunch-dice" boxes={staunchBoxes} text={aid.text} onInput={aid.set} />
          <button type="button" class="quiet" disabled={act.busy} onClick={() => sendWith({ type: 'staunch', who: c.id, target: p.id }, staunchBoxes, aid)}>
            Staunch {p.name}'s bleeding
          </button>
        </div>
      )}
      <ErrorLine id="d1-move-err" error={act.error} />
    </div>
  );
}

/**
 * A Confused character's owed attack on the nearest character (the Confused row of the ailments
 * passage, 4+ DoF) or on itself (5+): whom it may be, and for the GM, when the map leaves several, a
 * button naming each.
 */
function ConfusedPanel(props: { view: D100View; me: RulesetTableProps['me']; send: RulesetTableProps['send'] }) {
  const v = props.view;
  const owed = v.confusedAttack!;
  const act = useAction();
  const name = (id: string) => v.characters.find((c) => c.id === id)?.name ?? 'someone unseen';
  const several = owed.candidates.length > 1;
  return (
    <div class="stack" id="d1-confused">
      <p>
        <strong>Confused</strong>: {name(owed.who)}'s Action this turn is an attack on {confusedAttackText(owed, name)}.
      </p>
      {several && props.me.role === 'gm' && (
        <div class="row">
          {owed.candidates.map((id) => (
            <button key={id} type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'confused-target', who: owed.who, target: id }))}>
              {`Nearest: ${name(id)}`}
            </button>
          ))}
        </div>
      )}
      <ErrorLine id="d1-confused-err" error={act.error} />
    </div>
  );
}

function ChainPanel(props: { view: D100View; me: RulesetTableProps['me']; send: RulesetTableProps['send']; physicalDice: boolean }) {
  const v = props.view;
  const om = v.oneMore;
  const act = useAction();
  const typed = usePoolText();
  const [to, setTo] = useState('');
  const [aoa, setAoa] = useState<string[]>([]);
  if (!om) return <p class="muted" id="d1-chain">No One More is held.</p>;
  const holder = v.characters.find((c) => c.id === om.holder);
  const name = (id: string) => v.characters.find((c) => c.id === id)?.name ?? 'someone unseen';
  const allies = holder ? v.characters.filter((c) => c.side === holder.side && c.id !== holder.id && !c.out) : [];
  const mine = holder ? controls(holder, props.me) : false;
  // "Baton Pass": nobody who has given or received a pass in this chain receives again
  const receivers = allies.filter((c) => !om.chain.includes(c.id));
  const target = receivers.find((c) => c.id === to) ?? receivers[0];
  const aoaCommand = { type: 'all-out-attack', participants: holder ? [holder.id, ...aoa].map((id) => ({ id, score: 'melee' })) : [] };
  // Each participant's roll is its own pool: the holder's player types in theirs, the GM any.
  const aoaBoxes = mayType(props.me, props.physicalDice) && holder ? poolBoxes(v, props.me, aoaCommand) : [];
  return (
    <div class="stack" id="d1-chain">
      <p>
        <strong>One More</strong>: {name(om.holder)} holds it · chain {om.chain.map(name).join(' → ')}
        {om.advantages ? ` · +${om.advantages} Advantage from the Baton Pass` : ''}
      </p>
      <p id="d1-aoa-ready">{v.allOutAttackReady ? 'All-Out Attack ready: every enemy is Staggered.' : 'All-Out Attack not ready: not every enemy is Staggered.'}</p>
      {mine && target && (
        <div class="row">
          <div class="field">
            <label for="d1-baton">Baton Pass to</label>
            <select id="d1-baton" value={target.id} onChange={(e) => setTo(e.currentTarget.value)}>
              {receivers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <button type="button" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'baton-pass', to: target.id }))}>
            Pass the baton
          </button>
        </div>
      )}
      {mine && v.allOutAttackReady && holder && (
        <fieldset>
          <legend>All-Out Attack</legend>
          {allies.map((c) => (
            <label class="check" key={c.id}>
              <input type="checkbox" checked={aoa.includes(c.id)} onChange={(e) => setAoa((x) => (e.currentTarget.checked ? [...x, c.id] : x.filter((y) => y !== c.id)))} />
              {c.name} joins
            </label>
          ))}
          <PoolFields idPrefix="d1-aoa-dice" boxes={aoaBoxes} text={typed.text} onInput={typed.set} />
          <button
            type="button"
            disabled={act.busy}
            onClick={() =>
              void act.run(async () => {
                await props.send(aoaCommand, typedPools(aoaBoxes, typed.text));
                typed.clear();
              })
            }
          >
            Launch the All-Out Attack
          </button>
        </fieldset>
      )}
      <ErrorLine id="d1-chain-err" error={act.error} />
    </div>
  );
}

function GmPanel(props: { view: D100View; me: RulesetTableProps['me']; send: RulesetTableProps['send']; version: number }) {
  const v = props.view;
  const act = useAction();
  const typed = usePoolText();
  // Initiative ties are settled by d10 roll-offs, each character's own pool.
  const initiative = v.current === null ? poolBoxes(v, props.me, { type: 'start' }, (name) => name.startsWith('initiative:')) : [];
  const [target, setTarget] = useState('');
  const [ailment, setAilment] = useState<string>('burning');
  const [resist, setResist] = useState(false);
  const [resistElement, setResistElement] = useState('');
  const [resistScore, setResistScore] = useState('');
  const [resistTarget, setResistTarget] = useState<number | undefined>(undefined);
  const [px, setPx] = useState(0);
  const [py, setPy] = useState(0);
  const [pz, setPz] = useState(0);
  const [dtn, setDtn] = useState(0);
  const [terrain, setTerrain] = useState('uneven');
  const [terrainDamage, setTerrainDamage] = useState(0);
  const [band, setBand] = useState('ground');
  const t = v.characters.find((c) => c.id === target) ?? v.characters[0];
  const inflict = t ? inflictCommand(t.id, ailment, resist, { element: resistElement, score: (resistScore || undefined) as Score | undefined, resistTarget }) : null;
  // the resistance test is the target's own roll (its target:ID pool)
  const resistBoxes = inflict && resist ? poolBoxes(v, props.me, inflict, (name) => name.startsWith('target:')) : [];
  return (
    <div class="stack">
      <div class="row">
        {v.current === null && (
          <button
            type="button"
            disabled={act.busy}
            onClick={() =>
              void act.run(async () => {
                await props.send({ type: 'start' }, typedPools(initiative, typed.text));
                typed.clear();
              })
            }
          >
            Roll initiative and start
          </button>
        )}
        <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'undo', seen: props.version }, undefined, props.version))}>
          Undo the last action
        </button>
      </div>
      {initiative.length > 0 && (
        <details id="d1-initiative-dice">
          <summary>Physical dice for initiative ties</summary>
          <PoolFields idPrefix="d1-init-dice" boxes={initiative} text={typed.text} onInput={typed.set} />
        </details>
      )}
      {t && (
        <div class="row">
          <div class="field">
            <label for="d1-ail-target">Inflict on</label>
            <select id="d1-ail-target" value={t.id} onChange={(e) => setTarget(e.currentTarget.value)}>
              {v.characters.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="d1-ail">Ailment</label>
            <select id="d1-ail" value={ailment} onChange={(e) => setAilment(e.currentTarget.value)}>
              {AILMENT_NAMES.map((a) => (
                <option key={a} value={a}>
                  {ailmentTitle(a)}
                </option>
              ))}
            </select>
          </div>
          <label class="check">
            <input id="d1-ail-resist" type="checkbox" checked={resist} onChange={(e) => setResist(e.currentTarget.checked)} />
            {t.name} may resist (a test, option ailmentResistScore)
          </label>
          {resist && (
            <>
              <ChoiceField id="d1-ail-element" label="Element of its source" value={resistElement} choices={ELEMENTS} none="none" hint="-20 if Weak to it, +20 if it Resists it" onChange={setResistElement} />
              <ChoiceField id="d1-ail-score" label="Score tested" value={resistScore} choices={SCORE_KEYS.map((k) => ({ value: k, label: SCORE_LABEL[k] }))} none="the option's" onChange={setResistScore} />
              <OptionalNumberField id="d1-ail-target" label="Resistance target" hint="blank: the Score's" value={resistTarget} min={-200} max={300} onChange={setResistTarget} />
            </>
          )}
          <PoolFields idPrefix="d1-ail-dice" boxes={resistBoxes} text={typed.text} onInput={typed.set} />
          <button
            type="button"
            disabled={act.busy}
            onClick={() =>
              void act.run(async () => {
                await props.send(inflict!, typedPools(resistBoxes, typed.text));
                typed.clear();
              })
            }
          >
            Inflict
          </button>
        </div>
      )}
      {mayScatter(v) && (
        <div class="row" id="d1-scatter">
          <p class="small">The attack just made may scatter: where it goes comes from its own roll.</p>
          <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'scatter' }))}>
            Scatter the attack
          </button>
        </div>
      )}
      {t && (
        <div class="row" id="d1-place">
          <Metres id="d1-place-x" label={`Place ${t.name} at x`} value={px} onChange={setPx} />
          <Metres id="d1-place-y" label="y" value={py} onChange={setPy} />
          <Metres id="d1-place-z" label="elevation (m)" value={pz} onChange={setPz} />
          {t.sheet?.flight && <ChoiceField id="d1-place-band" label="Altitude" value={band} choices={ALTITUDE_CHOICES} onChange={setBand} />}
          <button type="button" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'place', target: t.id, x: px, y: py, elevation: pz, ...(t.sheet?.flight ? { altitude: band } : {}) }))}>
            Place
          </button>
          {t.conditions.altitude && t.conditions.altitude !== 'ground' && (
            <button type="button" class="quiet" disabled={act.busy} onClick={() => void act.run(() => props.send({ type: 'set-condition', target: t.id, condition: 'falling', value: !t.conditions.falling }))}>
              {t.conditions.falling ? `${t.name} flies again` : `${t.name} starts to fall`}
            </button>
          )}
        </div>
      )}
      {t && (
        <div class="row" id="d1-terrain">
          <div class="field">
            <label for="d1-dtn">Difficult Terrain Number</label>
            <select id="d1-dtn" value={String(dtn)} onChange={(e) => setDtn(Number(e.currentTarget.value))}>
              {[0, 1, 2, 3].map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <ChoiceField id="d1-terrain-kind" label="Kind" value={terrain} choices={[{ value: 'uneven', label: 'Uneven/Slippery' }, { value: 'damaging', label: 'Damaging' }, { value: 'open', label: 'open ground' }]} onChange={setTerrain} />
          {terrain === 'damaging' && <Metres id="d1-terrain-damage" label="Terrain damage" value={terrainDamage} onChange={setTerrainDamage} />}
          <button
            type="button"
            class="quiet"
            disabled={act.busy}
            onClick={() => void act.run(() => props.send({ type: 'set-terrain', target: t.id, dtn: terrain === 'open' ? 0 : dtn, kind: terrain, ...(terrain === 'damaging' ? { damage: terrainDamage } : {}) }))}
          >
            Set terrain
          </button>
        </div>
      )}
      <ErrorLine id="d1-gm-err" error={act.error} />
    </div>
  );
}

/** The table page of a d100 table: characters, the builder, the encounter with odds, the log. */
export function D100Table(props: RulesetTableProps) {
  const v = props.view as D100View | null;
  const [building, setBuilding] = useState(false);
  const turn = useAction();
  const endTurn = usePoolText();
  const [actFor, setActFor] = useState('');
  if (!v) return <p class="muted">Joining the table…</p>;
  const gm = props.me.role === 'gm';
  const observer = props.me.role === 'observer';
  const name = (id: string) => v.characters.find((c) => c.id === id)?.name ?? 'someone unseen';
  const current = v.current && v.current !== 'hidden' ? v.characters.find((c) => c.id === v.current) : undefined;
  const holder = v.oneMore ? v.characters.find((c) => c.id === v.oneMore!.holder) : undefined;
  const mayEnd = current ? controls(current, props.me) || (holder ? controls(holder, props.me) : false) : gm && v.current !== null;
  // Whom the viewer acts for now: the character whose turn it is, or a One More holder acting out of turn
  // ("One More"); one who plays both (the GM, say) chooses, the Turn's own character first.
  const actors = [current, holder].filter((c, i, all): c is CharacterView => !!c && !c.out && controls(c, props.me) && all.indexOf(c) === i);
  const actor = actors.find((c) => c.id === actFor) ?? actors[0];
  const physicalDice = props.settings.physicalDice;
  // The characters this viewer plays (the GM: all), in the fight: who may test or spend Fate Points.
  const mine = observer ? [] : v.characters.filter((c) => !c.out && controls(c, props.me));
  const typing = mayType(props.me, physicalDice);
  // The end of a turn rolls only the tests that come then (Frozen's of the one ending it, a crash as the
  // round ends, Blood Loss, Confused or Miasma as the next turn starts): a box for each of those alone.
  const rollers = endTurnRollers(v);
  const endBoxes = typing && current ? poolBoxes(v, props.me, { type: 'end-turn' }, (name) => rollers.some((id) => name === `turn:${id}`), 'when the turn ends') : [];
  return (
    <div class="stack" data-ruleset="d100">
      <section class="card" aria-labelledby="d1-enc-h">
        <h2 id="d1-enc-h">Encounter</h2>
        <p id="d1-turn" aria-live="polite">
          {v.current === null ? 'Not started: the GM rolls initiative once the characters are in.' : `Round ${v.round} · ${v.current === 'hidden' ? 'a hidden character acts' : `${name(v.current)}'s turn`}`}
        </p>
        {v.order.length > 0 && (
          <ol id="d1-order" class="order" aria-label="Initiative order">
            {v.order.map((id) => (
              <li key={id} aria-current={id === v.current ? 'true' : undefined}>
                {name(id)}
              </li>
            ))}
          </ol>
        )}
        <ChainPanel view={v} me={props.me} send={props.send} physicalDice={physicalDice} />
        {v.confusedAttack && <ConfusedPanel view={v} me={props.me} send={props.send} />}
        {!observer && actors.length > 1 && actor && (
          <fieldset class="row" id="d1-act-for">
            <legend>Act for</legend>
            {actors.map((c) => (
              <label class="check" key={c.id}>
                <input type="radio" name="d1-act-for" value={c.id} checked={c.id === actor.id} onChange={() => setActFor(c.id)} />
                {c.id === current?.id ? `${c.name} (its turn)` : `${c.name} (One More, out of turn)`}
              </label>
            ))}
          </fieldset>
        )}
        {!observer && v.current !== null && <AttackPanel key={`attack-${actor?.id ?? ''}`} view={v} a={actor} me={props.me} send={props.send} physicalDice={physicalDice} />}
        {!observer && v.current !== null && mayEnd && (
          <div class="row">
            {actor && (
              <button type="button" class="quiet" disabled={turn.busy} onClick={() => void turn.run(() => props.send({ type: 'defend', ...(actor !== current ? { who: actor.id } : {}) }))}>
                Defend
              </button>
            )}
            <PoolFields idPrefix="d1-end-dice" boxes={endBoxes} text={endTurn.text} onInput={endTurn.set} />
            <button
              type="button"
              disabled={turn.busy}
              onClick={() =>
                void turn.run(async () => {
                  await props.send({ type: 'end-turn' }, typedPools(endBoxes, endTurn.text));
                  endTurn.clear();
                })
              }
            >
              End the turn
            </button>
          </div>
        )}
        {!observer && actor && actor !== current && <p class="small" id="d1-out-of-turn">{actor.name} acts out of turn with the One More.</p>}
        {!observer && actor && <MovePanel key={actor.id} view={v} c={actor} me={props.me} send={props.send} physicalDice={physicalDice} />}
        {!observer && actor && <ActionsPanel key={`actions-${actor.id}`} view={v} c={actor} me={props.me} send={props.send} physicalDice={physicalDice} />}
        {!observer && <ForceRerollPanel view={v} me={props.me} send={props.send} physicalDice={physicalDice} />}
        {mine.length > 0 && <TestPanel view={v} mine={mine} me={props.me} send={props.send} physicalDice={physicalDice} />}
        {mine.length > 0 && <FatePanel view={v} mine={mine} me={props.me} send={props.send} physicalDice={physicalDice} />}
        <ErrorLine id="d1-turn-err" error={turn.error} />
        {gm && <GmPanel view={v} me={props.me} send={props.send} version={props.version} />}
      </section>

      <section class="card" aria-labelledby="d1-chars-h">
        <div class="spread">
          <h2 id="d1-chars-h">Characters</h2>
          {!observer && !building && v.current === null && (
            <button type="button" onClick={() => setBuilding(true)}>
              Build a character
            </button>
          )}
        </div>
        {v.characters.length === 0 ? (
          <p class="muted">No characters yet.</p>
        ) : (
          <ul class="char-grid" id="d1-characters">
            {v.characters.map((c) => (
              <CharacterCard key={c.id} c={c} current={c.id === v.current} holder={c.id === v.oneMore?.holder} name={name} />
            ))}
          </ul>
        )}
      </section>
      {building && (
        <D100Builder
          gm={gm}
          names={v.characters.map((c) => c.name)}
          onClose={() => setBuilding(false)}
          onAdd={(d) => props.send({ type: 'add-character', id: newIdFor(props.me, d.name, v.characters, [WITHHELD]), sheet: draftSheet(d) })}
        />
      )}
      <LogList lines={v.log.map((e, i) => ({ key: i, text: describeD100Event(e, name) }))} omitted={v.logOmitted} />
      <RulesetSecretRolls
        view={props.view as SecretRollsView<EncounterEvent>}
        gm={gm}
        participants={props.participants}
        send={(c) => props.send(c)}
        diceOf={d100DiceOf}
        describe={(e) => describeD100Event(e, name)}
        fairness={{ sides: 10, die: 'a fair d10, each percentile roll counted as its tens and units digits', rolls: 'Attacks and tests' }}
      />
      {gm && <RulesetReplay tableId={props.tableId} token={props.token} preset={v.preset} presets={PRESET_NAMES} options={d100Ruleset.options} judge={judgeD100Log} />}
      <TableSection {...props} />
    </div>
  );
}

export const d100Pages: RulesetPages = { id: 'd100', Table: D100Table };
