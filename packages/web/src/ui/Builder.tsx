import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { STEPS, budgets, checkDraft, draftFromSheet, draftSheet, newDraft, problems, problemsAt, problemsIn, stepOfPath, type Budget, type Draft, type StepId } from '../lib/draft';
import { PRESETS, attributeSum, potentialFromSum, presetOptions, type AttributeName, type CharacterSheet, type Preset, type TableOptions } from '../lib/rules';
import { download, fileNameFor, readSheetFile, writeSheetFile } from '../lib/sheet-files';
import { plural } from '../lib/format';
import { Frame, link } from './Frame';
import { SelectField } from './fields';
import { SheetView } from './SheetView';
import { AttributeStep } from './builder/AttributeStep';
import { ConceptStep } from './builder/ConceptStep';
import { GearStep } from './builder/GearStep';
import { MaximaStep } from './builder/MaximaStep';
import { PriorityStep } from './builder/PriorityStep';
import { ReviewStep } from './builder/ReviewStep';
import { TraitStep } from './builder/TraitStep';

const order0: StepId[] = [...STEPS.map((s) => s.id), 'review'];

export interface BuilderProps {
  options: TableOptions;
  /** Where the draft is kept between visits (localStorage key). */
  storageKey: string;
  /** The GM may build supporting characters and hide them. */
  gm?: boolean;
  /** Table mode: add the finished character to the table. */
  onAdd?: (sheet: CharacterSheet, extra: { hidden: boolean; outOfScene: boolean }) => Promise<void>;
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
  const [outOfScene, setOutOfScene] = useState(false);
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
      await props.onAdd(check.sheet, { hidden, outOfScene });
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
            outOfScene={outOfScene}
            setOutOfScene={setOutOfScene}
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
        <PotentialNote sheet={draft.sheet} options={options} />
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

/**
 * Potential comes from the attribute sum (personae-core-2011.txt, "Step 1: Establish Starting
 * Potential"): while creation points are left unspent it is lower than the starting Potential the
 * points promise, and the note says both.
 */
function PotentialNote(props: { sheet: CharacterSheet; options: TableOptions }) {
  const sum = attributeSum(props.sheet.attributes);
  const now = potentialFromSum(sum, props.options);
  const starting = potentialFromSum(props.sheet.creationPoints, props.options);
  return (
    <p class="small muted" id="b-potential">
      Potential {now} · at most {now + 2} dice a skill
      {sum < props.sheet.creationPoints && now !== starting && ` (Potential ${starting} once all ${props.sheet.creationPoints} creation points are spent on attributes)`}
    </p>
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
