import { formatCitation, type Citation } from './citation';

/**
 * The one refusal type of every ruleset and of the table domain: a stable machine-readable `code`,
 * a message for people, the `field` of the command or sheet at fault (a dotted path) and, when a rule
 * of the documents forbids the action, the rule's citation.
 */
export class RuleError extends Error {
  override readonly name = 'RuleError';
  readonly code: string;
  readonly field: string | undefined;
  readonly rule: Citation | undefined;

  constructor(code: string, message: string, field?: string, rule?: Citation) {
    super(rule ? `${message} (${formatCitation(rule)})` : message);
    this.code = code;
    this.field = field;
    this.rule = rule;
  }
}

/** True for a `RuleError`, or for an error of another copy of this module with the same shape. */
export function isRuleError(error: unknown): error is RuleError {
  if (error instanceof RuleError) return true;
  return (
    error instanceof Error &&
    (error.name === 'RuleError' || error.name === 'DomainError') &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

/** The wire form of a refusal. */
export interface CommandError {
  code: string;
  message: string;
  field?: string;
  rule?: Citation;
}

export function toCommandError(error: RuleError | { code: string; message: string; field?: unknown; rule?: unknown }): CommandError {
  const out: CommandError = { code: error.code, message: error.message };
  if (typeof error.field === 'string') out.field = error.field;
  const rule = error.rule as Citation | undefined;
  if (rule && typeof rule.document === 'string' && typeof rule.section === 'string') out.rule = { document: rule.document, section: rule.section };
  return out;
}
