"""The trusted kernel: the standard statements derived from a constructor's objects
(:mod:`.statements`), theorems that only the rules make (:mod:`.theorems`, :mod:`.rules`), the
reviewed proof modules the rules may rest on (:mod:`.reviewed`), and what the gate accepts
(:mod:`.certify`). Only this package decides; the rest of ``obligations/`` proposes or refutes."""
