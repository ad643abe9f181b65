/** The design lab's heavier parts, loaded on demand (the rejudging brings the scenario reader). */
export { rejudge, type RejudgedRoll, type RollVerdict } from '@personae/rules/lab/rejudge';
