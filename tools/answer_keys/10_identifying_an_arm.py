"""The answer keys of ``solutions/10_identifying_an_arm.ipynb``: identifying an arm from data
(chapter 12; Gautier & Khalil (1990), Khalil & Dombre (2002), Ch. 12, for the base parameters;
Swevers et al. (1997) for the Fourier trajectory; Gautier & Poignet (2001) for least squares).

Each student has their own givens (:mod:`dynlab.grading.variants`): the number of joints of a
planar arm whose base parameters they count (I.1), the length of link 1 and the mass of link 2
of Schilling's two-axis arm, whose base parameters that take link 2's mass in they evaluate
(I.2), the mass of link 2 of the arm whose data set they fit (I.3: the data set is drawn with a
seed made from it, so each student has their own measurements), and the period of the
trajectory whose stacked regressor's condition number they compute (I.4).  Each answer is a
strictly monotone function of its given, or a table over the grid checked to have no two equal
entries, so no two values of a grid share an answer.  No answer is typed: the references come
from dynlab's identification (:mod:`dynlab.dynamics.identification`,
:mod:`dynlab.dynamics.estimation`), each asserted against a second route at grid points:

- I.1: ``base_parameters(...).count`` of the planar arm at every n of the grid, a line in n;
- I.2: the exact groupings of ``base_parameters`` on the symbolic arm, with the standard
  parameters of ``standard_parameters``;
- I.3: ``estimate_base_parameters`` on the student's data set (``measure`` seeded by the given),
  at every value of the grid (a table), asserted equal to ``lstsq`` on ``BaseParameters.regressor``
  and within 4.5 standard deviations of the arm's own base parameters;
- I.4: ``condition_number`` at every period of the grid (a table), asserted equal to the
  singular values' ratio of ``BaseParameters.regressor``.

The typical mistakes are computed the same way from a wrong reading of the question, and
:func:`common.check_mistakes` checks each apart from the answer at every value of the grid.
"""

import math

import numpy as np
import sympy
from answer_keys.common import check_mistakes

from dynlab import Link, Robot
from dynlab.dynamics.estimation import (
    FourierTrajectory,
    condition_number,
    estimate_base_parameters,
    measure,
)
from dynlab.dynamics.identification import (
    base_parameters,
    parameter_names,
    standard_parameters,
)
from dynlab.grading import make_key
from dynlab.grading.variants import grid_values
from dynlab.model.robots import planar_2r

