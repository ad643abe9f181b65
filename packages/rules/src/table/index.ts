export * from './commands';
export * from './table';
export * from './view';
export * from './decider';
