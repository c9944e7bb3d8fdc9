"""Storage behind one protocol; SQLite is the embedded default."""

from paperscope.store.base import FileRow, LibraryPaper, Store
from paperscope.store.sqlite import SQLiteStore, open_store

__all__ = ["FileRow", "LibraryPaper", "SQLiteStore", "Store", "open_store"]
