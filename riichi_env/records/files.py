"""Record files on disk: reading with bounds, creating without following symbolic links.

Every record file (any format, gzip-compressed or not, ``walls.jsonl`` included) is read by
:func:`read_record_bytes`, which stops at ``max_bytes`` of content (counted after
decompression) and at a line longer than ``max_line_bytes``. So a gzip bomb, a file that never
ends (``/dev/zero``) or one enormous line costs about the limit in memory, never the whole
expansion; corrupt or truncated gzip data is a :class:`RecordError` naming the file.

:func:`create_file` writes a new file (the arena's records) without following a symbolic link
at its name and, unless asked to, without replacing a file that is already there.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import stat
import tempfile
import zlib
from collections.abc import Iterable
from pathlib import Path

from riichi_env.records.model import RecordError

MIB = 1024 * 1024
MAX_RECORD_BYTES = 64 * MIB
"""Default limit on a record file's content, after decompression (a real game is about 1 MB at
most; ``riichi-env replay`` and ``convert`` raise it with ``--max-record-bytes``)."""
MAX_LINE_BYTES = 16 * MIB
"""Default limit on one line of a record file (mjlog and tenhou.net/6 often hold a whole game on
one line; an mjai event is under 1 KB; ``--max-line-bytes`` raises it)."""
_CHUNK = 1 << 16
_GZIP_MAGIC = b"\x1f\x8b"
_SIZE_RE = re.compile(r"([0-9]+)\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib)", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": MIB, "g": 1024 * MIB}


def size_text(n: int) -> str:
    """A byte count for people: ``"64 MiB"``, ``"1.5 KiB"``, ``"300 bytes"``."""
    for unit, name in ((1024 * MIB, "GiB"), (MIB, "MiB"), (1024, "KiB")):
        if n >= unit:
            return f"{n / unit:.4g} {name}"
    return f"{n} bytes"


def parse_size(text: str) -> int:
    """A positive byte count from ``"64M"``, ``"64MiB"``, ``"512k"`` or ``"1000000"`` (units are
    powers of 1024); ``ValueError`` otherwise."""
    match = _SIZE_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or int(match.group(1)) < 1:
        raise ValueError(
            f"expected a positive size in bytes such as 1000000, 512K, 64M or 2G, got {text!r}"
        )
    return int(match.group(1)) * _UNITS[match.group(2)[:1].lower()]


def check_limit(name: str, value: int) -> int:
    """A byte limit: a positive ``int`` (``TypeError`` / ``ValueError`` naming ``name``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a positive int (bytes), got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be a positive number of bytes, got {value}")
    return value


def read_record_bytes(
    path: str | os.PathLike,
    *,
    max_bytes: int = MAX_RECORD_BYTES,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> bytearray:
    """A record file's content, gunzipped when it starts with the gzip magic bytes.

    Reads in chunks and stops with a :class:`RecordError` as soon as the content passes
    ``max_bytes`` or a line passes ``max_line_bytes``; unreadable files, corrupt deflate streams,
    bad CRCs and truncated gzip data are a ``RecordError`` too, each naming the file.
    """
    max_bytes = check_limit("max_bytes", max_bytes)
    max_line_bytes = check_limit("max_line_bytes", max_line_bytes)
    name = os.fspath(path)
    name = name.decode(errors="replace") if isinstance(name, bytes) else name
    try:
        with open(path, "rb") as raw:
            compressed = raw.peek(2)[:2] == _GZIP_MAGIC
            stream = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
            return _read_bounded(stream, name, compressed, max_bytes, max_line_bytes)
    except OSError as exc:  # opening, or the first bytes (a directory, no permission)
        raise RecordError(f"cannot read: {exc.strerror or exc}", file=name) from None


def _read_bounded(stream, name: str, compressed: bool, max_bytes: int, max_line: int) -> bytearray:
    buf = bytearray()
    chunk_size = min(_CHUNK, max_line)  # a line inside one chunk is then never too long
    run = 0  # bytes since the last newline
    lines = 1  # the line ``run`` counts
    while True:
        try:
            chunk = stream.read(chunk_size)
        except zlib.error as exc:
            raise RecordError(f"bad gzip data: corrupt deflate stream ({exc})", file=name) from None
        except EOFError:
            raise RecordError(
                "bad gzip data: the compressed stream ends early (truncated file?)", file=name
            ) from None
        except gzip.BadGzipFile as exc:
            raise RecordError(f"bad gzip data: {exc}", file=name) from None
        except OSError as exc:
            raise RecordError(f"cannot read: {exc.strerror or exc}", file=name) from None
        if not chunk:
            return buf
        first = chunk.find(b"\n")
        if first < 0:
            run += len(chunk)
        else:
            if run + first > max_line:
                break
            lines += chunk.count(b"\n")
            run = len(chunk) - chunk.rfind(b"\n") - 1
        if run > max_line:
            break
        if len(buf) + len(chunk) > max_bytes:
            raise RecordError(
                f"more than {size_text(max_bytes)} of record text"
                + (" once decompressed" if compressed else "")
                + " (the limit: raise it with --max-record-bytes, or max_bytes= in Python)",
                file=name,
            )
        buf += chunk
    raise RecordError(
        f"line {lines} is longer than {size_text(max_line)} (the limit: raise it with "
        "--max-line-bytes, or max_line_bytes= in Python)",
        file=name,
    )


# ------------------------------------------------------------------------------------ writing


def log_directory(
    path: str | os.PathLike, names: Iterable[str] = (), *, overwrite: bool = False
) -> Path:
    """The directory records go to, created if missing, checked before anything is played.

    ``ValueError`` when ``path`` is a file, when one of the file ``names`` to be written is
    already in it (unless ``overwrite``), or when one of them is a symbolic link or other
    non-regular file (never replaced, see :func:`create_file`).
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise ValueError(
            f"log directory {out}: a file is there; records go into a directory "
            "(it is created if missing)"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"log directory {out}: cannot create it ({exc.strerror or exc})") from None
    present = set(os.listdir(out))
    taken = [n for n in names if n in present]
    odd = [n for n in taken if not stat.S_ISREG(os.lstat(out / n).st_mode)]
    if odd:
        raise ValueError(
            f"log directory {out}: {odd[0]} is {_kind(out / odd[0])}; records never replace "
            "one (move it away)"
        )
    if taken and not overwrite:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        raise ValueError(
            f"log directory {out}: {taken[0]}{more} already there; choose another "
            "directory or replace them with --overwrite (overwrite=True)"
        )
    return out


def create_file(path: str | os.PathLike, data: str | bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` (``str`` as UTF-8) to a new file at ``path``, never through a symbolic link.

    Without ``overwrite`` the file must not exist (``O_CREAT | O_EXCL``: a planted link, even a
    dangling one, is refused, not followed). With ``overwrite`` an existing regular file is
    replaced (a new file renamed over it; hard links to the old one keep the old content); a
    symbolic link or any other kind of file there is still refused. Raises ``FileExistsError``.
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    st = None
    if overwrite:
        with contextlib.suppress(FileNotFoundError):
            st = os.lstat(path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise FileExistsError(
                f"{path}: {_kind(path)} is there; only a regular file is replaced"
            )
    if st is None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            raise FileExistsError(
                f"{path}: {_kind(path)} is already there; not replaced (overwrite=True, "
                "--overwrite, replaces a file)"
            ) from None
        _write_all(fd, payload, path)
        return
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(st.st_mode))  # the replaced file's permissions, not 0600
    _write_all(fd, payload, Path(tmp))
    try:
        os.replace(tmp, path)
    except OSError:
        os.unlink(tmp)
        raise


def _write_all(fd: int, payload: bytes, path: Path) -> None:
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _kind(path: Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "a file"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "a file" if stat.S_ISREG(mode) else "a special file"
