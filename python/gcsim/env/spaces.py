"""Small descriptions of what an environment observes and what it takes as
action, after Gymnasium's spaces (without depending on it): their shape,
dtype and bounds, ``sample()`` and ``contains()``.

    space = Discrete(33)
    space.sample(mask=info["action_mask"])   # an allowed action, at random
    Box(0, 8, shape=(4,), dtype=np.int32).contains(np.array([0, 8, 3, 1], dtype=np.int32))   # True
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np


class Space:
    """What every space has: ``shape``, ``dtype``, a random generator to sample with."""

    def __init__(self, shape: Optional[tuple[int, ...]], dtype: Optional[np.dtype], seed: Optional[int] = None):
        self.shape = shape
        self.dtype = None if dtype is None else np.dtype(dtype)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed: Optional[int] = None) -> None:
        """Seeds the generator sample() draws from."""
        self.np_random = np.random.default_rng(seed)

    def sample(self, mask: Any = None) -> Any:
        raise NotImplementedError

    def contains(self, x: Any) -> bool:
        raise NotImplementedError

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)


class Discrete(Space):
    """The integers ``start`` to ``start + n - 1``."""

    def __init__(self, n: int, start: int = 0, seed: Optional[int] = None):
        if n < 1:
            raise ValueError(f"Discrete: n must be at least 1, got {n}")
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = int(start)

    def sample(self, mask: Optional[Sequence[Any]] = None) -> int:
        """One of the values at random; with ``mask`` (n flags), one whose flag is set."""
        if mask is None:
            return self.start + int(self.np_random.integers(self.n))
        allowed = np.flatnonzero(np.asarray(mask, dtype=bool))
        if len(np.asarray(mask)) != self.n:
            raise ValueError(f"Discrete.sample: the mask has {len(np.asarray(mask))} flags, the space {self.n} values")
        if len(allowed) == 0:
            raise ValueError("Discrete.sample: the mask allows no value")
        return self.start + int(allowed[self.np_random.integers(len(allowed))])

    def contains(self, x: Any) -> bool:
        if isinstance(x, (bool, np.bool_)):
            return False
        if isinstance(x, (int, np.integer)):
            value = int(x)
        elif isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            value = int(x)
        else:
            return False
        return self.start <= value < self.start + self.n

    def __repr__(self) -> str:
        return f"Discrete({self.n})" if self.start == 0 else f"Discrete({self.n}, start={self.start})"


class Box(Space):
    """Arrays of ``shape`` and ``dtype`` with each element within [low, high]
    (bounds may be infinite, and scalars or arrays of the shape)."""

    def __init__(self, low: Union[float, np.ndarray], high: Union[float, np.ndarray],
                 shape: Optional[Sequence[int]] = None, dtype: Any = np.float64, seed: Optional[int] = None):
        if shape is None:
            shape = np.broadcast(np.asarray(low), np.asarray(high)).shape
        shape = tuple(int(n) for n in shape)
        super().__init__(shape, dtype, seed)
        self.low = np.broadcast_to(np.asarray(low, dtype=np.float64), shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=np.float64), shape).copy()
        if np.any(self.low > self.high):
            raise ValueError("Box: a lower bound is above its upper bound")

    def sample(self, mask: Any = None) -> np.ndarray:
        """An array within the bounds: uniform where both are finite, shifted
        exponential where one is, normal where neither is."""
        low, high = self.low, self.high
        out = np.empty(self.shape, dtype=np.float64)
        both = np.isfinite(low) & np.isfinite(high)
        only_low = np.isfinite(low) & ~np.isfinite(high)
        only_high = ~np.isfinite(low) & np.isfinite(high)
        neither = ~np.isfinite(low) & ~np.isfinite(high)
        out[both] = self.np_random.uniform(low[both], high[both])
        out[only_low] = low[only_low] + self.np_random.exponential(size=int(only_low.sum()))
        out[only_high] = high[only_high] - self.np_random.exponential(size=int(only_high.sum()))
        out[neither] = self.np_random.normal(size=int(neither.sum()))
        if np.issubdtype(self.dtype, np.integer):
            out = np.clip(np.floor(out), low, high)
        return out.astype(self.dtype)

    def contains(self, x: Any) -> bool:
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (TypeError, ValueError):
                return False
        if x.shape != self.shape or not np.can_cast(x.dtype, self.dtype):
            return False
        with np.errstate(invalid="ignore"):
            return bool(np.all((x >= self.low) & (x <= self.high)))

    def __repr__(self) -> str:
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class Dict(Space):
    """Named spaces: samples and observations are dicts of their values."""

    def __init__(self, spaces: Mapping[str, Space], seed: Optional[int] = None):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces)

    def seed(self, seed: Optional[int] = None) -> None:
        super().seed(seed)
        for i, space in enumerate(self.spaces.values()):
            space.seed(None if seed is None else seed + i)

    def sample(self, mask: Any = None) -> dict[str, Any]:
        return {name: space.sample() for name, space in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        return (isinstance(x, Mapping) and set(x) == set(self.spaces)
                and all(space.contains(x[name]) for name, space in self.spaces.items()))

    def __getitem__(self, name: str) -> Space:
        return self.spaces[name]

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{name}: {space!r}" for name, space in self.spaces.items()) + ")"


__all__ = ["Space", "Discrete", "Box", "Dict"]
