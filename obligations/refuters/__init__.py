"""The refuters: each computes, exactly and on the running code, where a standard statement fails,
and is the only maker of a :class:`~obligations.kernel.theorems.Refutation`, the verdict "refuted
(confirmed)". They are trusted for that word only. A refutation can take a theorem away, never
make one (:meth:`obligations.kernel.certify.Certified.refuted_by`), so no refuter can make a
wrong mechanism pass; :mod:`obligations.refutation_search`, untrusted, chooses where they look."""
