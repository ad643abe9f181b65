import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  STEPS,
  attributeLimit,
  attributesAt,
  budgets,
  checkDraft,
  derivedOf,
  draftFromSheet,
  draftSheet,
  newDraft,
  ownSkills,
  prioritiesOf,
  problems,
  problemsAt,
  problemsIn,
  setDefenseDice,
  stepOfPath,
  PRIORITY_SLOTS,
  type Budget,
  type Draft,
  type DraftCheck,
  type Problem,
  type StepId,
} from '../lib/draft';
import {
  ATTRIBUTES,
  ATTRIBUTE_LABELS,
  DEFENSE_SKILLS,
  POWER_DURATIONS,
  PRESETS,
  PRIORITIES,
  PRIORITY_LABELS,
  ROLES,
  TIERS,
  allocateAttributes,
  presetOptions,
  potentialFromSum,
  attributeSum,
  type AbilityEffect,
  type AttributeName,
  type CharacterSheet,
  type Gear,
  type Preset,
  type TableOptions,
  EFFECTS,
  EFFECT_TYPES,
  describeEffect,
  effectSize,
  weaponAttributeNote,
} from '../lib/rules';
import { download, fileNameFor, readSheetFile, writeSheetFile } from '../lib/sheet-files';
import { plural } from '../lib/format';
import { Frame, link } from './Frame';
import { Check, NumberField, Problems, SelectField, TextField } from './fields';
import { SheetView } from './SheetView';

const ATTRIBUTE_OPTIONS = ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] }));

const order0: StepId[] = [...STEPS.map((s) => s.id), 'review'];

export interface BuilderProps {
  options: TableOptions;
  /** Where the draft is kept between visits (localStorage key). */
  storageKey: string;
  /** The GM may build supporting characters and hide them. */
  gm?: boolean;
  /** Table mode: add the finished character to the table. */
  onAdd?: (sheet: CharacterSheet, extra: { hidden: boolean }) => Promise<void>;
  onClose?: () => void;
  initial?: CharacterSheet;
  /** Editing a character already at the table: the last step saves the changes instead of adding. */
  editing?: boolean;
}

function loadDraft(key: string, creationPoints: number, initial?: CharacterSheet): Draft {
  if (initial) return draftFromSheet(initial);
  try {
    const raw = localStorage.getItem(key);
    if (raw) {
      const d = JSON.parse(raw) as Draft;
      if (d && d.sheet && d.priority && typeof d.sheet.attributes === 'object') return d;
    }
  } catch {
    // a broken draft is replaced by a new one
  }
  return newDraft(creationPoints);
}

