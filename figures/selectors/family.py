"""A figure family: the metrics `<name>.<figure>` that one aggregate of records counts, as
one declared object.

Each family says what its aggregate counts (`count_keys`), which of those counts each of
its figures is built from (`counts_of`), how each figure is built from the counts
(`fields`, in the order an answer writes them) and how the aggregate is run (`counter`:
the period's counts, or per bucket start when given buckets). `/series`, the metric
figures the digests and goals read, and every answer of a family's figures go through
it: a family's figure is defined once, wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass, field

from .base import Counts

# (counts, workspace) -> the figure's Field
FieldBuilder = Callable[[Mapping, object], object]


@dataclass(frozen=True, eq=False)
class Family:
    name: str
    # Every key the aggregate can count.
    count_keys: tuple[str, ...]
    # Each figure from its counts, in the order an answer writes them.
    fields: Mapping[str, FieldBuilder]
    # counter(workspace=, period=, member=, buckets=, now=, keys=): Counts of the period, or
    # {bucket start: Counts} with buckets, counting at least `keys`.
    counter: Callable[..., object]
    # The keys each figure reads; a figure not named reads every key.
    counts_of: Mapping[str, Set[str]] = field(default_factory=dict)
    # builder(counts, workspace, figures or None) -> {figure: Field}, for a family whose
    # figures share their work (the acquisition figures read one set of cells): used
    # instead of `fields`' builders, which then only name the figures.
    builder: Callable[..., dict] | None = None

    def figures_of(self, metric_ids: Iterable[str]) -> set[str]:
        """The figures of this family among metric ids (`calls.booked` -> `booked`)."""
        return {
            metric_id.split(".", 1)[1]
            for metric_id in metric_ids
            if metric_id.split(".", 1)[0] == self.name
        }

    def keys_for(self, figures: Iterable[str]) -> tuple[str, ...]:
        """The keys the aggregate counts to build these figures (no more: each conditional
        count costs a pass over the rows), in count_keys' order."""
        wanted = set().union(
            *(self.counts_of.get(figure, frozenset(self.count_keys)) for figure in figures)
        )
        return tuple(key for key in self.count_keys if key in wanted)

    def counts(self, *, workspace, period, member=None, buckets=None, now=None, figures=None):
        """The aggregate's Counts of the period (per bucket start with buckets), counting
        what `figures` (all when None) are built from."""
        keys = self.keys_for(self.fields if figures is None else figures)
        return self.counter(
            workspace=workspace, period=period, member=member, buckets=buckets, now=now, keys=keys
        )

    def empty(self, figures: Iterable[str]) -> Counts:
        """The counts of a bucket with no record: 0 of each key the figures read."""
        return Counts(dict.fromkeys(self.keys_for(figures), 0))

    def data(self, counts: Mapping, workspace, figures: Iterable[str] | None = None) -> dict:
        """{figure: Field} built from the counts (only `figures` when given), in the order
        an answer writes them."""
        chosen = None if figures is None else set(figures)
        if self.builder is not None:
            return self.builder(counts, workspace, chosen)
        return {
            name: build(counts, workspace)
            for name, build in self.fields.items()
            if chosen is None or name in chosen
        }
