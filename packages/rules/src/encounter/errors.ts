/**
 * An action the rules refuse. The decider throws it before emitting any event, so the state is left
 * as it was. `code` is stable for programs (the server maps it to a response), `rule` names the
 * document and section that forbids the action, `field` the part of the command at fault.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly rule?: string,
  ) {
    super(message);
  }

  toJSON(): { code: string; message: string; field?: string; rule?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.rule !== undefined ? { rule: this.rule } : {}),
    };
  }
}

export { rule } from './sections';
export const CORE = 'personae-core-2011.txt';
export const V4 = 'personae-v4-srd-playing.txt';
export const WEB = 'personae-playing-web.txt';
