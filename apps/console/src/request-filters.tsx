import { Field } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type { CategoryList } from './api.ts';
import { AGES, isAge, NO_FILTERS, type Filters } from './filters.ts';

// The Requests screen's filter controls: the category and age form, and the rows of chips.

/** The category (typed, or picked from those known) and the age of the requests listed. */
export function FilterForm(props: {
  filters: Filters;
  categories: CategoryList | null;
  onChange: (filters: Filters) => void;
}) {
  const { filters, onChange } = props;
  const [category, setCategory] = useState(filters.category);
  const applyCategory = () => {
    const value = category.trim().toLowerCase();
    if (value !== filters.category) onChange({ ...filters, category: value });
  };
  return (
    <form
      class="inline filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        applyCategory();
      }}
    >
      <Field label="Category" hint="Any when empty">
        <input
          list="request-categories"
          value={category}
          autoComplete="off"
          onInput={(e) => setCategory(e.currentTarget.value)}
          onChange={applyCategory}
        />
      </Field>
      <datalist id="request-categories">
        {props.categories?.data.map((c) => (
          <option key={c.category} value={c.category} />
        ))}
      </datalist>
      <Field label="Age">
        <select
          value={filters.age}
          onChange={(e) => {
            const age = e.currentTarget.value;
            onChange({ ...filters, age: isAge(age) ? age : '' });
          }}
        >
          {Object.entries(AGES).map(([value, age]) => (
            <option key={value} value={value}>
              {age.words}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit">Show</button>
      <button
        type="button"
        onClick={() => {
          setCategory('');
          onChange(NO_FILTERS);
        }}
      >
        Clear every filter
      </button>
    </form>
  );
}

/**
 * A row of filter chips, one per value with its count and "All" first: pressing one lists the
 * requests of that value (the pressed chip is marked for screen readers too).
 */
export function Chips<V extends string>(props: {
  label: string;
  value: string;
  total: number | null;
  options: readonly { value: V; words: string; count: number | null }[];
  onPick: (value: V | '') => void;
}) {
  const chip = (value: V | '', words: string, count: number | null) => (
    <li key={value}>
      <button
        type="button"
        class="chip"
        aria-pressed={props.value === value}
        onClick={() => props.onPick(value)}
      >
        {words} <span class="count">{count ?? '…'}</span>
      </button>
    </li>
  );
  return (
    <div class="chips" role="group" aria-label={props.label}>
      <span class="label">{props.label}</span>
      <ul>
        {chip('', 'All', props.total)}
        {props.options.map((o) => chip(o.value, o.words, o.count))}
      </ul>
    </div>
  );
}
