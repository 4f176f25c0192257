// Another process's CPU time, read from outside: /proc/<pid>/stat on Linux. A scenario reads it
// for each process of its stack as its measurement starts and again once it ended, so the
// difference is what the measured work cost each process, whatever the machine's speed that run.
import { readFile } from 'node:fs/promises';

/**
 * Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux the bench runs on
 * (x86-64 and arm64 alike); the kernel keeps it fixed for user space whatever its own HZ.
 */
const TICKS_PER_S = 100;

/**
 * The CPU seconds (user and system) a /proc/<pid>/stat text counts; undefined when it is not
 * one. Its second field, the command's name, may hold spaces and parentheses, so the fields are
 * counted from the last `)`.
 */
export function parseCpuSeconds(stat: string): number | undefined {
  const end = stat.lastIndexOf(')');
  if (end < 0) return undefined;
  // After the name: state (field 3) … utime (14) and stime (15).
  const fields = stat.slice(end + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isInteger(utime) || !Number.isInteger(stime) || fields[12] === '') return undefined;
  return (utime + stime) / TICKS_PER_S;
}

/** Process `pid`'s CPU seconds so far; undefined when it is gone or the system has no /proc. */
export async function cpuSecondsOf(pid: number): Promise<number | undefined> {
  try {
    return parseCpuSeconds(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