NOTEBOOK = "10_identifying_an_arm"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer)
NOTES = {
    "I.1": {
        "hint": r"""
Count link by link, as chapter 12 does for the two-link arm (section 2): a planar link turning
about $z$ shows in the torques only through $ZZ_j$, $MX_j$, $MY_j$ and its mass $M_j$, and its
mass groups into the $ZZ$ and $MX$ of its own link and of the links before it. Then each joint's
own parameters: does $I_{a,j}$ multiply anything that no $ZZ$ does? Check your count against the
rank of the regressor stacked over a few random states.""",
        "takeaway": r"""
Far fewer than the $13n$ standard parameters show in the torques: a link's mass never shows on
its own, only grouped into the $ZZ$ and $MX$ of its own link and of the links before it, and a
rotor whose column in $Y$ is a $ZZ$'s groups into it. That is why a lab identifies base
parameters and never a link's mass alone, and why the count depends on where gravity points:
in a horizontal plane it would not show link 1's first moments.""",
    },
    "I.2": {
        "hint": r"""
The standard parameters are about the origin of DH frame 1, which sits at the elbow, the far end
of link 1: its centre is at $x_1 = -a_1/2$ (so $MX_1 = -m_1 a_1/2$), and $ZZ_1$ is the rod's
inertia about its end. The masses $M_1$, $M_2$ group into $ZZ_1$ and $MX_1$: write the torques'
columns of $M_1$ and $M_2$ as combinations of those of $ZZ_1$ and $MX_1$ (or read the grouping
off the stacked regressor by least squares).""",
        "takeaway": r"""
$MX_{1R}$ is a first moment about joint 1: $g\,MX_{1R}\cos q_1$ is the part of joint 1's
gravity torque that turns with $q_1$ alone, link 1's own weight and link 2's carried at the
elbow, which is why your $m_2$ is in it. $ZZ_{1R}$ is negative here, and no error: a base
parameter is a combination, not an inertia (frame 1 at the elbow moves the parallel-axis terms
to the other side). The data can only ever give these combinations; link 2's mass alone is not
in them.""",
    },
    "I.3": {
        "hint": r"""
The base regressor $Y_b$ is the columns of the kept parameters of `torque_regressor` (10
columns a link, in the order `M, MX, MY, MZ, XX, XY, YY, XZ, YZ, ZZ`), its rows sample by
sample. Stack the torques so that each row of $Y_b$ meets its own torque, then solve
$\min\|Y_b\hat\pi_b - \tau\|$.""",
        "takeaway": r"""
Your estimate lies within a few of its standard deviations (the roots of the diagonal of
$\sigma^2 (Y_b^TY_b)^{-1}$) of the arm's own base parameters: the torques' noise, the encoder's
steps and the filtered derivatives leave errors of a few thousandths (up to about 0.02 in the
inertia $ZZ_{1R}$). $MY_{1R}$ and $MY_{2R}$ come out near 0, as they are (the rods lie along
their $x$ axes), and $MX_{2R} = MX_2 + M_2a_2$, link 2's first moment about the elbow, grows
with your $m_2$ by $a_2/2$ a kilogram: a payload gripped at a known point is weighed the same
way.""",
    },
    "I.4": {
        "hint": r"""
Build the trajectory with your period ($\omega = 2\pi/T$), sample it at
`path.times(50)` (50 times a period apart, from $t = 0$), stack $Y_b$ over them as in I.3 and take
the ratio of its largest singular value to its smallest (`np.linalg.cond`).""",
        "takeaway": r"""
The same Fourier coefficients played slower excite less: the accelerations fall as $1/T$ and
the inertial columns ($ZZ_{1R}$, $ZZ_{2R}$) shrink next to the gravity columns, so the condition
number grows and so does the noise the inertias are estimated with. An exciting trajectory is
chosen to keep it small (Gautier & Khalil, 1992; `exciting_trajectory`).""",
    },
}
G = 9.8062                                      # planar_2r's gravity (Fu et al., Schilling)

#: I.1's given: the number of joints of the planar arm, from 4: at n = 3 two typical mistakes
#: (no rotors, 5n; a horizontal plane, 6n - 3) give the same count, and only one is named
JOINTS = {"n": {"low": 4, "high": 9, "step": 1, "unit": "",
                "text": "the number of revolute joints of the planar arm"}}
#: I.2's givens: Schilling's two-axis arm with link 1's length and link 2's mass of the student
#: (dynlab's numbers, a1 = 0.5 m and m2 = 1.5 kg, which the chapter may use, are not drawn); no
#: two points of the grids share either base parameter (checked in grouping_keys)
ARM = {"a1": {"low": 0.3, "high": 0.7, "step": 0.08, "unit": "m",
              "text": "the length of link 1"},
       "m2": {"low": 0.8, "high": 2.6, "step": 0.3, "unit": "kg", "text": "the mass of link 2"}}
#: I.3's given: the mass of link 2 of the arm measured; the data set's seed is round(100 m2)
DATA = {"m2": {"low": 0.8, "high": 3.2, "step": 0.4, "unit": "kg",
               "text": "the mass of link 2 of the arm your data set measured"}}
#: I.4's given: the period of the trajectory (the data set's own, 8 s, is not drawn)
PERIOD = {"T": {"low": 4.5, "high": 13.5, "step": 1.0, "unit": "s",
                "text": "the period of the Fourier trajectory"}}

