/**
 * Packing a review plan's pieces into chunks (pure), so that chunk boundaries stay where they were
 * when the change is edited elsewhere: a review in parts reuses the cached verdict of every part
 * whose chunk is unchanged, and a boundary that moved re-asks every part after it.
 *
 * Pieces come in path order (a large file's pieces one after another). A run of pieces larger
 * than a chunk is split in two at one *cut*: among the cuts that leave between a quarter and three
 * quarters of its bytes on each side, the one of highest priority — between two directories over
 * between two files of one directory over inside one file, then by a hash of the path before it
 * (the number of trailing zero bits of its FNV-1a hash, so high levels are rare and fixed by the
 * path alone). Each side is split again until it fits. Where a run is cut depends on the paths
 * and, only through that wide window, on the sizes: an edit to one file changes its own chunk,
 * and moves another boundary only when it shifts the window past a cut of higher priority, or
 * when its run stops (or starts) needing a cut.
 *
 * Stable packing may use more chunks than dense packing. When it needs more than `maxChunks`,
 * adjacent chunks are merged (the smallest pair that fits first) and, failing that, the pieces
 * are packed densely in path order as before stability was asked for: a piece that does not fit
 * the current chunk opens the next one, and once every chunk is open it goes to the first with
 * room. Coverage comes first: what fits `maxChunks` chunks is always packed.
 *
 * @module
 */

/** A piece to pack: its file, path, number in its file and size. */
export interface PackItem {
  file: number;
  path: string;
  seq: number;
  bytes: number;
}

/** Chunks as lists of item indices (ascending), and the items that fit in none. */
export interface Packing {
  chunks: number[][];
  dropped: number[];
}

/**
 * Pack items (in path order) into at most `maxChunks` chunks of at most `chunkBytes` each.
 *
 * @param items the pieces, in path order
 * @param limits bytes per chunk, most chunks (≥ 1)
 * @returns the chunks in path order, and the items left out
 */
export function packChunks(
  items: readonly PackItem[],
  limits: { chunkBytes: number; maxChunks: number },
): Packing {
  const { chunkBytes, maxChunks } = limits;
  const fits = items.flatMap((item, i) => (item.bytes <= chunkBytes ? [i] : []));
  const tooLarge = items.flatMap((item, i) => (item.bytes > chunkBytes ? [i] : []));
  if (fits.length === 0) return { chunks: [], dropped: tooLarge };
  const sizes = fits.map((i) => items[i].bytes);
  const prefix = [0];
  for (const size of sizes) prefix.push(prefix.at(-1)! + size);
  const cuts = fits.map((_, k) => (k === 0 ? 0 : priority(items[fits[k - 1]], items[fits[k]])));
  const runs: [number, number][] = [];
  split(0, fits.length, { prefix, cuts, chunkBytes }, runs);
  const merged = mergeRuns(runs, prefix, limits);
  if (merged.length <= maxChunks) {
    return { chunks: merged.map(([a, b]) => fits.slice(a, b)), dropped: tooLarge };
  }
  const dense = packDense(sizes, limits);
  return {
    chunks: dense.chunks.map((chunk) => chunk.map((k) => fits[k])),
    dropped: [...tooLarge, ...dense.dropped.map((k) => fits[k])].sort((a, b) => a - b),
  };
}

/** Priority of the cut between two neighbouring pieces (higher cuts first). */
function priority(before: PackItem, after: PackItem): number {
  const rank = before.file === after.file ? 0 : dirOf(before.path) === dirOf(after.path) ? 1 : 2;
  const key = before.file === after.file ? `${before.path}\0${before.seq}` : before.path;
  return rank * 64 + trailingZeros(fnv1a(key));
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** FNV-1a, 32 bits, over the string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function trailingZeros(value: number): number {
  if (value === 0) return 32;
  let n = 0;
  while ((value & 1) === 0) {
    value >>>= 1;
    n++;
  }
  return n;
}

/** Split run `[a, b)` at its best cut until every part fits; the parts go to `out` in order. */
function split(
  a: number,
  b: number,
  at: { prefix: number[]; cuts: number[]; chunkBytes: number },
  out: [number, number][],
): void {
  const total = at.prefix[b] - at.prefix[a];
  if (total <= at.chunkBytes || b - a < 2) {
    out.push([a, b]);
    return;
  }
  let best = -1;
  for (const wide of [false, true]) {
    let bestScore = -Infinity;
    for (let c = a + 1; c < b; c++) {
      const left = at.prefix[c] - at.prefix[a];
      if (!wide && (left * 4 < total || left * 4 > total * 3)) continue;
      // higher priority first; then the cut nearest the middle
      const score = at.cuts[c] * total * 2 - Math.abs(total - 2 * left);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    if (best >= 0) break;
  }
  split(a, best, at, out);
  split(best, b, at, out);
}

/** Merge adjacent runs, the smallest pair that fits first, until `maxChunks` or none fits. */
function mergeRuns(
  runs: [number, number][],
  prefix: number[],
  limits: { chunkBytes: number; maxChunks: number },
): [number, number][] {
  const out = runs.map(([a, b]) => [a, b] as [number, number]);
  const size = ([a, b]: [number, number]) => prefix[b] - prefix[a];
  while (out.length > limits.maxChunks) {
    let best = -1;
    for (let k = 0; k + 1 < out.length; k++) {
      const joined = size(out[k]) + size(out[k + 1]);
      if (joined > limits.chunkBytes) continue;
      if (best < 0 || joined < size(out[best]) + size(out[best + 1])) best = k;
    }
    if (best < 0) break;
    out.splice(best, 2, [out[best][0], out[best + 1][1]]);
  }
  return out;
}

/** Dense packing in order (see the module doc); returns positions into `sizes`. */
function packDense(
  sizes: readonly number[],
  limits: { chunkBytes: number; maxChunks: number },
): Packing {
  const chunks: number[][] = [];
  const used: number[] = [];
  const dropped: number[] = [];
  sizes.forEach((size, k) => {
    let bin = chunks.length - 1;
    if (bin < 0 || used[bin] + size > limits.chunkBytes) {
      if (chunks.length < limits.maxChunks) {
        chunks.push([]);
        used.push(0);
        bin = chunks.length - 1;
      } else bin = used.findIndex((u) => u + size <= limits.chunkBytes);
    }
    if (bin < 0) {
      dropped.push(k);
      return;
    }
    chunks[bin].push(k);
    used[bin] += size;
  });
  return { chunks: chunks.map((chunk) => chunk.sort((x, y) => x - y)), dropped };
}
