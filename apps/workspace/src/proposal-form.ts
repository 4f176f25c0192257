import type { Currency, ProposalCreate } from './api.ts';

// The proposal form as a provider fills it in (text, as typed), and what the API takes of it.

/** The currencies offered first; the API takes any ISO 4217 code. */
export const CURRENCIES: Currency[] = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'JPY',
  'INR',
  'SGD',
  'HKD',
  'ZAR',
  'BRL',
  'MXN',
];

export interface PlanRow {
  title: string;
  amount: string;
  days: string;
}
export interface ProposalForm {
  message: string;
  amount: string;
  currency: Currency;
  days: string;
  plan: PlanRow[];
}
export const EMPTY_PROPOSAL: ProposalForm = {
  message: '',
  amount: '',
  currency: 'USD',
  days: '',
  plan: [],
};

/** How many decimals a currency's amounts may have (0 for JPY, 2 for USD). */
const decimalsOf = (currency: string) => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
};

/** An amount as typed ("1,200.50", "1200"), or an error in words. */
function amountOf(text: string, currency: string, what: string): number | string {
  const cleaned = text.replace(/[\s,]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return `${what}: enter a number, like 1200 or 1200.50.`;
  const value = Number(cleaned);
  if (value <= 0) return `${what} must be more than zero.`;
  const decimals = (cleaned.split('.')[1] ?? '').length;
  const allowed = decimalsOf(currency);
  if (decimals > allowed) {
    return allowed === 0
      ? `${what}: ${currency} amounts have no decimals.`
      : `${what}: ${currency} amounts have at most ${allowed} decimals.`;
  }
  return value;
}

function daysOf(text: string, what: string): number | string | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < 1 || value > 730) {
    return `${what}: enter a whole number of days from 1 to 730.`;
  }
  return value;
}

/** The form as the API takes it, or the first problem with it in words. */
export function toBody(form: ProposalForm): ProposalCreate | string {
  if (form.message.trim() === '') return 'Say what you will do for the customer.';
  const amount = amountOf(form.amount, form.currency, 'Price');
  if (typeof amount === 'string') return amount;
  const days = daysOf(form.days, 'Time needed');
  if (typeof days === 'string') return days;
  const milestones: NonNullable<ProposalCreate['milestones']> = [];
  for (const [index, row] of form.plan.entries()) {
    const name = `Milestone ${index + 1}`;
    if (row.title.trim() === '') return `${name}: give it a title, or remove it.`;
    const step: (typeof milestones)[number] = { title: row.title.trim() };
    if (row.amount.trim() !== '') {
      const value = amountOf(row.amount, form.currency, `${name}’s amount`);
      if (typeof value === 'string') return value;
      step.amount = value;
    }
    const due = daysOf(row.days, `${name}’s days`);
    if (typeof due === 'string') return due;
    if (due !== undefined) step.due_in_days = due;
    milestones.push(step);
  }
  return {
    message: form.message.trim(),
    amount,
    currency: form.currency,
    ...(days === undefined ? {} : { estimated_days: days }),
    ...(milestones.length > 0 ? { milestones } : {}),
  };
}