#: The Fourier trajectory of I.3 and I.4 (Swevers et al. (1997)): q0 and the coefficients a, b
#: of three harmonics per joint, rad/s; I.3's period, s
Q0 = (0.3, 0.8)
A = ((0.6, -0.3, 0.2), (-0.5, 0.4, 0.3))
B = ((0.2, 0.5, -0.2), (0.4, -0.3, 0.2))
DATA_PERIOD = 8.0
#: I.3's lab: torque noise (N m), encoder counts a revolution, samples a period
NOISE, COUNTS, SAMPLES = 0.05, 4096, 400
#: I.4's samples a period
CONDITION_SAMPLES = 50
#: the base parameters of the planar 2R arm, in base_parameters' order, and their columns in
#: torque_regressor (10 a link: M, MX, MY, MZ, XX, XY, YY, XZ, YZ, ZZ)
BASE_NAMES = ("ZZ1R", "MX1R", "MY1R", "ZZ2R", "MX2R", "MY2R")
BASE_COLUMNS = (9, 1, 2, 19, 11, 12)


def rounded(expr):
    """``expr`` with its floats to 7 significant digits: the key stays the same on every
    machine (the last bits of a least squares differ), far below the tolerances."""
    expr = sympy.sympify(expr)
    return expr.xreplace({f: sympy.Float(f"{float(f):.7g}") for f in expr.atoms(sympy.Float)})


def at(expr, values):
    """The number ``expr`` (in the givens) takes at ``values`` ({name: value})."""
    return float(sympy.sympify(expr).xreplace({sympy.Symbol(k): v for k, v in values.items()})
                 .evalf(30))


def table(values: dict, name: str):
    """``values`` ({grid value: number}) as an expression in the given ``name``: a Piecewise
    that takes each number on its grid value (switching halfway between neighbours)."""
    x = sympy.Symbol(name)
    points = sorted(values)
    pieces = [(sympy.Float(values[a]), x < (a + b) / 2) for a, b in zip(points, points[1:])]
    return sympy.Piecewise(*pieces, (sympy.Float(values[points[-1]]), True))


def key(question, *, title, points, parameters, parts, mistakes):
    """A numeric key: ``parts`` ``{name: value}`` (an expression or a list of them, in the
    givens), ``mistakes`` ``[(part, value, message)]``, each checked apart from its part at
    every value of the grids."""
    parts = {name: [rounded(v) for v in (value if isinstance(value, list) else [value])]
             for name, value in parts.items()}
    wrong = [{"part": part, "value": [rounded(v) for v in (value if isinstance(value, list)
                                                           else [value])], "message": message}
             for part, value, message in mistakes]
    check_mistakes(question, parameters, parts, wrong)
    return make_key(question, notebook=NOTEBOOK, title=title, points=points, kind="numeric",
                    parameters=parameters,
                    parts=[{"name": name, "value": value,
                            "shape": [] if len(value) == 1 else [len(value)]}
                           for name, value in parts.items()],
                    mistakes=wrong)


# -- I.1: a count ---------------------------------------------------------------------------------
def planar_arm(n: int, gravity=(0.0, -G, 0.0)) -> Robot:
    """A planar arm of ``n`` revolute joints about parallel z axes (alpha = d = 0), each link a
    general body (centre off its x axis, a full inertia tensor), with friction."""
    links = [Link("R", a=0.3 + 0.05 * k, alpha=0, mass=1.0 + 0.2 * k,
                  com=(-0.15, 0.01 * (k + 1), 0.02),
                  inertia=[[0.01, 0.001, 0.0], [0.001, 0.02, 0.0], [0.0, 0.0, 0.03]],
                  viscous=0.1, coulomb=0.2) for k in range(n)]
    return Robot(links, gravity=gravity)


