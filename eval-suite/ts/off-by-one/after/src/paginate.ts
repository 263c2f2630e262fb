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
  const end = Math.min(start + size, items.length) - 1;
  const out: T[] = [];
  for (let i = start; i < end; i++) out.push(items[i]);
  return { items: out, page: current, pages };
}
