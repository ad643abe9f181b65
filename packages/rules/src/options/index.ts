export * from './options';
export * from './doc';
