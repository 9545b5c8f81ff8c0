"""The figures and explorer of the chapter on simulation: the pendulum's period (Schilling,
Sec. 6-9: ``T0 = 2 pi sqrt(2a/(3g))``, exactly ``(2/pi) K(sin^2(theta0/2)) T0``), explicit
Euler's energy factor ``(1 + h^2 omega^2)^(t/h)`` (Lynch & Park, Sec. 8.5), the chapter's plots
and the two-link explorer.

>>> round(exact_period(math.pi / 2, 0.5, 9.81) / small_angle_period(0.5, 9.81), 4)
1.1803
>>> round(euler_energy_factor(h=1e-3, omega=math.sqrt(3 * 9.81 / 1.0), t=10.0), 4)
1.3422
"""

from __future__ import annotations

import math

import numpy as np

from dynlab.dynamics.simulation import simulate
from dynlab.model.robots.two_link import planar_2r
from dynlab.teaching.dashboards.common import widget_bundle


def small_angle_period(a: float, g: float) -> float:
    """``2 pi sqrt(2a / (3g))``: the period of a uniform rod of length ``a`` swinging about one
    end by small angles (``(m a^2/3) theta'' = -(m g a/2) theta``)."""
    if a <= 0 or g <= 0:
        raise ValueError(f"the rod's length and gravity must be positive, not a={a}, g={g}")
    return 2 * math.pi * math.sqrt(2 * a / (3 * g))


def exact_period(theta0: float, a: float, g: float) -> float:
    """The period of the same rod released from rest at ``theta0`` rad from the lowest position:
    ``(2/pi) K(sin^2(theta0/2)) T0``, ``K`` the complete elliptic integral of the first kind."""
    from scipy.special import ellipk
    return small_angle_period(a, g) * 2 / math.pi * float(ellipk(math.sin(theta0 / 2) ** 2))


def euler_energy_factor(h: float, omega: float, t: float) -> float:
    """One explicit Euler step of ``x'' = -omega^2 x`` multiplies the energy by ``1 + h^2 omega^2``
    (the determinant of the step's matrix); over ``t / h`` steps, this factor."""
    return (1 + (h * omega) ** 2) ** (t / h)


def period_figure(amplitudes, periods, T0: float):
    """The simulated periods (dots) over the exact law and the small-angle value, against the
    amplitude in degrees."""
    from matplotlib.figure import Figure
    from scipy.special import ellipk
    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    fine = np.linspace(0.5, 172, 200)
    ax.plot(fine, [2 / math.pi * ellipk(math.sin(math.radians(x) / 2) ** 2) for x in fine],
            label=r"exact, $\frac{2}{\pi}K(\sin^2\frac{\theta_0}{2})$")
    ax.plot(amplitudes, np.array(periods) / T0, "o", label="simulated")
    ax.axhline(1.0, color="0.5", lw=0.8, ls="--", label="small-angle formula")
    ax.set(xlabel="amplitude (degrees)", ylabel="period / $T_0$",
           title="Free swing of the pendulum (Schilling, Sec. 6-9)")
    ax.legend()
    fig.tight_layout()
    return fig


def energy_figure(runs: dict):
    """``|E(t) - E(0)|`` over an energy scale, on a log axis, one line per named run."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    for name, motion in runs.items():
        scale = max(abs(motion.total[0]), motion.kinetic.max())
        ax.semilogy(motion.t[1:], np.abs(motion.total[1:] - motion.total[0]) / scale + 1e-17,
                    label=name)
    ax.set(xlabel="t (s)", ylabel=r"$|E(t) - E(0)|$ / energy scale",
           title="Energy of the frictionless two-link arm")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def settling_figure(settling, rest, torque):
    """The joint angles settling to the static equilibrium ``rest`` (dashed), and the energy
    minus the work of the constant ``torque``, which friction only lowers.  Returns the figure
    and that energy balance (an array over ``settling.t``)."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(9, 3.2))
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for k in range(settling.q.shape[1]):
        left.plot(settling.t, settling.q[:, k], label=f"$q_{k + 1}$")
        left.axhline(rest[k], color=f"C{k}", ls="--", lw=0.8,
                     label=f"$q_{k + 1}$ at rest (static_equilibrium)")
    left.set(xlabel="t (s)", ylabel="rad", title="settling to the static equilibrium")
    left.legend(fontsize=7)
    work = np.concatenate([[0.0], np.cumsum(np.diff(settling.q, axis=0) @ np.asarray(torque))])
    balance = settling.total - work
    right.plot(settling.t, balance, label=r"$E - \int \tau\, dq$")
    right.set(xlabel="t (s)", ylabel="J", title="friction dissipates")
    right.legend(fontsize=7)
    fig.tight_layout()
    return fig, balance


