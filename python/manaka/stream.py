"""MPK1 raw streams: reading, writing and self-play writing."""

from manaka._core import stream as _stream  # noqa: F401

__all__: list[str] = []
