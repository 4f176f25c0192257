/** Request statuses in which a marketplace request is still open to providers of its category. */
export const MARKETPLACE_OPEN_STATUSES = ['submitted', 'routed'] as const;
