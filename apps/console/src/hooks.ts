import { screenHooks } from '@handoff/web-ui';
import { errorText } from './api.ts';

// The hooks behind every screen, naming what failed with the problem's code, for staff.
export const { useAction, useLoad } = screenHooks(errorText);