def count_key():
    """I.1: the base parameters of the planar arm of n joints with rotors and friction."""
    n = sympy.Symbol("n")
    grid = [int(v) for v in grid_values(JOINTS["n"])]

    def line(counts: dict):
        """The counts over the grid as a line in n (asserted at every n)."""
        slope = counts[grid[1]] - counts[grid[0]]
        expr = counts[grid[0]] + slope * (n - grid[0])
        assert all(expr.subs(n, k) == counts[k] for k in grid), counts
        return expr

    def counted(**options):
        return line({k: base_parameters(planar_arm(k), **options).count for k in grid})

    right = counted(rotor=True, friction=True)
    horizontal = line({k: base_parameters(planar_arm(k, (0.0, 0.0, -G)), rotor=True,
                                          friction=True).count for k in grid})
    standard = line({k: len(parameter_names(k, rotor=True, friction=True)) for k in grid})
    return key(
        "I.1", title="How many base parameters a planar arm of n joints has", points=1,
        parameters=JOINTS, parts={"count": right},
        mistakes=[("count", standard, "that is the number of standard parameters (10 a link, "
                                      "Ia, Fv, Fc a joint); the base parameters are only the "
                                      "combinations the torques show"),
                  ("count", right + 1, "joint 1's rotor multiplies qdd1 in joint 1's torque "
                                       "alone, exactly as ZZ1 does: it groups into ZZ1R"),
                  ("count", counted(rotor=True), "friction adds two base parameters a joint, "
                                                 "Fv and Fc, each seen on its own"),
                  ("count", counted(friction=True), "the rotors of joints 2 to n stay base "
                                                    "parameters of their own; only joint 1's "
                                                    "groups"),
                  ("count", horizontal, "in a vertical plane gravity shows MX1 and MY1: they "
                                        "stay (only in a horizontal plane do they drop)"),
                  ("count", right + n, "each link's mass groups into ZZ and MX of its own "
                                       "link and the links before it: a link keeps ZZ, MX "
                                       "and MY"),
                  ("count", counted(), "the rotors and the friction are parameters of the "
                                       "torques too")])


