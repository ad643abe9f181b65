import { DiceInputError } from '@personae/dice';
import { formatCitation, type Citation } from './citation';

/**
 * The one refusal type of every ruleset and of the table host: a stable machine-readable `code`,
 * a message for people, the `field` of the command or sheet at fault (a dotted path) and, when a rule
 * of the documents forbids the action, the rule's citation. The message is plain words; whoever shows
 * the refusal adds the citation (the wire form, `toCommandError`, ends the message with it).
 */
export class RuleError extends Error {
  override readonly name = 'RuleError';
  readonly code: string;
  readonly field: string | undefined;
  readonly rule: Citation | undefined;

  constructor(code: string, message: string, field?: string, rule?: Citation) {
    super(message);
    this.code = code;
    this.field = field;
    this.rule = rule;
  }

  toJSON(): CommandError {
    return toCommandError(this);
  }
}

export function isRuleError(error: unknown): error is RuleError {
  return error instanceof RuleError;
}

/** The wire form of a refusal: the message ends with the citation, which `rule` also carries apart. */
export interface CommandError {
  code: string;
  message: string;
  field?: string;
  rule?: Citation;
}

export function toCommandError(error: RuleError | { code: string; message: string; field?: string | undefined; rule?: Citation | undefined }): CommandError {
  const out: CommandError = { code: error.code, message: error.rule ? `${error.message} (${formatCitation(error.rule)})` : error.message };
  if (error.field !== undefined) out.field = error.field;
  if (error.rule) out.rule = { document: error.rule.document, section: error.rule.section };
  return out;
}

/**
 * The one translation of a failed decision into its wire form: a ruleset's refusal, or dice typed in
 * that do not fit the roll. Anything else is not a refusal but a fault, and gives null.
 */
export function refusalOf(error: unknown): CommandError | null {
  if (error instanceof RuleError) return toCommandError(error);
  if (error instanceof DiceInputError) return { code: 'dice_input', message: error.message, field: 'dice' };
  return null;
}
