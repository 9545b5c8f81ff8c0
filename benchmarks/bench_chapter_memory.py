"""How much memory a student's kernel needs, chapter by chapter: the figure behind a hub's memory
limit (deploy/README.md, "A course on a JupyterHub").

    PYTHONPATH=. python benchmarks/bench_chapter_memory.py            # every chapter of notebooks/
    PYTHONPATH=. python benchmarks/bench_chapter_memory.py 04_puma560 # some
    ... --json deploy/chapter_memory.json                             # and keep the figures
    ... --root /tmp/other-checkout                # another tree's chapters and dynlab (A against B)

Each chapter runs top to bottom in a fresh kernel (nbclient, as ``tools/refresh_notebooks.py``
runs it); at the end the kernel's peak resident set (``VmHWM`` in ``/proc/PID/status``: the most
it ever held, as a memory limit sees it) and its resident set then (``VmRSS``) are read, with
the run time and the kernel's CPU seconds (``utime + stime`` in ``/proc/PID/stat``: steadier than
the wall clock on a shared machine).  Prints one line per chapter and the largest peak.  Linux
only.

``tests/product/test_hub.py`` measures the whole of a student (server and kernel, ten at once) on
one chapter; this gives the kernel's share for every chapter, so the limit covers the heaviest.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (fields 14 and 15 of its stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(notebook: Path) -> dict:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(notebook.parent)}})
    began = time.monotonic()
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        seconds = time.monotonic() - began
        peak, now = status_kib(pid, "VmHWM"), status_kib(pid, "VmRSS")
        cpu = cpu_seconds(pid)
    return {"chapter": notebook.stem, "kernel_peak_mib": round(peak / 1024, 1),
            "kernel_rss_at_end_mib": round(now / 1024, 1), "seconds": round(seconds, 1),
            "kernel_cpu_seconds": round(cpu, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", help="chapter names (default: every one)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose chapters and dynlab run (default: this one)")
    args = parser.parse_args(argv)
    os.environ.setdefault("MPLBACKEND", "Agg")
    root = args.root.resolve()
    os.environ["PYTHONPATH"] = os.pathsep.join(                 # the kernels import its dynlab
        [str(root)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    chapters = ([root / "notebooks" / f"{name.removesuffix('.ipynb')}.ipynb"
                 for name in args.chapters]
                or sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")))
    rows = []
    for chapter in chapters:
        row = measure(chapter)
        rows.append(row)
        print(f"{row['chapter']:28s} kernel peak {row['kernel_peak_mib']:7.1f} MiB, "
              f"at the end {row['kernel_rss_at_end_mib']:7.1f} MiB, {row['seconds']:6.1f} s, "
              f"kernel CPU {row['kernel_cpu_seconds']:6.1f} s",
              flush=True)
    heaviest = max(rows, key=lambda r: r["kernel_peak_mib"])
    print(f"largest kernel peak: {heaviest['kernel_peak_mib']} MiB ({heaviest['chapter']})")
    if args.json:
        args.json.write_text(json.dumps({
            "what": "each chapter run top to bottom in a fresh kernel; the kernel's peak "
                    "resident set (VmHWM) and its resident set at the end",
            "command": "PYTHONPATH=. python benchmarks/bench_chapter_memory.py --json "
                       + str(args.json),
            "load_average_1min_at_end": round(os.getloadavg()[0], 2),
            "chapters": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