# -- I.2: a grouping ------------------------------------------------------------------------------
def grouping_key():
    """I.2: ZZ1R and MX1R of Schilling's two-axis arm at the student's a1 and m2, from the
    exact groupings of base_parameters on the symbolic arm (frame i at link i's far end)."""
    arm = planar_2r("schilling", symbolic=True)
    base = base_parameters(arm)
    assert tuple(str(s) for s in base.symbols) == BASE_NAMES
    a1, m1, m2 = (sympy.Symbol(name, positive=True) for name in ("a1", "m1", "m2"))
    m1_value = planar_2r("schilling").links[0].mass
    givens = {a1: sympy.Symbol("a1"), m2: sympy.Symbol("m2"), m1: sympy.Float(m1_value)}
    symbols = dict(zip(base.standard, list(standard_parameters(arm))))
    grouped = [e.xreplace(symbols) for e in base.expressions]
    ZZ1R, MX1R = (sympy.expand(grouped[k].xreplace(givens)) for k in (0, 1))
    # at grid points, dynlab's numbers: base_parameters' values of the numeric arm
    for a, m in ((0.3, 0.8), (0.7, 2.6), (0.46, 1.7)):
        numeric = planar_2r("schilling", a1=a, m2=m)
        values = base_parameters(numeric).values(standard_parameters(numeric))
        assert np.allclose([at(ZZ1R, {"a1": a, "m2": m}), at(MX1R, {"a1": a, "m2": m})],
                           values[:2], rtol=1e-9, atol=1e-12)
    # the standard parameters of link 1 about frame 1's origin (at the elbow)
    MX1 = -m1_value * sympy.Symbol("a1") / 2
    ZZ1 = m1_value * sympy.Symbol("a1")**2 / 3
    a, m = sympy.Symbol("a1"), sympy.Symbol("m2")
    centre = {"ZZ1R": m1_value * a**2 / 12 - (m1_value + m) * a**2, "MX1R": (m1_value + m) * a}
    outward = MX1R - 2 * MX1                    # MX1 = +m1 a1 / 2
    shoulder = ZZ1 + 2 * a * MX1 + (m1_value + m) * a**2   # about joint 1: ZZ1R + 2 a1 MX1R
    plus = ZZ1 + (m1_value + m) * a**2          # Khalil & Dombre's sign (frames at the joints)
    grid = [(x, y) for x in grid_values(ARM["a1"]) for y in grid_values(ARM["m2"])]
    for expr in (ZZ1R, MX1R):                  # each part alone tells every student apart
        values = sorted(at(expr, {"a1": x, "m2": y}) for x, y in grid)
        assert min(np.diff(values)) > 1e-3 * max(np.abs(values)), expr
    return key(
        "I.2", title="The base parameters that take link 2's mass in", points=2,
        parameters=ARM, parts={"ZZ1R": ZZ1R, "MX1R": MX1R},
        mistakes=[("ZZ1R", ZZ1R.subs(m, 0), "link 2's mass groups into link 1's parameters "
                                            "too: its columns are combinations of theirs"),
                  ("MX1R", MX1R.subs(m, 0), "link 2's mass groups into link 1's parameters "
                                            "too: its columns are combinations of theirs"),
                  ("ZZ1R", centre["ZZ1R"], "the standard parameters are about the origin of "
                                           "DH frame 1, at the elbow, not about the centre of "
                                           "mass: ZZ1 = m1 a1^2/3"),
                  ("MX1R", centre["MX1R"], "the standard parameters are about the origin of "
                                           "DH frame 1, at the elbow, not about the centre of "
                                           "mass: MX1 = -m1 a1/2"),
                  ("MX1R", outward, "link 1's centre lies at x1 = -a1/2: frame 1 sits at the "
                                    "elbow, the link's far end"),
                  ("ZZ1R", shoulder, "that is link 1's inertia about the shoulder with link 2's "
                                     "mass at the elbow, ZZ1R + 2 a1 MX1R, the combination "
                                     "chapter 12 derives by hand; ZZ1R is ZZ1 with the masses "
                                     "folded in as base_parameters folds them"),
                  ("ZZ1R", plus, "frame 1 sits at the far end of link 1: the grouping takes "
                                 "(M1 + M2) a1^2 off ZZ1 (the parallel axes the other way)")])


# -- I.3: an estimate from the student's own data set ---------------------------------------------
def trajectory(period: float) -> FourierTrajectory:
    return FourierTrajectory(2 * math.pi / period, Q0, A, B)


def data_set(m2: float):
    """The student's data set: Schilling's arm with link 2 of ``m2`` kg measured along the
    trajectory of period DATA_PERIOD, the generator seeded with round(100 m2)."""
    arm = planar_2r("schilling", m2=m2)
    rng = np.random.default_rng(round(100 * m2))
    return arm, measure(arm, trajectory(DATA_PERIOD), rng=rng, torque_noise=NOISE,
                        counts_per_revolution=COUNTS, samples=SAMPLES)


def estimates(m2: float) -> dict:
    """The OLS estimate on the student's data set and the numbers of its typical mistakes."""
    arm, data = data_set(m2)
    base = base_parameters(arm)
    assert base.kept == BASE_COLUMNS
    estimate = estimate_base_parameters(base, data.q, data.qd, data.qdd, data.tau)
    Y = base.regressor(data.q, data.qd, data.qdd)
    assert np.allclose(np.linalg.lstsq(Y, data.tau.ravel(), rcond=None)[0], estimate.values,
                       rtol=0, atol=1e-12)
    truth = base.values(standard_parameters(arm))
    assert np.all(np.abs(estimate.values - truth) <= 4.5 * estimate.std), m2
    exact = trajectory(DATA_PERIOD).at(data.t)          # the trajectory's own rates
    Y_exact = base.regressor(data.q, exact[1], exact[2])
    return {"right": estimate.values, "truth": truth,
            "by joint": np.linalg.lstsq(Y, data.tau.T.ravel(), rcond=None)[0],
            "exact rates": np.linalg.lstsq(Y_exact, data.tau.ravel(), rcond=None)[0],
            "weighted": estimate_base_parameters(base, data.q, data.qd, data.qdd, data.tau,
                                                 weighted=True).values}


