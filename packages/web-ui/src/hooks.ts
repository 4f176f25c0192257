import { useEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from './outcome.tsx';

/**
 * The two hooks behind every screen, telling what failed in the app's own words (`errorText`:
 * the console names the problem's code for staff, the workspace speaks plainly to providers).
 */
export function screenHooks(errorText: (error: unknown) => string) {
  /**
   * Runs one action at a time and reports how it went; `run` resolves to whether it worked, and
   * a `work` that answers null leaves the outcome to the screen.
   */
  function useAction() {
    const [busy, setBusy] = useState(false);
    const [outcome, setOutcome] = useState<Outcome | null>(null);
    const live = useRef(true);
    // `busy` disables the button, but a keyboard shortcut (Ctrl+Enter) or a second Enter can come
    // before the page shows it: a second run while one is under way is dropped, not sent twice.
    const running = useRef(false);
    useEffect(
      () => () => {
        live.current = false;
      },
      [],
    );
    async function run(work: () => Promise<string | null>): Promise<boolean> {
      if (running.current) return false;
      running.current = true;
      setBusy(true);
      setOutcome(null);
      try {
        const text = await work();
        if (live.current) setOutcome(text ? { ok: true, text } : null);
        return true;
      } catch (error) {
        if (live.current) setOutcome({ ok: false, text: errorText(error) });
        return false;
      } finally {
        running.current = false;
        if (live.current) setBusy(false);
      }
    }
    return { busy, outcome, run, setOutcome };
  }

  /** Loads data for a screen area; `reload` fetches it again (after an action or a live event). */
  function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
    const [data, setData] = useState<T | null>(null);
    const [error, setError] = useState<string | null>(null);
    const [tick, setTick] = useState(0);
    useEffect(() => {
      let live = true;
      load().then(
        (value) => {
          if (!live) return;
          setData(value);
          setError(null);
        },
        (failure: unknown) => live && setError(errorText(failure)),
      );
      return () => {
        live = false;
      };
    }, [...deps, tick]);
    return { data, error, reload: () => setTick((n) => n + 1) };
  }

  return { useAction, useLoad };
}
