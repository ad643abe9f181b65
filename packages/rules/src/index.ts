export * from './options';
export * from './effects';
export * from './challenge';
export * from './character';
export * from './odds';
export * from './encounter';
export * from './table';
export * from './lab/rejudge';