export function Builder(props: BuilderProps) {
  const { options } = props;
  const [draft, setDraft] = useState<Draft>(() => (props.editing && props.initial ? draftFromSheet(props.initial) : loadDraft(props.storageKey, options.creationPoints, props.initial)));
  const [step, setStep] = useState<StepId>('concept');
  const [hidden, setHidden] = useState(props.gm ?? false);
  const [message, setMessage] = useState<{ kind: 'good' | 'bad' | 'info'; text: string; details?: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (props.editing) return;
    try {
      localStorage.setItem(props.storageKey, JSON.stringify(draft));
    } catch {
      // storage full: the draft lives on in memory
    }
  }, [draft, props.storageKey]);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
    document.querySelector('.steps [aria-current="step"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [step]);

  // Missing names are pointed out once the player has moved past their step; broken rules at once.
  const [visited, setVisited] = useState<ReadonlySet<StepId>>(() => new Set(props.initial ? order0 : []));
  const full = useMemo(() => checkDraft(draft, options), [draft, options]);
  usePrintedSheet(full.sheet, options);
  const check = useMemo(
    () => ({ ...full, missing: full.missing.filter((m) => !/(^|\.)name$|^concept$/.test(m.path) || visited.has(stepOfPath(m.path)) || step === 'review') }),
    [full, visited, step],
  );
  const all = problems(check);
  const edit = (fn: (s: CharacterSheet) => void) =>
    setDraft((d) => {
      const sheet = structuredClone(d.sheet);
      fn(sheet);
      return { ...d, sheet };
    });
  const at = (path: string) => problemsAt(check, path);
  const order = order0;
  const index = order.indexOf(step);
  const go = (s: StepId) => {
    setVisited((v) => new Set([...v, step]));
    setStep(s);
  };

  const importFile = async (file: File) => {
    const text = await file.text();
    const result = await readSheetFile(text, file.name);
    if (!result.ok) {
      setMessage({ kind: 'bad', text: `${file.name} could not be read.`, details: result.issues.slice(0, 8).map((i) => `${i.line ? `line ${i.line}: ` : ''}${i.path ? `${i.path}: ` : ''}${i.message}`) });
      return;
    }
    setDraft(draftFromSheet(result.sheet));
    setVisited(new Set(order0));
    setMessage({ kind: 'good', text: `Opened ${result.sheet.name} from ${file.name}. Every rule is checked below.` });
    setStep('review');
  };

  const exportFile = async (format: 'yaml' | 'json') => {
    const sheet = draftSheet(draft);
    if (!sheet) {
      setMessage({ kind: 'bad', text: 'Finish the order of importance (step 2) before saving the sheet.' });
      return;
    }
    const text = await writeSheetFile(sheet, format);
    download(text, fileNameFor(sheet, format), format === 'yaml' ? 'application/yaml' : 'application/json');
    setMessage({ kind: 'info', text: `Saved ${fileNameFor(sheet, format)}${full.valid ? '' : ' (it still breaks some rules: opening it again shows which)'}.` });
  };

  const add = async () => {
    if (!props.onAdd || !check.sheet || !full.valid) return;
    setBusy(true);
    try {
      await props.onAdd(check.sheet, { hidden });
      if (props.editing) {
        setMessage({ kind: 'good', text: `${check.sheet.name}'s sheet is saved at the table.` });
        return;
      }
      localStorage.removeItem(props.storageKey);
      setMessage({ kind: 'good', text: `${check.sheet.name} joined the table.` });
      setDraft(newDraft(options.creationPoints));
      setStep('concept');
    } catch (e) {
      setMessage({ kind: 'bad', text: e instanceof Error ? e.message : 'The character could not be added.' });
    } finally {
      setBusy(false);
    }
  };

  const stepTitle = step === 'review' ? 'Review and save' : STEPS.find((s) => s.id === step)!.title;
  const stepRule = step === 'review' ? 'Every creation check of the rules' : STEPS.find((s) => s.id === step)!.rule;

  return (
    <div class="builder-wrap">
    <div class="builder">
      <nav aria-label="Creation steps" class="card builder-steps">
        <ol class="steps">
          {order.map((id, i) => {
            const n = problemsIn(check, id).length;
            const title = id === 'review' ? 'Review and save' : STEPS.find((s) => s.id === id)!.title;
            return (
              <li key={id}>
                <button type="button" aria-current={id === step ? 'step' : undefined} onClick={() => go(id)}>
                  <span class="step-badge" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span class="step-title">{title}</span>
                  {n ? <span class="step-problems">{n}<span class="sr-only"> {n === 1 ? 'problem' : 'problems'}</span></span> : null}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <section class="card" aria-labelledby="step-h">
        <div class="spread">
          <h2 id="step-h" ref={headingRef} tabIndex={-1}>
            {index < 6 ? `Step ${index + 1}: ` : ''}
            {stepTitle}
          </h2>
          <span class="muted small">{stepRule}</span>
        </div>
        {message && (
          <div class={`notice ${message.kind}`} role={message.kind === 'bad' ? 'alert' : 'status'}>
            {message.text}
            {message.details && (
              <ul>
                {message.details.map((d, i) => (
                  <li key={i}>{d}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {step === 'concept' && <ConceptStep draft={draft} edit={edit} at={at} options={options} gm={props.gm ?? false} onImport={importFile} />}
        {step === 'priorities' && <PriorityStep draft={draft} setDraft={setDraft} check={check} />}
        {step === 'attributes' && <AttributeStep draft={draft} setDraft={setDraft} edit={edit} check={check} options={options} />}
        {step === 'maxima' && <MaximaStep draft={draft} options={options} />}
        {step === 'traits' && <TraitStep draft={draft} edit={edit} at={at} check={check} options={options} />}
        {step === 'gear' && <GearStep draft={draft} edit={edit} at={at} check={check} />}
        {step === 'review' && (
          <ReviewStep
            draft={draft}
            check={check}
            valid={full.valid}
            options={options}
            go={go}
            onExport={exportFile}
            onImport={importFile}
            onAdd={props.onAdd ? add : undefined}
            busy={busy}
            gm={props.gm ?? false}
            hidden={hidden}
            setHidden={setHidden}
            editing={props.editing ?? false}
          />
        )}
        <div class="step-nav">
          {index > 0 ? (
            <button type="button" onClick={() => go(order[index - 1]!)}>
              ← Back
            </button>
          ) : (
            <span />
          )}
          {index < order.length - 1 && (
            <button type="button" class="primary" onClick={() => go(order[index + 1]!)}>
              Next: {order[index + 1] === 'review' ? 'Review' : STEPS[index + 1]!.title} →
            </button>
          )}
        </div>
      </section>

      <aside class="card builder-aside" aria-labelledby="limits-h">
        <h2 id="limits-h">Limits</h2>
        <p aria-live="polite" class={check.valid ? 'ok-text' : 'error-text'}>
          {full.valid ? 'Legal character: every creation rule holds.' : all.length ? `${plural(all.length, 'problem')} to fix.` : 'Not finished yet.'}
        </p>
        <BudgetList items={budgets(draft, options)} />
        <p class="small muted">
          Potential {potentialFromSum(attributeSum(draft.sheet.attributes), options)} · at most {potentialFromSum(attributeSum(draft.sheet.attributes), options) + 2} dice a
          skill
        </p>
        {props.onClose && (
          <button type="button" onClick={props.onClose}>
            Close the builder
          </button>
        )}
      </aside>
    </div>
    </div>
  );
}

/**
 * The sheet as printed: rendered outside the app into its own element, which the print stylesheet
 * shows alone, so printing from the builder (button or browser menu) gives the character sheet.
 */
function usePrintedSheet(sheet: CharacterSheet | null, options: TableOptions): void {
  useEffect(() => {
    let root = document.getElementById('print-root');
    if (!root) {
      root = document.createElement('div');
      root.id = 'print-root';
      root.className = 'print-sheet';
      document.body.append(root);
    }
    render(sheet ? <SheetView sheet={sheet} options={options} /> : null, root);
  }, [sheet, options]);
  useEffect(
    () => () => {
      const root = document.getElementById('print-root');
      if (root) {
        render(null, root);
        root.remove();
      }
    },
    [],
  );
}

function BudgetList(props: { items: Budget[] }) {
  return (
    <ul class="budget">
      {props.items.map((b) => {
        const over = b.used > b.limit;
        return (
          <li key={b.key} title={b.why}>
            <div class="spread small">
              <span>{b.label}</span>
              <strong class={over ? 'error-text' : ''} aria-label={b.text}>
                {b.used} of {b.limit}
              </strong>
            </div>
            <div class={`meter ${over ? 'over' : ''}`} aria-hidden="true">
              <span style={{ width: `${b.limit > 0 ? Math.min(100, (b.used / b.limit) * 100) : b.used > 0 ? 100 : 0}%` }} />
            </div>
            {over && <span class="error-text small">{b.why}</span>}
          </li>
        );
      })}
    </ul>
  );
}

type Edit = (fn: (s: CharacterSheet) => void) => void;

/** After adding an item, put the keyboard on its first field. */
function focusSoon(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}
type At = (path: string) => Problem[];

function ConceptStep(props: { draft: Draft; edit: Edit; at: At; options: TableOptions; gm: boolean; onImport: (f: File) => void }) {
  const s = props.draft.sheet;
  const roles = props.gm ? ROLES : (['main', 'companion'] as const);
  return (
    <div class="stack">
      <p>Who is the character? A name and a few words of concept are enough to start. The creation points set the starting Potential.</p>
      <div class="row">
        <TextField class="grow" id="b-name" label="Name" value={s.name} onInput={(v) => props.edit((x) => void (x.name = v))} problems={props.at('name')} />
        <TextField class="grow" id="b-concept" label="Concept" placeholder="Dwarf Shieldwall Veteran" value={s.concept} onInput={(v) => props.edit((x) => void (x.concept = v))} problems={props.at('concept')} />
      </div>
      <div class="row">
        <SelectField
          id="b-role"
          label="Role"
          value={s.role}
          options={roles.map((r) => ({ value: r, label: { main: 'Main character', companion: 'Companion', ally: 'Ally (supporting)', adversary: 'Adversary (supporting)' }[r] }))}
          onChange={(v) =>
            props.edit((x) => {
              x.role = v;
              if (v === 'main') delete x.tier;
              else x.tier ??= v === 'companion' ? 'minion' : 'major';
              if (v === 'companion') x.creationPoints = 10;
            })
          }
          problems={props.at('role')}
        />
        {s.role !== 'main' && (
          <SelectField id="b-tier" label="Tier" value={s.tier ?? 'major'} options={TIERS.map((t) => ({ value: t, label: t }))} onChange={(v) => props.edit((x) => void (x.tier = v))} problems={props.at('tier')} />
        )}
        <NumberField
          id="b-cp"
          label="Creation points"
          value={s.creationPoints}
          min={5}
          max={200}
          onChange={(v) => props.edit((x) => void (x.creationPoints = Math.trunc(v)))}
          hint={`Starting Potential ${potentialFromSum(s.creationPoints, props.options)}; the table uses ${props.options.creationPoints}.`}
          problems={props.at('creationPoints')}
        />
      </div>
      <TextField id="b-player" label="Player (optional)" value={s.player ?? ''} onInput={(v) => props.edit((x) => (v ? (x.player = v) : delete x.player))} />
      <div class="field">
        <label for="b-import">Or open a sheet file (YAML or JSON)</label>
        <input
          id="b-import"
          type="file"
          accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) props.onImport(f);
            e.currentTarget.value = '';
          }}
        />
      </div>
    </div>
  );
}

function PriorityStep(props: { draft: Draft; setDraft: (fn: (d: Draft) => Draft) => void; check: DraftCheck }) {
  const map = props.draft.priority;
  const problem = problemsAt(props.check, 'priorities');
  return (
    <div class="stack">
      <p>Rank the six attributes: two First, two Second, one Third and one Handicap. A higher priority allows a higher value.</p>
      <div class="table-scroll"><table class="priority-grid" aria-describedby={problem.length ? 'prio-err' : undefined}>
        <caption class="small muted" style={{ textAlign: 'left', paddingBottom: '6px' }}>
          {PRIORITIES.map((p) => `${PRIORITY_LABELS[p]}: ${attributesAt(map, p).length} of ${PRIORITY_SLOTS[p]}`).join(' · ')}
        </caption>
        <thead>
          <tr>
            <th scope="col">Attribute</th>
            {PRIORITIES.map((p) => (
              <th scope="col" key={p}>
                {PRIORITY_LABELS[p]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ATTRIBUTES.map((a) => (
            <tr key={a}>
              <th scope="row" id={`prio-${a}`}>
                {ATTRIBUTE_LABELS[a]}
              </th>
              {PRIORITIES.map((p) => (
                <td key={p}>
                  <label>
                    <input
                      type="radio"
                      name={`prio-${a}`}
                      checked={map[a] === p}
                      aria-label={`${ATTRIBUTE_LABELS[a]}: ${PRIORITY_LABELS[p]}`}
                      onChange={() => props.setDraft((d) => ({ ...d, priority: { ...d.priority, [a]: p } }))}
                    />
                  </label>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table></div>
      <Problems id="prio-err" problems={problem} />
      {!problem.length && prioritiesOf(map) && <p class="ok-text">The order of importance is complete.</p>}
    </div>
  );
}

function AttributeStep(props: { draft: Draft; setDraft: (fn: (d: Draft) => Draft) => void; edit: Edit; check: DraftCheck; options: TableOptions }) {
  const { draft } = props;
  const s = draft.sheet;
  const sum = attributeSum(s.attributes);
  const ordered = PRIORITIES.flatMap((p) => attributesAt(draft.priority, p));
  const priorities = prioritiesOf(draft.priority);
  const fill = () => {
    if (!priorities) return;
    const keep = Object.fromEntries(ATTRIBUTES.filter((a) => s.attributes[a] > 0).map((a) => [a, s.attributes[a]]));
    const values = allocateAttributes(s.creationPoints, priorities, keep);
    props.edit((x) => void (x.attributes = values));
  };
  return (
    <div class="stack">
      <p>
        Spend the creation points on the attributes. Each priority has a cap (40, 30, 20 and 10 percent of the points) and a lower priority can never
        be above a higher one.
      </p>
      <p>
        <strong>
          {sum} of {s.creationPoints} creation points spent
        </strong>{' '}
        · Potential {potentialFromSum(sum, props.options)} (attribute sum ÷ {props.options.potential === 'later' ? 10 : 5}, at least 1)
      </p>
      <Problems problems={problemsAt(props.check, 'attributes')} />
      {!priorities && <p class="notice warn">Finish the order of importance (step 2) first: the caps depend on it.</p>}
      <div class="attr-grid">
        {ordered.map((a) => {
          const limit = attributeLimit(draft, a);
          const ps = problemsAt(props.check, `attributes.${a}`);
          const v = s.attributes[a];
          const set = (n: number) => props.edit((x) => void (x.attributes[a] = Math.max(0, Math.trunc(n))));
          return (
            <div key={a} class={`attr ${ps.length ? 'bad' : ''}`}>
              <div class="spread">
                <label for={`b-attr-${a}`}>{ATTRIBUTE_LABELS[a]}</label>
                <span class="tag">{PRIORITY_LABELS[draft.priority[a]]}</span>
              </div>
              <div class="stepper">
                <button type="button" aria-label={`Lower ${ATTRIBUTE_LABELS[a]}`} onClick={() => set(v - 1)} disabled={v <= 0}>
                  −
                </button>
                <input
                  id={`b-attr-${a}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  value={v}
                  aria-invalid={ps.length ? 'true' : undefined}
                  aria-describedby={`b-attr-${a}-hint${ps.length ? ` b-attr-${a}-err` : ''}`}
                  onInput={(e) => {
                    const n = e.currentTarget.valueAsNumber;
                    if (Number.isFinite(n)) set(n);
                  }}
                />
                <button type="button" aria-label={`Raise ${ATTRIBUTE_LABELS[a]}`} onClick={() => set(v + 1)}>
                  +
                </button>
              </div>
              <span id={`b-attr-${a}-hint`} class="hint small muted">
                {limit.text}
              </span>
              <Problems id={`b-attr-${a}-err`} problems={ps} />
            </div>
          );
        })}
      </div>
      <p>
        <button type="button" onClick={fill} disabled={!priorities || sum >= s.creationPoints}>
          Spend the remaining points for me
        </button>{' '}
        <span class="small muted">Highest priority first, within every cap; values you set are kept.</span>
      </p>
    </div>
  );
}

function MaximaStep(props: { draft: Draft; options: TableOptions }) {
  const a = props.draft.sheet.attributes;
  const d = derivedOf(props.draft, props.options);
  const rows: [string, string, string][] = [
    ['Unlocked skills', `${a.competence}`, `Competence ${a.competence}; Block, Dodge and Resist are free`],
    ['Special abilities', `${a.cunning}`, `Cunning ${a.cunning}; a Quality counts two, the culture ability is free`],
    ['Powers and upgrades', `${a.power}`, `Power ${a.power}; unused points may pay for special ability upgrades`],
    ['Talents and upgrades', `${a.knowledge}`, `Knowledge ${a.knowledge}; the native language is free`],
    ['Prowess Pool', `${d.prowessPool} dice`, `3 × Prowess ${a.prowess}: dice for skills above their starting 2`],
    ['Dice on one skill', `${d.maxSkillDice}`, `Potential ${d.potential} + 2`],
    ['Hits before Injured', `${d.hitsBeforeInjured}`, d.hitsBeforeInjuredParts.map((p) => `${p.value} ${p.source}`).join(' + ')],
  ];
  return (
    <div class="stack">
      <p>The attributes set how many traits the character starts with. Unused slots can be filled later.</p>
      <div class="sheet-view">
        <div class="table-scroll"><table>
          <thead>
            <tr>
              <th scope="col">Trait</th>
              <th scope="col">Most at creation</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([k, v, why]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{v}</td>
                <td>{why}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
      </div>
    </div>
  );
}

// The effects the builder offers: every type but spending criticals, which the encounter's spend command applies.
const EFFECT_KINDS = EFFECT_TYPES.filter((t) => t !== 'critical-spend').map((t) => ({ value: t, label: EFFECTS[t].label }));

function makeEffect(type: AbilityEffect['type'], n: number, skills: string[]): AbilityEffect {
  const scope = skills.length ? { scope: { skills, role: 'both' as const } } : {};
  switch (type) {
    case 'bonus-result':
      return { type, amount: n, ...scope };
    case 'bonus-dice':
      return { type, dice: n, ...scope };
    case 'reroll':
    case 'force-reroll':
      return { type, dice: n, keep: 'second', mayTouchHighest: false, ...scope };
    case 'ignore-attacker-dice':
      return { type, dice: n };
    case 'extra-hits':
      return { type, hits: n, ...scope };
    case 'extra-hits-before-injured':
      return { type, hits: n };
    case 'steer':
      return { type, steps: Math.min(2, n), ...scope };
    default:
      return { type: 'described' };
  }
}

function scopeSkills(e: AbilityEffect): string[] {
  return 'scope' in e && e.scope?.skills ? e.scope.skills : [];
}

function TraitStep(props: { draft: Draft; edit: Edit; at: At; check: DraftCheck; options: TableOptions }) {
  const s = props.draft.sheet;
  const b = budgets(props.draft, props.options);
  const budget = (k: Budget['key']) => b.find((x) => x.key === k)!;
  const maxDice = potentialFromSum(attributeSum(s.attributes), props.options) + 2;
  const weapons = s.gear.filter((g) => g.type === 'weapon').map((g) => g.name);
  const shields = s.gear.filter((g) => g.type === 'shield').map((g) => g.name);
  const counter = (k: Budget['key']) => {
    const x = budget(k);
    return <span class={x.used > x.limit ? 'error-text' : 'muted'}>{x.text}</span>;
  };
  return (
    <div class="stack">
      <section aria-labelledby="skills-h">
        <div class="spread">
          <h3 id="skills-h">Skills</h3>
          <span>
            {counter('skills')} · {counter('prowess')}
          </span>
        </div>
        <p class="small muted">
          A skill starts at 2 dice; dice above 2 come from the Prowess Pool. At most {maxDice} dice on one skill (Potential + 2).
        </p>
        <Problems problems={props.at('skills')} />
        <ul class="item-list">
          {ownSkills(s).map(({ skill, index: i }) => {
            const ps = props.check.report ? problemsIn(props.check, 'traits').filter((p) => p.path.startsWith(`skills[${i}]`)) : [];
            return (
              <li key={i} class={ps.length ? 'bad' : ''}>
                <div class="item-grid">
                  <TextField id={`b-skill-${i}-name`} label="Skill" value={skill.name} onInput={(v) => props.edit((x) => void (x.skills[i]!.name = v))} problems={props.at(`skills[${i}].name`)} />
                  <SelectField id={`b-skill-${i}-attr`} label="Attribute" value={skill.attribute} options={ATTRIBUTE_OPTIONS} onChange={(v) => props.edit((x) => void (x.skills[i]!.attribute = v))} />
                  <NumberField
                    id={`b-skill-${i}-dice`}
                    label="Dice"
                    value={skill.dice}
                    min={2}
                    max={maxDice}
                    hint={`2 to ${maxDice}`}
                    onChange={(v) => props.edit((x) => void (x.skills[i]!.dice = Math.trunc(v)))}
                    problems={props.at(`skills[${i}].dice`)}
                  />
                  <SelectField
                    id={`b-skill-${i}-gear`}
                    label="Weapon or shield"
                    value={skill.weapon ? `w:${skill.weapon}` : skill.shield ? `s:${skill.shield}` : ''}
                    options={[
                      { value: '', label: 'None' },
                      ...weapons.map((w) => ({ value: `w:${w}`, label: `Weapon: ${w}` })),
                      ...shields.map((w) => ({ value: `s:${w}`, label: `Shield: ${w}` })),
                      ...(skill.weapon && !weapons.includes(skill.weapon) ? [{ value: `w:${skill.weapon}`, label: `Weapon: ${skill.weapon} (missing)` }] : []),
                      ...(skill.shield && !shields.includes(skill.shield) ? [{ value: `s:${skill.shield}`, label: `Shield: ${skill.shield} (missing)` }] : []),
                    ]}
                    onChange={(v) =>
                      props.edit((x) => {
                        const k = x.skills[i]!;
                        delete k.weapon;
                        delete k.shield;
                        if (v.startsWith('w:')) k.weapon = v.slice(2);
                        if (v.startsWith('s:')) k.shield = v.slice(2);
                      })
                    }
                    problems={[...props.at(`skills[${i}].weapon`), ...props.at(`skills[${i}].shield`)]}
                  />
                </div>
                {(() => {
                  // The encounter adds the attribute the table's option attackAttribute gives the weapon: say so here.
                  const w = skill.weapon ? s.gear.find((g) => g.type === 'weapon' && g.name.toLowerCase() === skill.weapon!.toLowerCase()) : undefined;
                  return w && w.type === 'weapon' ? (
                    <p class="small muted" id={`b-skill-${i}-attack`}>
                      {weaponAttributeNote(props.options, w, skill.attribute).text}
                    </p>
                  ) : null;
                })()}
                <button type="button" class="quiet danger" onClick={() => props.edit((x) => void x.skills.splice(i, 1))} aria-label={`Remove skill ${skill.name || i + 1}`}>
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          onClick={() => {
            props.edit((x) => void x.skills.push({ name: '', attribute: 'competence', dice: 2 }));
            focusSoon(`b-skill-${s.skills.length}-name`);
          }}
        >
          + Add a skill
        </button>
        <h4 style={{ marginTop: '12px' }}>Defense skills (free for everyone)</h4>
        <div class="item-grid">
          {DEFENSE_SKILLS.map((d) => {
            const listed = s.skills.findIndex((k) => k.name.toLowerCase() === d.name.toLowerCase());
            const dice = listed >= 0 ? s.skills[listed]!.dice : 2;
            return (
              <NumberField
                key={d.name}
                id={`b-def-${d.name}`}
                label={`${d.name} (${ATTRIBUTE_LABELS[d.attribute]})`}
                value={dice}
                min={2}
                max={maxDice}
                onChange={(v) =>
                  props.edit((x) => {
                    const next = setDefenseDice(x, d.name, listed >= 0 ? x.skills[listed]!.attribute : d.attribute, Math.trunc(v));
                    x.skills = next.skills;
                  })
                }
                problems={listed >= 0 ? props.at(`skills[${listed}].dice`) : []}
              />
            );
          })}
        </div>
      </section>

      <section aria-labelledby="abilities-h">
        <div class="spread">
          <h3 id="abilities-h">Special abilities</h3>
          {counter('abilities')}
        </div>
        <p class="small muted">
          One ability may be your culture ability (free). A Quality is always in effect and counts two. Each upgrade adds one to its benefit; each
          limiting condition pays for one upgrade.
        </p>
        <Problems problems={props.at('specialAbilities')} />
        <ul class="item-list">
          {s.specialAbilities.map((a, i) => {
            const bad = problemsIn(props.check, 'traits').some((p) => p.path.startsWith(`specialAbilities[${i}]`));
            return (
              <li key={i} class={bad ? 'bad' : ''}>
                <div class="item-grid">
                  <TextField id={`b-sa-${i}-name`} label="Ability" value={a.name} onInput={(v) => props.edit((x) => void (x.specialAbilities[i]!.name = v))} problems={props.at(`specialAbilities[${i}].name`)} />
                  <SelectField
                    id={`b-sa-${i}-effect`}
                    label="Effect"
                    value={a.effect.type}
                    options={EFFECT_KINDS}
                    onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.effect = makeEffect(v, effectSize(a.effect), scopeSkills(a.effect))))}
                  />
                  {a.effect.type !== 'described' && (
                    <NumberField
                      id={`b-sa-${i}-amount`}
                      label="Amount"
                      value={effectSize(a.effect)}
                      min={1}
                      max={EFFECTS[a.effect.type].size?.max ?? 10}
                      onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.effect = makeEffect(a.effect.type, Math.max(1, Math.trunc(v)), scopeSkills(a.effect))))}
                    />
                  )}
                  <NumberField
                    id={`b-sa-${i}-upgrades`}
                    label="Upgrades"
                    value={a.upgrades}
                    min={0}
                    onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.upgrades = Math.max(0, Math.trunc(v))))}
                    problems={props.at(`specialAbilities[${i}].upgrades`)}
                  />
                  <TextField
                    id={`b-sa-${i}-cond`}
                    label="Limiting conditions"
                    hint="Separate with ;"
                    value={a.conditional.join('; ')}
                    onInput={(v) =>
                      props.edit(
                        (x) =>
                          void (x.specialAbilities[i]!.conditional = v
                            .split(';')
                            .map((t) => t.trim())
                            .filter(Boolean)),
                      )
                    }
                  />
                </div>
                <div class="row">
                  <Check label="Culture ability (free)" checked={a.culture} onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.culture = v))} />
                  <Check label="Quality (counts two)" checked={a.quality} onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.quality = v))} />
                  <span class="small muted">{describeEffect(a.effect)}</span>
                  <button type="button" class="quiet danger" onClick={() => props.edit((x) => void x.specialAbilities.splice(i, 1))} aria-label={`Remove special ability ${a.name || i + 1}`}>
                    Remove
                  </button>
                </div>
                <Problems problems={[...props.at(`specialAbilities[${i}].quality`), ...props.at(`specialAbilities[${i}].exceptionalGear`)]} />
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          onClick={() => {
            props.edit((x) => void x.specialAbilities.push({ name: '', conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' } }));
            focusSoon(`b-sa-${s.specialAbilities.length}-name`);
          }}
        >
          + Add a special ability
        </button>
      </section>

      <section aria-labelledby="powers-h">
        <div class="spread">
          <h3 id="powers-h">Powers</h3>
          {counter('powers')}
        </div>
        <p class="small muted">A power affects one target, inflicts at most one hit and lasts Instant or Maintain; each step beyond is an upgrade.</p>
        <Problems problems={props.at('powers')} />
        <ul class="item-list">
          {s.powers.map((p, i) => (
            <li key={i}>
              <div class="item-grid">
                <TextField id={`b-pw-${i}-name`} label="Power" value={p.name} onInput={(v) => props.edit((x) => void (x.powers[i]!.name = v))} problems={props.at(`powers[${i}].name`)} />
                <TextField id={`b-pw-${i}-skill`} label="Rolled with skill" value={p.skill ?? ''} onInput={(v) => props.edit((x) => (v ? (x.powers[i]!.skill = v) : delete x.powers[i]!.skill))} />
                <SelectField id={`b-pw-${i}-dur`} label="Duration" value={p.duration} options={POWER_DURATIONS.map((d) => ({ value: d, label: d }))} onChange={(v) => props.edit((x) => void (x.powers[i]!.duration = v))} />
                <NumberField id={`b-pw-${i}-targets`} label="Targets" value={p.targets} min={1} onChange={(v) => props.edit((x) => void (x.powers[i]!.targets = Math.max(1, Math.trunc(v))))} />
                <NumberField id={`b-pw-${i}-hits`} label="Hits" value={p.hits} min={0} onChange={(v) => props.edit((x) => void (x.powers[i]!.hits = Math.max(0, Math.trunc(v))))} />
                <NumberField
                  id={`b-pw-${i}-upgrades`}
                  label="Upgrades"
                  value={p.upgrades}
                  min={0}
                  onChange={(v) => props.edit((x) => void (x.powers[i]!.upgrades = Math.max(0, Math.trunc(v))))}
                  problems={[...props.at(`powers[${i}].upgrades`), ...props.at(`powers[${i}].gear`)]}
                />
              </div>
              <button type="button" class="quiet danger" onClick={() => props.edit((x) => void x.powers.splice(i, 1))} aria-label={`Remove power ${p.name || i + 1}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => {
            props.edit((x) => void x.powers.push({ name: '', duration: 'instant', targets: 1, hits: 0, upgrades: 0 }));
            focusSoon(`b-pw-${s.powers.length}-name`);
          }}
        >
          + Add a power
        </button>
      </section>

      <section aria-labelledby="talents-h">
        <div class="spread">
          <h3 id="talents-h">Talents</h3>
          {counter('talents')}
        </div>
        <p class="small muted">Languages, areas of expertise and resources. Your native language is free.</p>
        <Problems problems={props.at('talents')} />
        <ul class="item-list">
          {s.talents.map((t, i) => (
            <li key={i}>
              <div class="item-grid">
                <TextField id={`b-tal-${i}-name`} label="Talent" value={t.name} onInput={(v) => props.edit((x) => void (x.talents[i]!.name = v))} problems={props.at(`talents[${i}].name`)} />
                <SelectField
                  id={`b-tal-${i}-kind`}
                  label="Kind"
                  value={t.kind}
                  options={[
                    { value: 'language', label: 'Language' },
                    { value: 'expertise', label: 'Expertise' },
                    { value: 'resource', label: 'Resource' },
                  ]}
                  onChange={(v) =>
                    props.edit((x) => {
                      x.talents[i]!.kind = v;
                      if (v !== 'language') x.talents[i]!.native = false;
                    })
                  }
                />
                {t.kind === 'expertise' && (
                  <>
                    <NumberField id={`b-tal-${i}-uses`} label="Uses a session" value={t.uses} min={1} onChange={(v) => props.edit((x) => void (x.talents[i]!.uses = Math.max(1, Math.trunc(v))))} hint="Each above 1 is an upgrade" />
                    <NumberField id={`b-tal-${i}-dice`} label="Bonus dice" value={t.dice} min={1} onChange={(v) => props.edit((x) => void (x.talents[i]!.dice = Math.max(1, Math.trunc(v))))} hint="Each above 1 is an upgrade" />
                  </>
                )}
                {t.kind === 'resource' && (
                  <NumberField id={`b-tal-${i}-cap`} label="Resource Cap" value={t.resourceCap} min={1} onChange={(v) => props.edit((x) => void (x.talents[i]!.resourceCap = Math.max(1, Math.trunc(v))))} hint="Each above 1 is an upgrade" />
                )}
              </div>
              <div class="row">
                {t.kind === 'language' && <Check label="Native language (free)" checked={t.native} onChange={(v) => props.edit((x) => void (x.talents[i]!.native = v))} />}
                <button type="button" class="quiet danger" onClick={() => props.edit((x) => void x.talents.splice(i, 1))} aria-label={`Remove talent ${t.name || i + 1}`}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => {
            props.edit((x) => void x.talents.push({ name: '', kind: s.talents.length === 0 ? 'language' : 'expertise', native: s.talents.length === 0, uses: 1, dice: 1, resourceCap: 1 }));
            focusSoon(`b-tal-${s.talents.length}-name`);
          }}
        >
          + Add a talent
        </button>
      </section>
    </div>
  );
}

function GearStep(props: { draft: Draft; edit: Edit; at: At; check: DraftCheck }) {
  const s = props.draft.sheet;
  const linkProblems = problemsIn(props.check, 'gear').filter((p) => p.path.startsWith('skills'));
  const missing = s.skills.flatMap((k) => [
    ...(k.weapon && !s.gear.some((g) => g.type === 'weapon' && g.name.toLowerCase() === k.weapon!.toLowerCase()) ? [{ type: 'weapon' as const, name: k.weapon }] : []),
    ...(k.shield && !s.gear.some((g) => g.type === 'shield' && g.name.toLowerCase() === k.shield!.toLowerCase()) ? [{ type: 'shield' as const, name: k.shield }] : []),
  ]);
  const blank = (type: Gear['type'], name = ''): Gear =>
    type === 'weapon'
      ? { type, name, size: 'one-handed', range: 'melee', group: 'blades' }
      : type === 'shield'
        ? { type, name, weight: 'light' }
        : { type, name };
  const add = (type: Gear['type']) => {
    props.edit((x) => void x.gear.push(blank(type)));
    focusSoon(`b-gear-${s.gear.length}-name`);
  };
  return (
    <div class="stack">
      <p>A weapon skill starts with its weapon, a shield skill with its shield. Add armor and anything else the character carries.</p>
      <Problems problems={linkProblems} />
      {missing.length > 0 && (
        <p>
          <button type="button" onClick={() => props.edit((x) => void x.gear.push(...missing.map((m) => blank(m.type, m.name))))}>
            Add the missing {missing.map((m) => m.name).join(', ')}
          </button>
        </p>
      )}
      <ul class="item-list">
        {s.gear.map((g, i) => (
          <li key={i}>
            <div class="item-grid">
              <TextField id={`b-gear-${i}-name`} label="Item" value={g.name} onInput={(v) => props.edit((x) => void (x.gear[i]!.name = v))} problems={props.at(`gear[${i}].name`)} />
              <SelectField
                id={`b-gear-${i}-type`}
                label="Kind"
                value={g.type}
                options={[
                  { value: 'weapon', label: 'Weapon' },
                  { value: 'shield', label: 'Shield' },
                  { value: 'armor', label: 'Armor' },
                  { value: 'item', label: 'Other item' },
                ]}
                onChange={(v) => props.edit((x) => void (x.gear[i] = blank(v, g.name)))}
              />
              {g.type === 'weapon' && (
                <>
                  <SelectField
                    id={`b-gear-${i}-size`}
                    label="Size"
                    value={g.size}
                    options={[
                      { value: 'small', label: 'Small' },
                      { value: 'one-handed', label: 'One-handed' },
                      { value: 'two-handed', label: 'Two-handed' },
                    ]}
                    onChange={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'weapon' }>).size = v))}
                  />
                  <SelectField
                    id={`b-gear-${i}-range`}
                    label="Range"
                    value={g.range}
                    options={[
                      { value: 'melee', label: 'Hand-to-hand' },
                      { value: 'ranged', label: 'Ranged' },
                    ]}
                    onChange={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'weapon' }>).range = v))}
                  />
                  <TextField id={`b-gear-${i}-group`} label="Group" value={g.group} onInput={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'weapon' }>).group = v || 'blades'))} />
                </>
              )}
              {g.type === 'shield' && (
                <SelectField
                  id={`b-gear-${i}-weight`}
                  label="Weight"
                  value={g.weight}
                  options={[
                    { value: 'light', label: 'Light' },
                    { value: 'heavy', label: 'Heavy' },
                  ]}
                  onChange={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'shield' }>).weight = v))}
                />
              )}
            </div>
            <button type="button" class="quiet danger" onClick={() => props.edit((x) => void x.gear.splice(i, 1))} aria-label={`Remove ${g.name || 'item'}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div class="row">
        <button type="button" onClick={() => add('weapon')}>
          + Weapon
        </button>
        <button type="button" onClick={() => add('shield')}>
          + Shield
        </button>
        <button type="button" onClick={() => add('armor')}>
          + Armor
        </button>
        <button type="button" onClick={() => add('item')}>
          + Other item
        </button>
      </div>
    </div>
  );
}

function ReviewStep(props: {
  draft: Draft;
  check: DraftCheck;
  valid: boolean;
  options: TableOptions;
  go: (s: StepId) => void;
  onExport: (f: 'yaml' | 'json') => void;
  onImport: (f: File) => void;
  onAdd: (() => void) | undefined;
  busy: boolean;
  gm: boolean;
  hidden: boolean;
  setHidden: (v: boolean) => void;
  editing: boolean;
}) {
  const list = problems(props.check);
  const notes = props.check.report?.notes ?? [];
  return (
    <div class="stack">
      {list.length === 0 ? (
        <p class="notice good">Legal character: every creation rule of the table holds.</p>
      ) : (
        <div class="notice bad">
          <p>
            <strong>{plural(list.length, 'rule is', 'rules are')} broken:</strong>
          </p>
          <ul>
            {list.map((p, i) => (
              <li key={i}>
                {p.message}
                {p.source && <span class="rule-source">{p.source}</span>}{' '}
                <button type="button" class="quiet" onClick={() => props.go(stepOfPath(p.path))}>
                  Fix it
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length > 0 && (
        <details>
          <summary>{plural(notes.length, 'note')} (not errors)</summary>
          <ul>
            {notes.map((n, i) => (
              <li key={i}>{n.message}</li>
            ))}
          </ul>
        </details>
      )}
      <div class="row">
        <button type="button" onClick={() => props.onExport('yaml')}>
          Save as YAML
        </button>
        <button type="button" onClick={() => props.onExport('json')}>
          Save as JSON
        </button>
        <button type="button" onClick={() => window.print()} disabled={!props.check.sheet}>
          Print the sheet
        </button>
        <label class="button" for="b-import-2">
          Open a file…
        </label>
        <input
          id="b-import-2"
          class="sr-only"
          type="file"
          accept=".yaml,.yml,.json"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) props.onImport(f);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {props.onAdd && (
        <div class="card" style={{ background: 'var(--accent-soft)' }}>
          {props.gm && !props.editing && (
            <Check label="Hidden from the players (they see only its name and condition)" checked={props.hidden} onChange={props.setHidden} />
          )}
          <button type="button" class="primary big" disabled={!props.valid || props.busy} onClick={props.onAdd}>
            {props.busy ? 'Saving…' : props.editing ? 'Save the changes at the table' : 'Add to the table'}
          </button>
          {!props.valid && <p class="small muted">{props.editing ? 'The changes are saved once every rule holds.' : 'A character joins the table once every rule holds.'}</p>}
        </div>
      )}
      {props.check.sheet && <SheetView sheet={props.check.sheet} options={props.options} headingLevel={3} />}
    </div>
  );
}

/** The builder on its own page, with a choice of rules. */
export function BuilderPage() {
  const [preset, setPreset] = useState<Preset>(() => (localStorage.getItem('personae.builder.preset') as Preset) || 'core-2011');
  const options = useMemo(() => presetOptions(PRESETS.includes(preset) ? preset : 'core-2011'), [preset]);
  return (
    <Frame where="Character builder">
      <main id="main">
        <div class="spread">
          <h1>Character builder</h1>
          <SelectField
            id="b-preset"
            label="Rules"
            value={preset}
            options={PRESETS.map((p) => ({ value: p, label: p }))}
            onChange={(v) => {
              setPreset(v);
              localStorage.setItem('personae.builder.preset', v);
            }}
          />
        </div>
        <p class="muted">
          Follow the six steps; every rule is checked as you go. Save the sheet as a file, print it, or <a href="/" onClick={link('/')}>start a table</a> and add
          it there.
        </p>
        <Builder options={options} storageKey="personae.draft" />
      </main>
    </Frame>
  );
}

export type { AttributeName };
