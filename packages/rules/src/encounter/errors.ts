// An action the rules refuse throws core's `RuleError` before any event is emitted, so the state is
// left as it was; `rule` cites the section of the documents that forbids it (see ./sections).
export { RuleError } from '@personae/core';
export { rule } from './sections';
export const CORE = 'personae-core-2011.txt';
export const V4 = 'personae-v4-srd-playing.txt';
export const WEB = 'personae-playing-web.txt';
