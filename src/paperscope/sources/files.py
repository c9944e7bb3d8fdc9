"""Reading bytes and text from input files: gzip by magic number, strict UTF-8, size limits."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

from paperscope.errors import InputError

MAX_FILE_BYTES = 512 * 1024 * 1024
HEAD_BYTES = 64 * 1024
_GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(2) == _GZIP_MAGIC


def read_bytes(path: Path) -> bytes:
    """The file's bytes, decompressed if it is gzip; one clear error if it is too large or truncated."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise InputError(path.name, None, f"file is larger than {MAX_FILE_BYTES // 2**20} MiB")
    data = path.read_bytes()
    if not data.startswith(_GZIP_MAGIC):
        return data
    try:
        return gzip.decompress(data)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InputError(path.name, None, f"broken gzip data ({exc or 'truncated'})") from None


def read_head(path: Path) -> bytes:
    """The first bytes of the (decompressed) content, for sniffing."""
    try:
        if not is_gzip(path):
            with path.open("rb") as handle:
                return handle.read(HEAD_BYTES)
        with gzip.open(path, "rb") as handle:
            return handle.read(HEAD_BYTES)
    except (EOFError, gzip.BadGzipFile, zlib.error):
        raise InputError(path.name, None, "broken gzip data (truncated)") from None


def decode_utf8(data: bytes, name: str) -> str:
    """Strict UTF-8 (a BOM is allowed); the error names the line of the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(name, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from None


def read_json(path: Path) -> object:
    """A (maybe gzipped) UTF-8 JSON file; a syntax error names its line."""
    text = decode_utf8(read_bytes(path), path.name)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path.name, exc.lineno, f"invalid JSON: {exc.msg}") from None