def friction_figure(released, euler_written, static: float, late_after: float):
    """The pendulum with static friction: angle, friction torque (with ``+-static`` dashed) and
    the velocity after ``late_after`` s, Eq. (6-3-3) integrated as written by Euler against the
    stick-slip model."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(11, 3.2))
    axes = [fig.add_subplot(1, 3, k) for k in (1, 2, 3)]
    axes[0].plot(released.t, released.q[:, 0] + math.pi / 2, label="stick-slip model")
    axes[0].set(title="angle from the lowest position", ylabel="rad")
    axes[1].plot(released.t, released.friction[:, 0], lw=0.8, label="friction torque")
    axes[1].axhline(static, color="0.5", ls="--", lw=0.8, label=r"$\pm b^s$")
    axes[1].axhline(-static, color="0.5", ls="--", lw=0.8)
    axes[1].set(title="friction torque", ylabel="N m")
    late = euler_written.t > late_after
    axes[2].plot(euler_written.t[late], euler_written.qd[late, 0], ".-", lw=0.6, ms=3,
                 label="Euler, Eq. (6-3-3) as written")
    mine = released.t > late_after
    axes[2].plot(released.t[mine], released.qd[mine, 0], "o-", lw=2, label="stick-slip model")
    axes[2].set(title="velocity at the end: chatter", ylabel="rad/s")
    for ax in axes:
        ax.set_xlabel("t (s)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def falling_figure(falling):
    """The joint angles and the energies of a motion."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(10, 3.2))
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for k in range(falling.q.shape[1]):
        left.plot(falling.t, falling.q[:, k], label=f"$q_{k + 1}$")
    left.set(xlabel="t (s)", ylabel="rad", title="joint angles")
    left.legend(fontsize=7, ncol=2)
    plot_energies(right, falling)
    fig.tight_layout()
    return fig


def plot_energies(ax, motion) -> None:
    """Kinetic, potential and total energy of ``motion`` against time, on ``ax``, with a legend."""
    for name, values in (("kinetic", motion.kinetic), ("potential", motion.potential),
                         ("total", motion.total)):
        ax.plot(motion.t, values, label=name)
    ax.set(xlabel="t (s)", ylabel="J", title="energies")
    ax.legend(fontsize=7)


#: The explorer's sliders: name -> (start, min, max, step, label).
TWO_LINK_SLIDERS = {
    "q1": (-30.0, -180, 180, 5, "q1 (°)"), "q2": (60.0, -180, 180, 5, "q2 (°)"),
    "qd1": (0.0, -5, 5, 0.25, "q̇1 (rad/s)"), "qd2": (0.0, -5, 5, 0.25, "q̇2 (rad/s)"),
    "m2": (1.0, 0.1, 5, 0.1, "m2 (kg)"), "viscous": (0.3, 0, 5, 0.1, "b viscous"),
    "static": (0.0, 0, 2, 0.1, "b static"), "seconds": (3.0, 0.5, 10, 0.5, "t (s)"),
}


def run_two_link(q1=-30.0, q2=60.0, qd1=0.0, qd2=0.0, m2=1.0, viscous=0.3, static=0.0,
                 seconds=3.0):
    """Fu, Gonzalez & Lee's two-link arm (Fig. 3.2) with mass ``m2`` and joint friction
    (viscous, static, and Coulomb at 0.6 of static) simulated from ``q`` in degrees and ``qd``
    in rad/s for ``seconds``, sampled 200 times (RK45, stick-slip friction).

    >>> motion = run_two_link(seconds=0.5)
    >>> len(motion), float(motion.t[-1])
    (201, 0.5)
    """
    arm = planar_2r("fu", m2=m2, viscous=viscous, coulomb=0.6 * static, static=static)
    return simulate(arm, [math.radians(q1), math.radians(q2)], [qd1, qd2], t_span=seconds,
                    dt=seconds / 200)


def energies_figure(motion):
    """Kinetic, potential and total energy of a motion against time."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(6, 2.2))
    plot_energies(fig.add_subplot(), motion)
    fig.tight_layout()
    return fig


class TwoLinkExplorer:
    """Sliders for :func:`run_two_link`'s arguments and a *Simulate* button; pressing it
    simulates, animates the arm (``Trajectory.animate``) and plots its energies below.
    ``controls`` (name -> slider), ``button``, ``output``, ``widget`` (the box to display) and
    the last ``motion``."""

    def __init__(self):
        import ipywidgets as widgets
        self.controls = {name: widgets.FloatSlider(value=v, min=lo, max=hi, step=step,
                                                   description=label)
                         for name, (v, lo, hi, step, label) in TWO_LINK_SLIDERS.items()}
        self.output = widgets.Output()
        self.button = widgets.Button(description="Simulate", button_style="primary")
        self.button.on_click(self._on_click)
        sliders = list(self.controls.values())
        self.widget = widgets.VBox([widgets.HBox([widgets.VBox(sliders[:4]),
                                                  widgets.VBox(sliders[4:])]),
                                    self.button, self.output])
        self.motion = None

    def settings(self) -> dict:
        """The sliders' values, as :func:`run_two_link`'s keyword arguments."""
        return {name: w.value for name, w in self.controls.items()}

    def simulate(self):
        """Run :func:`run_two_link` at the sliders' settings; returns the motion."""
        self.motion = run_two_link(**self.settings())
        return self.motion

    def _on_click(self, _):
        from IPython.display import display
        with self.output:
            self.output.clear_output(wait=True)
            motion = self.simulate()
            display(motion.player(frames=16, dpi=50))
            display(energies_figure(motion))

    def _repr_mimebundle_(self, **kwargs):
        return widget_bundle(self, **kwargs)

    def __repr__(self) -> str:
        settings = ", ".join(f"{name} = {value:g}" for name, value in self.settings().items())
        return f"TwoLinkExplorer({settings}; press Simulate in a running notebook)"
