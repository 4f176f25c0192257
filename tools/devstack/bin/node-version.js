// Which Node the `handoff` command needs, in plain JavaScript so that any Node can read it.

export const REQUIRED_MAJOR = 24;

/**
 * What to say when `version` (`process.versions.node`) is too old to run the TypeScript sources,
 * naming the Node that setup installs at `nodeBin`; null when it is new enough.
 */
export function tooOldMessage(version, nodeBin) {
  const major = Number(version.split('.')[0]);
  if (major >= REQUIRED_MAJOR) return null;
  return (
    `handoff needs Node ${REQUIRED_MAJOR} or later, and this is Node ${version}.\n` +
    `Use the Node that scripts/setup.sh installs (npm start runs it):\n` +
    `  export PATH="${nodeBin}:$PATH"\n`
  );
}
