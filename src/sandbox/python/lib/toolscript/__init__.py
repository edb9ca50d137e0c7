"""ToolScript's Python library for code mode programs (standard library only).

``toolscript.analysis``: filter, aggregate, transform and validate rows of JSON,
with the same results as ``import { ... } from "toolscript/analysis"`` in TypeScript.
"""
