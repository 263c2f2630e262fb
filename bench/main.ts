/**
 * `deno task bench`: generates two throwaway repositories (a ~2,000-line and a ~100,000-line
 * uncommitted change), measures every case of `cases.ts` under GNU time (median wall ms of N runs,
 * peak RSS MB, ratios to the group's baseline), prints a Markdown table on stdout (progress on
 * stderr) and removes its temp dir on every exit path. No network: the provider is the bundled
 * zero-latency fake Claude (fixtures/fake, scenario `valid`). See bench/README.md.
 *
 * @module
 */
import { countChildren, describeChildren } from "./children.ts";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { ALL_CASES, type BenchCase, type BenchContext, DENO_RUN } from "./cases.ts";
import { BENCH_GIT_ENV, generateRepo } from "./gen_repo.ts";
import { GNU_TIME, measureInterleaved, type Measurement } from "./measure.ts";
import { renderTable, type ResultRow } from "./table.ts";

const projectRoot = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

function progress(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(text));
}

async function versionOf(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).split("\n")[0].trim();
}

/**
 * Measure every case of {@linkcode ALL_CASES}, printing progress, and check each row's output. A
 * row whose speed target's floor is the row just before it is measured in turns with that floor
 * (bench/measure.ts `measureInterleaved`), so the ratio a target judges sees one load.
 */
async function runCases(ctx: BenchContext): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  // `deno task bench --only "(e)"` measures only the groups whose name holds that text
  const at = Deno.args.indexOf("--only");
  const only = at >= 0 ? Deno.args[at + 1] ?? "" : "";
  for (const factory of ALL_CASES) {
    const cases = factory(ctx).filter((c) => c.group.includes(only));
    for (let i = 0; i < cases.length; i++) {
      const next = cases[i + 1];
      const paired = next?.speedTarget?.floor === cases[i].name ? [cases[i], next] : [cases[i]];
      i += paired.length - 1;
      for (const c of paired) await c.setup?.();
      progress(`${paired.map((c) => `${c.group} | ${c.name}`).join(" ⇄ ")}: `);
      const measured = await measureInterleaved(paired.map((c) => ({
        ...c,
        env: { ...BENCH_GIT_ENV, ...c.env },
        timeFile: join(ctx.tmp, "time.txt"),
      })));
      for (const [n, c] of paired.entries()) rows.push(await finishRow(ctx, c, measured[n]));
      progress(
        `${
          measured.map((m) => `${m.medianMs.toFixed(1)} ms, ${m.maxRssMb.toFixed(1)} MB`).join(
            " ⇄ ",
          )
        }\n`,
      );
    }
  }
  return rows;
}

/** Verify one measured case, count its children when asked, and make its table row. */
async function finishRow(ctx: BenchContext, c: BenchCase, m: Measurement): Promise<ResultRow> {
  await c.verify?.(m);
  const counted = c.countChildren || c.floorCheck
    ? await countChildren(c.cmd, {
      cwd: c.cwd,
      env: { ...BENCH_GIT_ENV, ...c.env },
      stdin: c.stdin,
      tmp: ctx.tmp,
    })
    : undefined;
  const children = counted === undefined ? undefined : describeChildren(counted);
  return {
    group: c.group,
    name: c.name,
    baseline: c.baseline ?? false,
    runs: c.runs,
    medianMs: m.medianMs,
    maxRssMb: m.maxRssMb,
    note: [c.describe?.(m), children].filter(Boolean).join("; ") || undefined,
    speedTarget: c.speedTarget,
    rssLimitMb: c.rssLimitMb,
    floorProblem: c.floorCheck?.(counted ?? null),
  };
}

async function main(): Promise<number> {
  try {
    await Deno.stat(GNU_TIME);
  } catch {
    progress(`GNU time not found at "${GNU_TIME}": install it (apt-get install time)\n`);
    return 2;
  }
  // The user's own review-gate settings must not leak into the measured runs.
  for (const key of Object.keys(Deno.env.toObject())) {
    if (key.startsWith("REVIEW_GATE")) Deno.env.delete(key);
  }
  const started = performance.now();
  const tmp = await Deno.makeTempDir({ prefix: "review-gate-bench-" });
  const onInterrupt = () => {
    Deno.removeSync(tmp, { recursive: true });
    Deno.exit(130);
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    progress("Generating repositories… ");
    const small = await generateRepo(tmp, "small", {
      targetLines: 2000,
      minFileLines: 20,
      maxFileLines: 300,
      seed: 1,
    });
    const large = await generateRepo(tmp, "large", {
      targetLines: 100_000,
      minFileLines: 5,
      maxFileLines: 4000,
      seed: 2,
    });
    progress(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    await Deno.mkdir(join(tmp, "xdg"));
    const ctx: BenchContext = {
      projectRoot,
      tmp,
      reviewGate: [...DENO_RUN, join(projectRoot, "main.ts")],
      env: {
        ...BENCH_GIT_ENV,
        XDG_CONFIG_HOME: join(tmp, "xdg"),
        REVIEW_GATE_CLAUDE_BIN: join(projectRoot, "fixtures", "fake", "bin", "claude"),
        REVIEW_GATE_FAKE_DENO: Deno.execPath(),
        REVIEW_GATE_FAKE_SCENARIO: "valid",
      },
      small,
      large,
    };
    const rows = await runCases(ctx);
    const header = [
      `review-gate bench, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      `${await versionOf(Deno.execPath(), ["--version"])}; ${await versionOf("git", [
        "--version",
      ])}; ` +
      `${navigator.hardwareConcurrency} CPUs; ${Deno.build.os}/${Deno.build.arch}`,
      "Wall time: median of the measured runs after 1 warm-up. Max RSS: largest process of the tree (GNU time %M).",
    ];
    Deno.stdout.writeSync(
      new TextEncoder().encode(`${header.join("\n\n")}\n\n${renderTable(rows)}`),
    );
    progress(`Total ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
