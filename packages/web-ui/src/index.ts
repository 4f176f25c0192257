export { ActionButton, ConfirmButton, type Runner } from './buttons.tsx';
export { Field, TextArea, TextField } from './field.tsx';
export { screenHooks } from './hooks.ts';
export { LoadError, OutcomeLine, type Outcome } from './outcome.tsx';
