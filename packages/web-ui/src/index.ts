export { ActionButton, ConfirmButton, type Runner } from './buttons.tsx';
export { Field, TextArea, TextField } from './field.tsx';
export { FileLink } from './file-link.tsx';
export { fileSize, fileTypeName } from './file-words.ts';
export { screenHooks } from './hooks.ts';
export { LoadError, OutcomeLine, type Outcome } from './outcome.tsx';
