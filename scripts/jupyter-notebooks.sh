#!/usr/bin/env bash
# Every notebook in notebooks/, executed by a real Jupyter client (jupyter nbconvert, Debian's
# jupyter-nbconvert) through the project's kernelspec, as a user opening them in Jupyter runs them.
# The executed copies go to a temporary folder (never over notebooks/: their committed outputs are
# scripts/run-notebooks.cjs's). Exit 1 on a failing cell or on any error output (an error, or text
# on stderr), naming the notebook and the cell.
#
#   scripts/jupyter-notebooks.sh [NOTEBOOK.ipynb ...]      (npm run notebooks:jupyter)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- notebooks/*.ipynb
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Jupyter starts the kernel in the notebook's folder, so JUPYTER_PATH must be absolute.
JUPYTER_PATH="$PWD/notebooks/kernelspec" jupyter nbconvert --to notebook --execute \
  --ExecutePreprocessor.timeout=600 --output-dir "$out" "$@"
python3 - "$out" "$@" <<'PY'
import json, os, sys

out, notebooks = sys.argv[1], sys.argv[2:]
failed = False
for path in notebooks:
    executed = os.path.join(out, os.path.basename(path))
    cells = json.load(open(executed, encoding="utf-8"))["cells"]
    before = failed
    for index, cell in enumerate(cells, 1):
        if cell["cell_type"] != "code":
            continue
        for o in cell.get("outputs", []):
            if o["output_type"] == "error":
                print(f"{path}: cell {index}: {o['ename']}: {o['evalue']}", file=sys.stderr)
                failed = True
            elif o["output_type"] == "stream" and o.get("name") == "stderr":
                print(f"{path}: cell {index} wrote to stderr: {''.join(o['text'])[:500]}", file=sys.stderr)
                failed = True
    if failed == before:
        print(f"{path}: {sum(c['cell_type'] == 'code' for c in cells)} code cells, no error output")
sys.exit(1 if failed else 0)
PY
