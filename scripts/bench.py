#!/usr/bin/env python3
"""make bench: limitcheck against the decode floor, side by side in one run.

Generates the benchmark corpus at 1x, 4x and 10x (gencorpus.py from the
shared bench directory), builds the floor and limitcheck, and runs them in
alternation (A B A B ...), each a whole process. Prints, per scale, the
median wall time of the floor and of `limitcheck check -o json` and `-o text`,
the ratio to the floor, and each program's peak RSS; then a one-Pod check and
`limitcheck --version`, side by side with the same two on scripts/leanref, a
lean cobra + k8s.io/api binary (the start-up the one-Pod target is stated
against), and their ratios. A benchmark, not a test: nothing fails on a timing.

Environment: BENCH_DIR (default ../shared/bench), BENCH_RUNS (default 5),
BENCH_SCALES (default "1 4 10"), BENCH_OUT (default a temporary directory).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.abspath(os.environ.get("BENCH_DIR", os.path.join(ROOT, "..", "shared", "bench")))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
SCALES = [int(s) for s in os.environ.get("BENCH_SCALES", "1 4 10").split()]


def run(argv):
    """Runs argv with output discarded; returns (wall seconds, peak RSS MiB)."""
    start = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{argv[0]} exited {code}")
    return wall, usage.ru_maxrss / 1024


def alternate(cmds):
    """Runs the commands in turn RUNS times (after one warm-up each); medians."""
    for c in cmds.values():
        run(c)
    walls = {k: [] for k in cmds}
    peaks = {k: [] for k in cmds}
    for _ in range(RUNS):
        for k, c in cmds.items():
            w, m = run(c)
            walls[k].append(w)
            peaks[k].append(m)
    return ({k: statistics.median(v) for k, v in walls.items()},
            {k: max(v) for k, v in peaks.items()})


def main():
    if not os.path.exists(os.path.join(BENCH, "gencorpus.py")):
        sys.exit(f"no benchmark corpus generator in {BENCH}: set BENCH_DIR to the shared bench directory")
    out = os.environ.get("BENCH_OUT") or tempfile.mkdtemp(prefix="limitcheck-bench-")
    floor = os.path.join(out, "floor")
    lc = os.path.join(out, "limitcheck")
    lean = os.path.join(out, "leanref")
    subprocess.run(["go", "build", "-o", floor, "."], cwd=os.path.join(BENCH, "floor"), check=True)
    for binary, pkg in ((lc, "./cmd/limitcheck"), (lean, "./scripts/leanref")):
        subprocess.run(["go", "build", "-trimpath", "-o", binary, pkg], cwd=ROOT, check=True,
                       env=dict(os.environ, CGO_ENABLED="0"))
    print(f"{'scale':>5} {'docs MB':>7} {'floor s':>8} {'json s':>8} {'text s':>8} {'json/floor':>10} {'text/floor':>10} "
          f"{'floor MiB':>9} {'json MiB':>8} {'text MiB':>8}")
    for scale in SCALES:
        corpus = os.path.join(out, f"corpus-{scale}x")
        if not os.path.isdir(corpus):
            subprocess.run([sys.executable, os.path.join(BENCH, "gencorpus.py"), corpus, "--namespaces", str(50 * scale)],
                           check=True, stdout=subprocess.DEVNULL)
        files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus))
        size = sum(os.path.getsize(f) for f in files) / 1e6
        walls, peaks = alternate({
            "floor": [floor] + files,
            "json": [lc, "check", "-o", "json", corpus],
            "text": [lc, "check", corpus],
        })
        print(f"{scale:>4}x {size:>7.1f} {walls['floor']:>8.3f} {walls['json']:>8.3f} {walls['text']:>8.3f} "
              f"{walls['json'] / walls['floor']:>10.2f} {walls['text'] / walls['floor']:>10.2f} "
              f"{peaks['floor']:>9.1f} {peaks['json']:>8.1f} {peaks['text']:>8.1f}")
    pod = os.path.join(out, "pod.yaml")
    with open(pod, "w") as f:
        f.write("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n")
    walls, peaks = alternate({"pod": [lc, "check", pod], "lean-pod": [lean, pod],
                              "version": [lc, "--version"], "lean-version": [lean, "--version"]})
    print(f"one-Pod check {walls['pod'] * 1000:.1f} ms ({peaks['pod']:.1f} MiB), "
          f"lean cobra + k8s.io/api binary {walls['lean-pod'] * 1000:.1f} ms: {walls['pod'] / walls['lean-pod']:.2f}x")
    print(f"--version {walls['version'] * 1000:.1f} ms, lean binary's {walls['lean-version'] * 1000:.1f} ms: "
          f"{walls['version'] / walls['lean-version']:.2f}x")

if __name__ == "__main__":
    main()
