import { ActionButton, LoadError, OutcomeLine, TextField } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type { AuditList, StaffApi } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { ColumnHeads, when } from './ui.tsx';

type Entry = AuditList['data'][number];
type Filter = 'actor' | 'action' | 'target';
const FILTERS: [Filter, string][] = [
  ['actor', 'Actor'],
  ['action', 'Action'],
  ['target', 'Target'],
];

/** The audit log, newest first, page by page, filtered by actor, action and target. */
export function Audit({ api }: { api: StaffApi }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [more, setMore] = useState(false);
  const [filters, setFilters] = useState({ actor: '', action: '', target: '' });
  const first = useLoad(async () => {
    const page = await api.get<AuditList>('/audit-log', { limit: '100' });
    setEntries(page.data);
    setMore(page.has_more);
    return page;
  }, [api]);
  const action = useAction();
  const loadMore = async () => {
    const last = entries[entries.length - 1];
    const page = await api.get<AuditList>('/audit-log', {
      limit: '100',
      starting_after: last?.id,
    });
    setEntries([...entries, ...page.data]);
    setMore(page.has_more);
    return `Loaded ${page.data.length} more.`;
  };
  const match = (value: string, filter: string) =>
    filter === '' || value.toLowerCase().includes(filter.toLowerCase());
  const shown = entries.filter(
    (e) =>
      match(e.actor, filters.actor) &&
      match(e.action, filters.action) &&
      match(`${e.target_type} ${e.target_id}`, filters.target),
  );
  const set = (name: Filter) => (value: string) => setFilters({ ...filters, [name]: value });
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <LoadError error={first.error} />
      <form class="inline" role="search" onSubmit={(e) => e.preventDefault()}>
        {FILTERS.map(([name, label]) => (
          <TextField key={name} label={label} value={filters[name]} onValue={set(name)} />
        ))}
      </form>
      <p class="note" aria-live="polite">
        {shown.length} of {entries.length} loaded entries match (the filters apply to the loaded
        pages).
      </p>
      <table>
        <ColumnHeads names={['When', 'Actor', 'Action', 'Target']} />
        <tbody>
          {shown.map((e) => (
            <tr key={e.id}>
              <td>{when(e.at)}</td>
              <td>{e.actor}</td>
              <td class="mono">{e.action}</td>
              <td class="mono">
                {e.target_type} {e.target_id}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more && <ActionButton label="Load older entries" action={action} work={loadMore} />}
      <OutcomeLine outcome={action.outcome} />
    </section>
  );
}
