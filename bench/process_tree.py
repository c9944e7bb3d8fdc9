"""The peak memory of a running process and of its children (an ingest's workers), for bench scripts."""

from __future__ import annotations

import threading

import psutil

SAMPLE_EVERY = 0.2  # seconds


class TreeMemory:
    """Peak RSS of a process and of its children, sampled from a thread while it runs; `stop` once it ended."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.main = 0
        self.workers: dict[int, int] = {}
        self.total = 0
        self.main_cpu = 0.0  # seconds, user + system, as last seen
        self.tree_cpu = 0.0  # the process and its workers, once it has ended (set by the caller)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    @property
    def largest(self) -> int:
        """The peak RSS of the largest single process."""
        return max(self.main, *self.workers.values(), 0)

    def _sample(self) -> None:
        while not self._done.wait(SAMPLE_EVERY):
            try:
                main = self.root.memory_info().rss
                self.main_cpu = sum(self.root.cpu_times()[:2])
                children = {c.pid: c.memory_info().rss for c in self.root.children(recursive=True)}
            except psutil.Error:
                continue
            self.main = max(self.main, main)
            for pid, rss in children.items():
                self.workers[pid] = max(self.workers.get(pid, 0), rss)
            self.total = max(self.total, main + sum(children.values()))

    def stop(self) -> None:
        self._done.set()
        self._thread.join()
