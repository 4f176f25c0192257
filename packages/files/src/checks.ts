// What the gateway checks of a file as its bytes stream through (no I/O, no database): its type
// from its bytes and its name made safe. `@handoff/files/checks`, apart from the stores.
export * from './sniff.ts';
export * from './filename.ts';
