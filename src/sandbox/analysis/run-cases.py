"""Runs the shared analysis cases against toolscript.analysis (cases.test.ts).

Reads a JSON array of {fn, args} on stdin (rows already generated), writes one
JSON array of {"ok": result} or {"error": message, "name": class name,
"valueError": bool} in the same order. PYTHONPATH holds python/lib.
"""

import json
import sys

from toolscript import analysis

results = []
for case in json.load(sys.stdin):
    try:
        results.append({"ok": getattr(analysis, case["fn"])(*case["args"])})
    except Exception as error:  # every failure is reported, the test says which were wanted
        results.append({"error": str(error), "name": type(error).__name__, "valueError": isinstance(error, ValueError)})
json.dump(results, sys.stdout)
