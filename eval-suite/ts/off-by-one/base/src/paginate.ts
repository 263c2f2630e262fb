export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
}

/** One page of `items`, `size` items per page, pages counted from 1. */
export function paginate<T>(items: T[], page: number, size: number): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(page, 1), pages);
  const start = (current - 1) * size;
  return { items: items.slice(start, start + size), page: current, pages };
}