def estimate_key():
    """I.3: the student's least-squares estimate of the six base parameters."""
    grid = grid_values(DATA["m2"])
    found = {m2: estimates(m2) for m2 in grid}
    moments = [found[m2]["right"][1] for m2 in grid]          # MX1R grows with m2: no two alike
    assert min(np.diff(moments)) > 3e-5 * max(moments)

    def vector(name):
        return [table({m2: float(found[m2][name][k]) for m2 in grid}, "m2") for k in range(6)]
    return key(
        "I.3", title="The base parameters estimated from your own data set", points=2,
        parameters=DATA, parts={"pi_b": vector("right")},
        mistakes=[("pi_b", vector("truth"), "that is the arm's own base parameters, from its "
                                            "model; the question asks what your data give by "
                                            "least squares"),
                  ("pi_b", vector("by joint"), "the torques must be stacked as the regressor's "
                                               "rows are, sample by sample (tau.ravel()), not "
                                               "joint by joint"),
                  ("pi_b", vector("exact rates"), "the lab measured positions only: use the "
                                                  "data set's filtered velocities and "
                                                  "accelerations, not the trajectory's own"),
                  ("pi_b", vector("weighted"), "that is the weighted least squares estimate; "
                                               "the question asks for ordinary least squares")])


# -- I.4: a condition number ----------------------------------------------------------------------
def conditions(T: float) -> dict:
    """cond(Y_b) along the trajectory of period ``T`` and the numbers of its typical mistakes."""
    base = base_parameters(planar_2r("schilling"))
    path = trajectory(T)
    right = condition_number(base, path, CONDITION_SAMPLES)
    Y = base.regressor(*path.at(path.times(CONDITION_SAMPLES)))
    s = np.linalg.svd(Y, compute_uv=False)
    assert math.isclose(right, s[0] / s[-1], rel_tol=1e-12)
    ends = base.regressor(*path.at(np.linspace(0.0, T, CONDITION_SAMPLES)))
    slow = FourierTrajectory(T, Q0, A, B)               # the frequency read as T rad/s
    return {"right": right, "squared": float(np.linalg.cond(Y.T @ Y)),
            "scaled": float(np.linalg.cond(Y / np.linalg.norm(Y, axis=0))),
            "ends": float(np.linalg.cond(ends)),
            "frequency": condition_number(base, slow, CONDITION_SAMPLES)}


def condition_key():
    """I.4: the condition number of the stacked base regressor along the trajectory."""
    grid = grid_values(PERIOD["T"])
    found = {T: conditions(T) for T in grid}
    values = sorted(found[T]["right"] for T in grid)
    assert min(np.diff(values)) > 3e-5 * max(values)

    def over(name):
        return table({T: found[T][name] for T in grid}, "T")
    return key(
        "I.4", title="The condition number of the stacked base regressor", points=1,
        parameters=PERIOD, parts={"kappa": over("right")},
        mistakes=[("kappa", over("squared"), "that is the condition number of Y_b^T Y_b, the "
                                             "square of Y_b's"),
                  ("kappa", over("scaled"), "that is Y_b with its columns scaled to norm 1; "
                                            "the question asks for Y_b as it is"),
                  ("kappa", over("ends"), "the 50 times are a period apart evenly, T/50 apart "
                                          "from t = 0 (path.times(50)); np.linspace(0, T, 50) "
                                          "repeats t = 0 at t = T"),
                  ("kappa", over("frequency"), "the frequency of FourierTrajectory is in rad/s: "
                                               "2 pi / T, not T")])


def keys() -> list:
    return [count_key(), grouping_key(), estimate_key(), condition_key()]
