/** Clamps `value` between `min` and `max`. */
export function clamp(value, min, max) {
  if (value < min) return min;
  if (value > max) return max;
  return value;
}

/** Linear interpolation from `a` to `b` at `t` in [0, 1]. */
export function lerp(a, b, t) {
  return a + (b - a) * clamp(t, 0, 1);
}

export const NAME = "math";
