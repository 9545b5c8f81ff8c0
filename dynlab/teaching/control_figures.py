"""The figures of the chapter on control: the tracking errors of several controllers."""

from __future__ import annotations

import math

import numpy as np


def tracking_errors_figure(times: dict, errors: dict, *, columns: int | None = None):
    """One panel per joint (``columns`` a row), one line per controller: ``errors[name]`` against
    ``times[name]``; the Matplotlib figure.

    >>> import numpy as np
    >>> t = np.linspace(0.0, 1.0, 5)
    >>> fig = tracking_errors_figure({"PD": t}, {"PD": np.zeros((5, 2))})
    >>> [ax.get_title() for ax in fig.axes]
    ['joint 1: tracking error (rad)', 'joint 2: tracking error (rad)']
    >>> tracking_errors_figure({"PD": [0, 1]}, {"PD": [[0.0, 1.0]]})
    Traceback (most recent call last):
    ...
    ValueError: errors['PD'] has 1 rows but times['PD'] has 2
    """
    import matplotlib.pyplot as plt

    if set(times) != set(errors) or not errors:
        raise ValueError("times and errors must name the same controllers, at least one")
    arrays = {}
    for name, e in errors.items():
        e, t = np.asarray(e, dtype=float), np.asarray(times[name], dtype=float)
        if e.ndim != 2 or len(e) != len(t):
            raise ValueError(f"errors[{name!r}] has {len(e)} rows but times[{name!r}] has "
                             f"{len(t)}")
        arrays[name] = (t, e)
    n = next(iter(arrays.values()))[1].shape[1]
    columns = columns or (n if n <= 3 else 3)
    rows = math.ceil(n / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.2 * rows), sharex=True,
                             squeeze=False)
    for name, (t, e) in arrays.items():
        for j, ax in enumerate(axes.flat[:n]):
            ax.plot(t, e[:, j], label=name)
    for j, ax in enumerate(axes.flat):
        if j < n:
            ax.set_title(f"joint {j + 1}: tracking error (rad)", fontsize=10)
        else:
            ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("t (s)")
    axes.flat[0].legend(fontsize=8)
    fig.tight_layout()
    return fig
