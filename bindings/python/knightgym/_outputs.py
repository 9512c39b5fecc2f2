"""Files Python writes, as the C++ commands write theirs (util/output_lock.h,
util/atomic_file.h): each under its OutputLock, so that a second writer is refused at once
(BlockingIOError naming the holder's pid), and replaced whole (a temporary beside it,
flushed to disk, then renamed over it), never half-written."""

import contextlib
import os

from knightgym import _knightgym


def locked_folder(out):
    """`out`'s folder lock for a `with` block (it makes the folder); nothing for None."""
    if out is None:
        return contextlib.nullcontext()
    return _knightgym.OutputLock.folder(os.fspath(out))


@contextlib.contextmanager
def replaced(path, mode="w"):
    """A file open on a temporary beside `path` for a `with` block, renamed over `path`
    once the block ends well (flushed to disk first) and removed if it fails; `path`'s
    lock is held throughout."""
    path = os.fspath(path)
    with _knightgym.OutputLock.file(path):
        temporary = f"{path}.tmp{os.getpid()}"
        try:
            with open(temporary, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as file:
                yield file
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def write_text(path, text):
    """`text` as the whole of `path`, replaced whole under its lock."""
    with replaced(path) as file:
        file.write(text)


def save_figure(figure, path, **options):
    """A matplotlib figure as the whole of `path` (its format from the name), replaced
    whole under its lock."""
    fmt = os.path.splitext(os.fspath(path))[1].lstrip(".") or None
    with replaced(path, "wb") as file:
        figure.savefig(file, format=fmt, **options)
