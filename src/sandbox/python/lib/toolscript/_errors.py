"""The one error of toolscript.analysis (kept apart so every part raises the same class)."""


class AnalysisError(ValueError):
    """A bad argument: ``path`` says where (``metrics.total``), the message what is wrong there."""

    code = "analysis.invalid_input"

    def __init__(self, path, what):
        super().__init__(f"{path}: {what}")
        self.path = path
        self.data = {"path": path}
