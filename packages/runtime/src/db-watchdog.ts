/**
 * Watches a service's database from inside the process. `npm run chaos` found replicas that never
 * reached the database again after FerretDB and PostgreSQL restarts: the driver's monitor kept
 * failing ("connection 10 … closed") for minutes while the other replica and a new process
 * connected at once, and the stuck replica went on taking bus calls it failed. A replica that
 * cannot reach its database for `lostAfterMs` says so (`lost`), and `runMain` stops it with exit
 * code 1, so that its supervisor (Kubernetes, `npm start`) starts a fresh process.
 */
export interface DatabaseWatch {
  /** Resolves, with the reason, once the database has been unreachable for the whole window. */
  lost: Promise<string>;
  stop(): void;
}

export function watchDatabase(ping: () => Promise<boolean>, lostAfterMs: number): DatabaseWatch {
  let resolveLost: (reason: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (resolveLost = resolve));
  let downSince: number | undefined;
  let checking = false;
  const timer = setInterval(
    () => {
      if (checking) return;
      checking = true;
      ping()
        .catch(() => false)
        .then((up) => {
          const now = Date.now();
          if (up) downSince = undefined;
          else downSince ??= now;
          if (downSince !== undefined && now - downSince >= lostAfterMs) {
            clearInterval(timer);
            resolveLost(
              `the database has not answered for ${Math.round((now - downSince) / 1000)} s`,
            );
          }
        })
        .finally(() => (checking = false));
    },
    Math.max(100, Math.min(5_000, lostAfterMs / 4)),
  );
  timer.unref();
  return { lost, stop: () => clearInterval(timer) };
}
