/** Work younger than this is left to the call that started it; the sweep takes what is older. */
export const RECOVERY_GRACE_MS = 30_000;
