export * from './rules';
export * from './options';
export * from './test';
export * from './location';
