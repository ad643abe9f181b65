/**
 * An event as stored and sent: what happened (`type`, `data`, the rule's own payload) apart from
 * when, by whom and where in the log (`metadata`). Rulesets decide and evolve over `type` and `data`;
 * the host fills `metadata` when it appends.
 */
export interface EventMetadata {
  /** Position in the table's log, from 1, without gaps. */
  readonly seq: number;
  /** The participant whose command produced the event. */
  readonly by: string;
  /** ISO 8601 time the host accepted the command. */
  readonly at: string;
  /** The command that produced it, when the client named one. */
  readonly commandId?: string;
}

export interface Envelope<T extends string = string, D = unknown> {
  readonly type: T;
  readonly data: D;
  readonly metadata: EventMetadata;
}

export function envelope<T extends string, D>(type: T, data: D, metadata: EventMetadata): Envelope<T, D> {
  return { type, data, metadata };
}
