export * from './options';
export * from './effects';
export * from './challenge';
export * from './odds';
export * from './encounter';
