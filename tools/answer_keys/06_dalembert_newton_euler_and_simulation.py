"""The answer keys of ``solutions/06_dalembert_newton_euler_and_simulation``: Lee's G-D terms, the
Newton-Euler passes of Luh and Schilling, the dashboards and the simulation.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import sympy
from answer_keys.common import (
    SPLIT2,
    check_mistakes,
    column,
    positive,
    q,
    q1,
    q2,
    qd,
    qd1,
    qd2,
    qdd,
    qdd1,
    qdd2,
)

from dynlab import equations_of_motion, inverse_dynamics, simulate
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol, reference
from dynlab.model.edits import with_mass, with_payload
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import pendulum, planar_2r
from dynlab.model.robots.parameters import rod_inertia
from dynlab.model.symbolic import compact, is_zero

NOTEBOOK = "06_dalembert_newton_euler_and_simulation"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "G.1": {
        "hint": r"""
Take Eq. (3.4-25) of Fu, Gonzalez & Lee one sum at a time. Both joint axes are $z$, so
${}^s\mathbf R_0\,\mathbf z_{j-1}$ is $(0, 0, 1)^T$ in every link's frame: which entry of
$\mathbf I_s$ does $D^{\rm rot}_{ij}$ pick out? For $\mathbf D^{\rm tran}$ write the joint positions
$\mathbf p_0$, $\mathbf p_1$ and the centres $\bar{\mathbf r}_1$, $\bar{\mathbf r}_2$ in base
coordinates (each centre half its own link beyond its joint: link 2 is $\lambda l$ long), then the
cross products with $\mathbf z$.""",
        "takeaway": r"""
$\mathbf D^{\rm rot} = \frac{l^2}{12}\begin{bmatrix} m_1 + \lambda^2 m_2 & \lambda^2 m_2 \\ \lambda^2 m_2 & \lambda^2 m_2 \end{bmatrix}$
is constant: a rod's spin about $z$ looks the same in every posture. All of the posture
dependence, the $C_2$ terms, is translational, and so is most of the size: the parallel-axis part
$m (a/2)^2$ of each rod of length $a$ belongs to $\mathbf D^{\rm tran}$, three times its own spin. Fu, Gonzalez & Lee,
Sec. 3.4.1 find the same dominance of the translational part along a trajectory of the PUMA 560.""",  # noqa: E501
    },
    "G.2": {
        "hint": r"""
Eqs. (3.4-26) and (3.4-27) of Fu, Gonzalez & Lee. For $\mathbf h^{\rm rot}$: which way does each
$\boldsymbol\omega_s$ point, is that a principal axis of $\mathbf I_s$, and what is left of
$\boldsymbol\beta_s$ when all the joint axes are parallel? For $\mathbf h^{\rm tran}$: differentiate
each centre's position $\bar{\mathbf r}_s$ twice in time, keep the terms without $\ddot q$ as
$\bar{\mathbf a}_s$, and project onto the same vectors $\mathbf z_{i-1} \times (\bar{\mathbf r}_s -
\mathbf p_{i-1})$ as in question 1.""",
        "takeaway": r"""
$\mathbf h^{\rm rot} = \mathbf 0$: in a planar arm every link spins about $z$, a principal axis,
so no gyroscopic torque arises, whatever the links' lengths. All of $\mathbf h$ is translational,
$h^{\rm tran}_1 = -\lambda m_2 l^2 S_2 (\dot q_1 \dot q_2 + \tfrac12 \dot q_2^2)$ and
$h^{\rm tran}_2 = \tfrac12 \lambda m_2 l^2 S_2 \dot q_1^2$, Sec. 3.4.2's with $\lambda = 1$: the
product $l \cdot \lambda l/2$ of link 1's length and the distance of link 2's centre from its joint. In a spatial arm it is not
zero: at the PUMA's wrist Sec. 3.4.1 finds rotation dominant in $h_4$ and both parts in $h_5$, $h_6$.""",  # noqa: E501
    },
    "N.1": {
        "hint": r"""
Run Eqs. (3.3-50) and (3.3-51) of Fu, Gonzalez & Lee twice, from $\boldsymbol\omega_0 =
\dot{\boldsymbol\omega}_0 = \mathbf 0$. Here ${}^1\mathbf R_0$ is the transpose of the rotation of
${}^0\mathbf A_1$ (Eq. (3.2-5)), $\mathbf R_z(q_1)\mathbf R_x(\alpha_1)$ with your twist, and
${}^2\mathbf R_1 = \mathbf R_z(q_2)^T$. Your $\alpha_1$ is in degrees.""",
        "takeaway": r"""
Seen in frame 1, link 1 turns about the tilted axis $(0, \sin\alpha_1, \cos\alpha_1)$: only
$\dot q_1\cos\alpha_1$ adds to joint 2's rate along $z_2$, the rest tips $\boldsymbol\omega_2$ off that
axis. And the cross term $\boldsymbol\omega_1 \times \mathbf z_0\dot q_2$ no longer vanishes: link 2
gains an angular acceleration $\dot q_1\dot q_2\sin\alpha_1$ from the rates alone, which the planar arm
($\alpha_1 = 0$: $(0, 0, \dot q_1 + \dot q_2)$ and $(0, 0, \ddot q_1 + \ddot q_2)$) never shows.""",  # noqa: E501
    },
    "N.2": {
        "hint": r"""
Continue the forward pass: Eq. (3.3-52) of Fu, Gonzalez & Lee for link 1 from
$\dot{\mathbf v}_0 = (0, g, 0)^T$ with ${}^1\mathbf R_0\mathbf p^*_1 = (l, 0, 0)^T$, then for link 2
with ${}^2\mathbf R_0\mathbf p^*_2 = (\lambda l, 0, 0)^T$. ${}^1\mathbf R_0\dot{\mathbf v}_1$ is in
frame 1's axes: ${}^2\mathbf R_1$ turns it into frame 2's. Then Eq. (3.3-53) with
${}^2\mathbf R_0\bar{\mathbf s}_2 = (-\lambda l/2, 0, 0)^T$.""",
        "takeaway": r"""
${}^2\mathbf R_0\dot{\mathbf v}_2 = \big(l(S_2\ddot q_1 - C_2\dot q_1^2) - \lambda l(\dot q_1 + \dot q_2)^2 + gS_{12},\;
l(C_2\ddot q_1 + S_2\dot q_1^2) + \lambda l(\ddot q_1 + \ddot q_2) + gC_{12},\; 0\big)$ (Sec. 3.3.7
prints it for $\lambda = 1$): link 1's motion seen in frame 2, plus link 2's own tangential and
centripetal terms, which grow with its length. The centre of mass, half of link 2 nearer the
joint, has half of those. The
gravity terms $g S_{12}$, $g C_{12}$ are the base's upward acceleration seen in frame 2.""",  # noqa: E501
    },
    "N.3": {
        "hint": r"""
The backward pass starts at link 2 with $\mathbf f_3 = \mathbf n_3 = \mathbf 0$, so Eqs. (3.3-56)
and (3.3-57) of Fu, Gonzalez & Lee keep only link 2's own terms:
$\mathbf F_2 = m_2\bar{\mathbf a}_2$ (Eq. (3.3-54)) and $\mathbf N_2$ (Eq. (3.3-55)) from your
answers to questions 3 and 4. The moment arm of $\mathbf F_2$ is
$\mathbf p^*_2 + \bar{\mathbf s}_2$: from joint 2 to the centre of mass.""",
        "takeaway": r"""
$\mathbf f_2 = m_2\bar{\mathbf a}_2$, and only the $z$ component of $\mathbf n_2$ is non-zero:
$\tfrac13 m_2 l_2^2 (\ddot q_1 + \ddot q_2) + \tfrac12 m_2 l l_2 (C_2\ddot q_1 + S_2\dot q_1^2) + \tfrac12 m_2 g l_2 C_{12}$
with $l_2 = \lambda l$, which is $\tau_2$ (3.3-58). For $\lambda = 1$ Sec. 3.3.7 prints this
${}^2\mathbf R_0\mathbf n_2$ right, then writes $\tau_2$ with $\tfrac12 m_2 l^2$ where $\tfrac13 m_2 l^2$
belongs (a slip recorded in
`dynlab.errata`).""",  # noqa: E501
    },
    "N.4": {
        "hint": r"""
Schilling's Algorithm 6-8-1 with one link: step 1 sets $\mathbf f^2 = -\mathbf f^{\rm tool}$ (mind
the sign; $\varphi$ is below the horizontal, and `sympy.cos` takes radians), step 2 gives
$\boldsymbol\omega^1$, $\dot{\boldsymbol\omega}^1$ and $\dot{\mathbf v}^1$ from
$\dot{\mathbf v}^0 = -\mathbf g$, step 4 gives $\mathbf f^1$, $\mathbf n^1$ and $\tau_1$. As a
check, with $F = 0$ your $\tau_1$ must be the rod's torque of Schilling, Eq. (6-9-22).""",
        "takeaway": r"""
$\tau_1 = \tfrac13 m_1a_1^2\ddot q_1 + \tfrac12 m_1ga_1C_1 + Fa_1\sin(q_1 + \varphi)$: Schilling's
Eq. (6-9-22) plus the load's moment about the joint, largest when the cable is square to the rod
($F a_1 C_1$ for a weight hung straight down, $\varphi = 90°$). The force $\mathbf f^1$ gains
$F(-\cos\varphi, \sin\varphi, 0)$: the base holds against the cable too. The minus sign of step 1
is what makes it so: $\mathbf f^{n+1}$ is the force the arm exerts on its environment, the opposite
of the load's force on the tool.""",
    },
    "D.1": {
        "hint": r"""
The gravity part of $\boldsymbol\tau$ is $\mathbf c(\mathbf q)$ of Fu, Gonzalez & Lee,
Eq. (3.2-26): its own bar and its own column of the table, not the total. Set both sliders before
you read, and read joint 1. To check the reading by hand, the gravity terms of the worked example
of Sec. 3.2.6 (Eq. (3.2-34)), with the payload as a point mass at the tip of link 2.""",
        "takeaway": r"""
$c_1 = g\,l\,[(m_1/2 + m_2 + M_p)C_1 + (m_2/2 + M_p)C_{12}]$ with $C_1 = 0.5$ and $C_{12} = 1$
at the opening posture, in N m for your $m_2$ and $M_p$: the bar does not depend on $\dot{\mathbf q}$ or $\ddot{\mathbf q}$, only on the
posture and the masses beyond joint 1. Every kilogram at the tip costs joint 1 $g\,l\,(C_1 + C_{12})$.""",  # noqa: E501
    },
    "D.2": {
        "hint": r"""
The Coriolis/centrifugal part is $\mathbf h(\mathbf q, \dot{\mathbf q})$ of Fu, Gonzalez & Lee,
Eq. (3.2-26): its own bar and column, joint 2's entry. Put the masses back first and change only
`qd1`. To check the reading by hand, the $h_2$ of the worked example of Sec. 3.2.6: which joint
rates does it contain?""",
        "takeaway": r"""
$h_2 = \tfrac12 m_2 l^2 S_2 \dot q_1^2 = \tfrac12 \sin(-\pi/3)\,\dot q_1^2$ N m for your $\dot q_1$: joint 1's
spin flings link 2 outward, and at $q_2 = -60°$ that pulls it toward larger $q_2$, so joint 2 must
push back. It grows with $\dot q_1^2$ ($\dot q_1^2$ times the opening reading), and $\dot q_2$
does not enter it at all.""",  # noqa: E501
    },
    "S.1": {
        "hint": r"""
Simulate from rest at $q_1 = -\pi/2$ plus your amplitude (in radians) long enough for a few swings,
then ask the `Trajectory` for its period with the lowest position as the level. The small-angle
period of the rod is a check: a large swing takes a little longer, not twice as long.""",
        "takeaway": r"""
$T = T_0\,\tfrac{2}{\pi}K(\sin^2(\theta_0/2))$ for the amplitude $\theta_0$ (chapter 07's exact
period; $K$ the complete elliptic integral of the first kind), a few % longer than the small-angle
period $T_0 = 2\pi\sqrt{2a_1/(3g)} \approx 1.1584$ s: the restoring torque
$\tfrac12 m_1 g a_1\sin\theta$ grows more slowly than $\theta$, so large swings are slower. The
simulation matches it to about a millionth.""",
    },
    "S.2": {
        "hint": r"""
The question names the run: Euler's method of Lynch & Park, Sec. 8.5, with `dt=0.01` over 2 s
from rest at $q_1 = 0$, on the rod of your mass (`pendulum(m1=...)`). `.total` holds one energy per
sample: take the last minus the first. The exact motion keeps $E$ constant (no friction, no torque),
so what you find is the integrator's own error.""",
        "takeaway": r"""
$\Delta E \approx +1.05$ J for each kilogram of rod, although nothing in the model adds energy. The
motion does not depend on the mass ($\ddot q_1 = -3gC_1/(2a_1)$) and the energy is proportional to
it, so the gain is too. Near any motion the arm is an oscillator, and one Euler step multiplies its
energy by about $1 + h^2\omega^2$ (chapter 07); here $\omega^2 \approx 3g/(2a_1) \approx 29$
s$^{-2}$, so the energy grows by a few tenths of a per cent per step. Halving $h$ halves the gain:
the error is first order.""",
    },
}


TWO_LINK = {"m1": "positive", "m2": "positive", "l": "positive", "g": "positive",
            "q1": "real", "q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real",
            "qdd2": "real"}


def numeric_key(question, *, parts, mistakes, **options):
    """:func:`make_key` of a question answered by one number (a part of shape ``()``), the
    reference and the mistakes to 7 significant digits: the key stays the same on every machine
    (the last bits of a long integration differ), far below any tolerance here (1e-4 and up).
    With ``parameters=``, each value is an expression in them (its floats rounded the same way),
    evaluated at each student's values (:mod:`dynlab.grading.variants`)."""
    def rounded(values):
        if options.get("parameters"):
            return [sympy.sympify(x).xreplace({f: sympy.Float(f"{float(f):.7g}")
                                              for f in sympy.sympify(x).atoms(sympy.Float)})
                    for x in values]
        return [float(f"{float(x):.7g}") for x in values]
    return make_key(question, kind="numeric",
                    parts=[dict(p, value=rounded(p["value"]), shape=[]) for p in parts],
                    mistakes=[dict(m, value=rounded(m["value"])) for m in mistakes], **options)


def fitted(reading, parameters: dict, degrees: dict, checks: int = 2):
    """``reading(**values)`` (a number dynlab computes) as the polynomial in the parameters it
    is, of the given degree in each (tau is linear in the masses and quadratic in a joint rate,
    Fu, Gonzalez & Lee, Eq. (3.2-26)): fitted through points of each parameter's grid and
    asserted at ``checks`` points at the far end of the grids, so the expression is dynlab's
    number wherever a student's values fall.  Parameter symbols carry no assumptions (the key is
    read by name)."""
    names = list(parameters)
    symbols = [sympy.Symbol(n) for n in names]
    grids = [np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
             for spec in parameters.values()]
    monomials = [sympy.Mul(*(s**e for s, e in zip(symbols, exps))) for exps in
                 itertools.product(*(range(degrees[n] + 1) for n in names))]
    # a tensor grid of the first values of each grid (its matrix is invertible), then the last
    fit = list(itertools.product(*(g[:degrees[n] + 1] for g, n in zip(grids, names))))
    held = [tuple(g[-1 - k] for g in grids) for k in range(checks)]
    matrix = np.array([[float(m.subs(dict(zip(symbols, p)))) for m in monomials] for p in fit])
    values = np.array([reading(**dict(zip(names, map(float, p)))) for p in fit])
    coefficients = np.linalg.solve(matrix, values)
    coefficients[np.abs(coefficients) < 1e-9 * np.max(np.abs(coefficients))] = 0.0   # round-off
    expr = sum(sympy.Float(float(c)) * m for c, m in zip(coefficients, monomials))
    for p in held:
        exact = reading(**dict(zip(names, map(float, p))))
        assert abs(float(expr.subs(dict(zip(symbols, p)))) - exact) <= 1e-9 * max(1, abs(exact))
    return expr


#: The given of G.1, G.2, N.2 and N.3, drawn per student: link 2 is ``lam`` times as long as
#: link 1, both uniform rods still.  Fu, Gonzalez & Lee's rods are equal (lam = 1), which the grid
#: leaves out; so are 1/2 and 2, where a rod's mass put at its tip (a typical mistake) sits where
#: the centre of the book's rod is
LENGTHS = {"lam": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
                   "text": "the length of link 2 over the length of link 1, l2/l"}}


#: The symbol of that given in the keys' expressions
LAM = parameter_symbol("lam", LENGTHS["lam"])


def fu_arm(lam=1, **changes):
    """Fu, Gonzalez & Lee's two-link arm (Sec. 3.2.6, Fig. 3.2), symbolic, with link 2 ``lam``
    times as long as link 1 (a uniform rod of length ``lam l``: its centre half-way, its inertia
    ``m2 (lam l)^2/12`` about the centre; ``lam = 1`` is the book's arm); ``changes`` replace
    fields of both links (a wrong model for a typical mistake; a callable gets the link's
    index)."""
    l, m2 = positive("l", "m2")
    arm = planar_2r("fu", symbolic=True)
    if lam != 1:
        arm = arm.replace_link(2, a=lam * l, com=(-lam * l / 2, 0, 0),
                               inertia=rod_inertia(m2, lam * l))
    for index in (1, 2):
        if changes:
            arm = arm.replace_link(index, **{k: v(index) if callable(v) else v
                                             for k, v in changes.items()})
    return arm


def _assert_longer_link2(lam_terms, reading) -> None:
    """``lam_terms`` (``{name: SymPy matrix in the symbols and lam}``) equal dynlab's numbers on
    the numeric arm of uniform rods of lengths 0.8 m and lam 0.8 m (Schilling's version of the
    arm, Sec. 6-5: ``planar_2r("schilling")``), at a state, at both ends of lam's grid:
    ``reading(arm, q, qd, qdd)`` gives dynlab's ``{name: array}``."""
    state = ([0.7, -1.9], [0.6, -1.3], [0.4, 0.9])
    numbers = {"m1": 1.3, "m2": 0.7, "l": 0.8, "g": 9.8062, "q1": state[0][0], "q2": state[0][1],
               "qd1": state[1][0], "qd2": state[1][1], "qdd1": state[2][0], "qdd2": state[2][1]}
    for lam in (LENGTHS["lam"]["low"], LENGTHS["lam"]["high"]):
        arm = planar_2r("schilling", m1=1.3, m2=0.7, a1=0.8, a2=0.8 * lam, g=9.8062)
        expected = reading(arm, *state)
        for name, expr in lam_terms.items():
            at = {s: numbers[s.name] for s in expr.free_symbols if s.name in numbers}
            ours = np.array(expr.xreplace({**at, LAM: lam}), dtype=float).ravel()
            assert np.allclose(ours, np.asarray(expected[name], dtype=float).ravel(),
                               rtol=1e-12, atol=1e-12), (name, lam, ours, expected[name])


def luh_trace(arm):
    """Luh's link-frame recursion (Fu, Gonzalez & Lee, Table 3.3) on ``arm`` at the joint
    symbols: the per-link records."""
    _, trace = inverse_dynamics(arm, list(q), list(qd), list(qdd), variant="link", trace=True)
    return trace


def gd_terms(arm) -> dict:
    """Lee's G-D terms of ``arm`` (Fu, Gonzalez & Lee, Eqs. (3.4-25)-(3.4-27)), each in book
    form."""
    terms = equations_of_motion(arm, method="dalembert").terms
    return {k: terms[k].applyfunc(compact) for k in ("D_rot", "D_tran", "h_rot", "h_tran")}


def _gd_numbers(arm, q_, qd_, qdd_) -> dict:
    return equations_of_motion(arm, q_, qd_, method="dalembert").terms


def dalembert_keys():
    """Fu, Gonzalez & Lee, Sec. 3.4.2: the rotational and translational parts of D and h, of the
    two-link arm whose link 2 is ``lam`` times as long as link 1 (each student's own lam)."""
    arm = fu_arm(LAM)
    gd = gd_terms(arm)
    m1, m2, l = positive("m1", "m2", "l")
    l2 = LAM * l
    D_rot, D_tran, h_rot, h_tran = (gd[k] for k in ("D_rot", "D_tran", "h_rot", "h_tran"))
    # by hand, Eq. (3.4-25): the rods' spins about z (I_zz = m l^2/12 of each rod's own length)
    assert is_zero(D_rot - sympy.Matrix([[m1 * l**2 / 12 + m2 * l2**2 / 12, m2 * l2**2 / 12],
                                         [m2 * l2**2 / 12, m2 * l2**2 / 12]]))
    assert is_zero(h_rot)
    _assert_longer_link2(gd, _gd_numbers)
    # the mistakes, derived from wrong models: the inertia about the joint end in D_rot (the
    # parallel-axis part counted twice), the masses at the tips, link 2 left out of D_rot's sum,
    # the book's arm of equal links
    about_end = fu_arm(LAM, inertia=lambda i: sympy.diag(0, 1, 1) * arm.links[i - 1].mass
                       * arm.links[i - 1].a**2 / 3)
    end_rot = gd_terms(about_end)["D_rot"]
    tips = gd_terms(fu_arm(LAM, com=(0, 0, 0), inertia=sympy.zeros(3, 3)))
    own_link_only = sympy.Matrix([[m1 * l**2 / 12, m2 * l2**2 / 12],
                                  [m2 * l2**2 / 12, m2 * l2**2 / 12]])
    book = gd_terms(fu_arm())
    equal = ("that is the book's arm, whose two links are equally long; your link 2 is lam "
             "times as long as link 1, l2 = lam*l with your lam = given[\"lam\"]: its centre "
             "lies l2/2 beyond joint 2 and its spin is m2 l2^2/12")
    keys = [make_key(
        "G.1", notebook=NOTEBOOK, title="Fu, Gonzalez & Lee, Sec. 3.4.2, Eq. (3.4-25): the "
        "rotational and translational parts of D (two-link arm)", points=2,
        symbols={k: TWO_LINK[k] for k in ("m1", "m2", "l", "q1", "q2")}, angles=("q1", "q2"),
        parameters=LENGTHS,
        parts=[{"name": "D_rot", "value": D_rot, "structure": "symmetric"},
               {"name": "D_tran", "value": D_tran, "structure": "symmetric"}],
        mistakes=[{"part": "D_rot", "value": end_rot,
                   "message": "D^rot takes each rod's inertia tensor I_s about its CENTRE OF "
                              "MASS (m l_s^2/12 about z, l_s the rod's length); the "
                              "parallel-axis part m (l_s/2)^2 is the centre's motion, which "
                              "D^tran already counts"},
                  {"part": "D_rot", "value": own_link_only,
                   "message": "the sum in Eq. (3.4-25) runs over every link s >= max(i, j): "
                              "joint 1 turns link 2 too, so D^rot_11 = I_zz1 + I_zz2"},
                  {"part": "D_rot", "value": book["D_rot"], "message": equal},
                  {"part": "D_tran", "value": tips["D_tran"],
                   "message": "each rod's mass sits at its middle, half its length from its "
                              "joint (r_s - p_{j-1} reaches the centre of mass), not at its "
                              "tip"},
                  {"part": "D_tran", "value": book["D_tran"], "message": equal}])]
    keys.append(make_key(
        "G.2", notebook=NOTEBOOK, title="Fu, Gonzalez & Lee, Sec. 3.4.2, Eqs. (3.4-26), "
        "(3.4-27): the translational and rotational parts of h (two-link arm)", points=2,
        symbols={k: TWO_LINK[k] for k in ("m1", "m2", "l", "q1", "q2", "qd1", "qd2")},
        angles=("q1", "q2"), split=("qd1", "qd2"), parameters=LENGTHS,
        parts=[{"name": "h_rot", "value": h_rot},
               {"name": "h_tran", "value": h_tran}],
        mistakes=[{"part": "h_tran", "value": tips["h_tran"],
                   "message": "each rod's mass sits at its middle, half its length from its "
                              "joint, not at its tip: the centripetal and Coriolis "
                              "accelerations of Eq. (3.4-26) are those of the centre of mass"},
                  {"part": "h_tran", "value": book["h_tran"], "message": equal}]))
    return keys


def _luh_numbers(arm, q_, qd_, qdd_) -> dict:
    """Link 2's record of Luh's recursion on a numeric ``arm`` at a state."""
    _, trace = inverse_dynamics(arm, q_, qd_, qdd_, variant="link", trace=True)
    return trace[2]


#: The given of N.1, drawn per student: the twist alpha_1 of link 1 (Denavit-Hartenberg), the
#: angle about x_1 from joint 1's axis z0 to joint 2's axis z1.  The book's arm has parallel
#: axes (alpha_1 = 0), where omega_2 = (0, 0, qd1 + qd2) for every arm; the grid leaves out 0, 90
#: degrees (where the twisted arm's terms in cos alpha_1 vanish) and 45 (where sin and cos agree)
TWIST = {"alpha1": {"low": 20, "high": 70, "step": 10, "unit": "degrees",
                    "text": "the twist of link 1: joint 2's axis z1 is turned by alpha1 about "
                            "x1 from joint 1's axis z0"}}


def twisted_arm(twist):
    """Fu, Gonzalez & Lee's two-link arm (Sec. 3.2.6) whose link 1 has the twist ``twist``
    (radians, or an angle symbol): joint 2's axis turned about x1 from z0."""
    return fu_arm().replace_link(1, alpha=twist)


def _assert_twist(omega, omega_dot, alpha1) -> None:
    """``omega``, ``omega_dot`` (2R0 omega_2, 2R0 omega_dot_2 in the joint symbols and the
    twist alpha1 in degrees) equal dynlab's numbers (Luh's recursion on the numeric twisted
    arm) at a state, at both ends of the grid."""
    state = ([0.7, -1.9], [0.6, -1.3], [0.4, 0.9])
    at = {q1: state[0][0], q2: state[0][1], qd1: state[1][0], qd2: state[1][1],
          qdd1: state[2][0], qdd2: state[2][1]}
    for degrees in (TWIST["alpha1"]["low"], TWIST["alpha1"]["high"]):
        arm = planar_2r("fu", m1=1.3, m2=0.7, l=0.8).replace_link(1, alpha=math.radians(degrees))
        record = _luh_numbers(arm, *state)
        for ours, name in ((omega, "omega"), (omega_dot, "omega_dot")):
            value = np.array(ours.xreplace({**at, alpha1: degrees}).evalf(), dtype=float).ravel()
            assert np.allclose(value, np.asarray(record[name], dtype=float).ravel(), rtol=1e-12,
                               atol=1e-12), (degrees, name, value, record[name])


def twist_key():
    """Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50), (3.3-51): link 2's angular velocity and
    acceleration in frame 2 on the two-link arm whose joint 2 is twisted by the student's
    alpha_1 (in degrees), derived by dynlab's recursion (Luh's link-frame form) with the twist as
    an angle symbol, then written in the given's degrees."""
    alpha1 = parameter_symbol("alpha1", TWIST["alpha1"])
    angle, radians = sympy.Symbol("psi", real=True), sympy.pi * alpha1 / 180

    def link2(arm):
        record = luh_trace(arm)[2]
        return tuple(column(record[name]).xreplace({angle: radians})
                     for name in ("omega", "omega_dot"))
    omega, omega_dot = link2(twisted_arm(angle))
    # by hand, Eqs. (3.3-50), (3.3-51) with 1R0 z0 = (0, sin alpha1, cos alpha1): omega_1 =
    # (0, s qd1, c qd1), omega_1 x z0 qd2 = (s qd1 qd2, 0, 0), then turned by 2R1 = Rz(q2)^T
    s, c, S2, C2 = sympy.sin(radians), sympy.cos(radians), sympy.sin(q2), sympy.cos(q2)
    R21 = sympy.Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]])
    w1, wd1 = sympy.Matrix([0, s * qd1, c * qd1]), sympy.Matrix([0, s * qdd1, c * qdd1])
    z0 = sympy.Matrix([0, 0, 1])
    assert is_zero(omega - R21 * (w1 + z0 * qd2))
    assert is_zero(omega_dot - R21 * (wd1 + z0 * qdd2 + w1.cross(z0 * qd2)))
    _assert_twist(omega, omega_dot, alpha1)
    planar = link2(fu_arm())                                  # parallel axes: the book's arm
    flipped = link2(twisted_arm(-angle))                      # 0R1 taken for 1R0
    in_radians = tuple(v.xreplace({alpha1: alpha1 * 180 / sympy.pi}) for v in (omega, omega_dot))
    twisted = "your joint 2 is twisted by alpha1 = given[\"alpha1\"] degrees about x1"
    mistakes = [
        {"part": "omega2", "value": sympy.Matrix([0, 0, qd2]),
         "message": "omega_2 is link 2's ABSOLUTE angular velocity: Eq. (3.3-50) adds joint "
                    "2's rate to link 1's, omega_2 = 2R1 (omega_1 + z0 qd2)"},
        {"part": "omega_dot2", "value": sympy.Matrix([0, 0, qdd2]),
         "message": "omega_dot_2 is link 2's absolute angular acceleration: Eq. (3.3-51) "
                    "carries link 1's over"},
        {"part": "omega2", "value": planar[0],
         "message": "that is the planar arm's, whose joint axes are parallel; " + twisted +
                    ", so 1R0 = (0R1)^T carries the twist Rx(alpha1) of the matrix 0A1 "
                    "(Eq. (3.2-5))"},
        {"part": "omega_dot2", "value": planar[1],
         "message": "that is the planar arm's, whose joint axes are parallel; " + twisted},
        {"part": "omega_dot2", "value": (R21 * (wd1 + z0 * qdd2)).applyfunc(compact),
         "message": "the term (1R0 omega_1) x z0 qd2 of Eq. (3.3-51) is missing: it vanishes "
                    "only when the joint axes are parallel, and yours are twisted"},
        {"part": "omega2", "value": (w1 + z0 * qd2).applyfunc(compact),
         "message": "that is omega_2 in frame 1: turn it into frame 2 with 2R1, the transpose "
                    "of the rotation of 1A2 (Eq. (3.3-50))"},
        {"part": "omega2", "value": flipped[0],
         "message": "the twist turns the wrong way: 1R0 is the TRANSPOSE of the rotation of "
                    "0A1, so 1R0 z0 = (0, sin(alpha1), cos(alpha1))"},
        {"part": "omega2", "value": in_radians[0],
         "message": "given[\"alpha1\"] is in degrees, and sin and cos take radians: "
                    "multiply by pi/180 first"},
        {"part": "omega_dot2", "value": in_radians[1],
         "message": "given[\"alpha1\"] is in degrees, and sin and cos take radians: "
                    "multiply by pi/180 first"}]
    check_mistakes("N.1", TWIST, {"omega2": omega, "omega_dot2": omega_dot}, mistakes,
                   [{"q1": 0.7, "q2": -1.9, "qd1": 0.6, "qd2": -1.3, "qdd1": 0.4, "qdd2": 0.9}])
    return make_key(
        "N.1", notebook=NOTEBOOK, title="Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50), "
        "(3.3-51): the angular velocity and acceleration of link 2", points=2,
        symbols={"q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real", "qdd2": "real"},
        angles=("q2",), split=("qd1", "qd2", "qdd1", "qdd2"), parameters=TWIST,
        parts=[{"name": "omega2", "value": omega},
               {"name": "omega_dot2", "value": omega_dot}],
        mistakes=mistakes)


def newton_euler_keys():
    """Fu, Gonzalez & Lee, Sec. 3.3.7 (Table 3.3): link 2's forward and backward quantities (its
    accelerations and forces on the arm whose link 2 is ``lam`` times as long as link 1, each
    student's own lam), and Schilling's Algorithm 6-8-1 on the one-axis arm carrying a load
    (Sec. 6-9)."""
    m1, m2, l, g = positive("m1", "m2", "l", "g")
    l2 = LAM * l
    link2 = luh_trace(fu_arm(LAM))[2]
    omega, omega_dot = column(link2["omega"]), column(link2["omega_dot"])
    v_dot, a_bar = column(link2["v_dot"]), column(link2["a_bar"])
    f, n = column(link2["f"]), column(link2["n"])
    # by hand, from the text's Sec. 3.3.7 with p*_2 = (l2, 0, 0): the forward quantities of link
    # 2 in frame 2
    S2, C2, S12, C12 = sympy.sin(q2), sympy.cos(q2), sympy.sin(q1 + q2), sympy.cos(q1 + q2)
    assert is_zero(omega - sympy.Matrix([0, 0, qd1 + qd2]))
    assert is_zero(v_dot - sympy.Matrix([
        l * (S2 * qdd1 - C2 * qd1**2) - l2 * (qd1 + qd2)**2 + g * S12,
        l * (C2 * qdd1 + S2 * qd1**2) + l2 * (qdd1 + qdd2) + g * C12, 0]))
    assert is_zero(n[2] - (m2 * l2**2 / 3 * (qdd1 + qdd2)
                           + m2 * l * l2 / 2 * (C2 * qdd1 + S2 * qd1**2)
                           + m2 * g * l2 * C12 / 2))
    _assert_longer_link2({"omega": omega, "omega_dot": omega_dot, "v_dot": v_dot,
                          "a_bar": a_bar, "f": f, "n": n}, _luh_numbers)
    forward = {k: TWO_LINK[k] for k in TWO_LINK if k not in ("m1", "m2")}
    keys = [twist_key()]
    # the mistakes of the linear accelerations, from wrong procedures and wrong arms
    up = luh_trace(fu_arm(LAM).replace(gravity=(0, g, 0)))[2]        # v_dot_0 = (0, -g, 0)
    still = luh_trace(fu_arm(LAM).replace(gravity=(0, 0, 0)))[2]     # gravity left out
    flipped = luh_trace(fu_arm(LAM, com=lambda i: (l / 2 if i == 1 else l2 / 2, 0, 0)))[2]
    book = luh_trace(fu_arm())[2]                                     # the book's equal links
    link1 = luh_trace(fu_arm(LAM))[1]
    R21 = sympy.Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]])        # 2R1
    p2 = sympy.Matrix([l2, 0, 0])
    unrotated = (sympy.Matrix(link2["omega_dot"]).cross(p2)
                 + omega.cross(omega.cross(p2)) + sympy.Matrix(link1["v_dot"]))
    assert is_zero(unrotated - v_dot - (sympy.eye(3) - R21) * sympy.Matrix(link1["v_dot"]))
    equal = ("that is the book's arm, whose two links are equally long; your link 2 is lam "
             "times as long as link 1, so 2R0 p*_2 = (l2, 0, 0) and 2R0 s_2 = (-l2/2, 0, 0) "
             "with l2 = lam*l, your lam = given[\"lam\"]")
    keys.append(make_key(
        "N.2", notebook=NOTEBOOK, title="Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-52), "
        "(3.3-53): the acceleration of link 2's origin and of its centre of mass", points=2,
        symbols=forward, angles=("q1", "q2"), split=SPLIT2, parameters=LENGTHS,
        parts=[{"name": "v_dot2", "value": v_dot},
               {"name": "a_bar2", "value": a_bar}],
        mistakes=[{"part": "v_dot2", "value": column(up["v_dot"]),
                   "message": "gravity enters as an UPWARD acceleration of the base, "
                              "v_dot_0 = (0, g, 0) with y0 up (Sec. 3.3.7): the arm must hold "
                              "itself up against it"},
                  {"part": "v_dot2", "value": column(still["v_dot"]),
                   "message": "the recursion starts from v_dot_0 = (0, g, 0), not 0: that is "
                              "how gravity reaches every link (Eq. (3.3-46))"},
                  {"part": "v_dot2", "value": unrotated.applyfunc(compact),
                   "message": "1R0 v_dot_1 is in frame 1: turn it into frame 2 with 2R1 "
                              "before adding it (Eq. (3.3-52))"},
                  {"part": "v_dot2", "value": column(book["v_dot"]), "message": equal},
                  {"part": "a_bar2", "value": column(up["a_bar"]),
                   "message": "gravity enters as an UPWARD acceleration of the base, "
                              "v_dot_0 = (0, g, 0) with y0 up (Sec. 3.3.7)"},
                  {"part": "a_bar2", "value": column(still["a_bar"]),
                   "message": "a_bar_2 carries gravity through v_dot_2 (v_dot_0 = (0, g, 0)): "
                              "it is what F_2 = m2 a_bar_2 needs"},
                  {"part": "a_bar2", "value": column(flipped["a_bar"]),
                   "message": "the centre of mass of link 2 lies HALF A LINK BEHIND the "
                              "origin of frame 2 (at the tip): 2R0 s_2 = (-l2/2, 0, 0)"},
                  {"part": "a_bar2", "value": v_dot,
                   "message": "that is v_dot_2, the acceleration of the origin of frame 2 (the "
                              "tip); the centre of mass adds omega_dot x s + omega x (omega x "
                              "s) with 2R0 s_2 = (-l2/2, 0, 0) (Eq. (3.3-53))"},
                  {"part": "a_bar2", "value": column(book["a_bar"]), "message": equal}]))
    # backward: f_2 and n_2 (about the origin of frame 1, i.e. joint 2)
    F2 = m2 * a_bar
    s2 = sympy.Matrix([-l2 / 2, 0, 0])
    N2 = n - (p2 + s2).cross(F2)
    about_tip = (s2.cross(F2) + N2).applyfunc(compact)
    keys.append(make_key(
        "N.3", notebook=NOTEBOOK, title="Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-56), "
        "(3.3-57): the force and moment on link 2", points=2,
        symbols={k: TWO_LINK[k] for k in TWO_LINK if k != "m1"}, angles=("q1", "q2"),
        split=SPLIT2, parameters=LENGTHS,
        parts=[{"name": "f2", "value": f},
               {"name": "n2", "value": n}],
        mistakes=[{"part": "f2", "value": column(up["f"]),
                   "message": "gravity enters as an UPWARD acceleration of the base, "
                              "v_dot_0 = (0, g, 0) with y0 up: link 1 must push link 2 up"},
                  {"part": "f2", "value": column(still["f"]),
                   "message": "f_2 = m2 a_bar_2 with gravity inside a_bar_2 (v_dot_0 = "
                              "(0, g, 0)): link 1 also carries link 2's weight"},
                  {"part": "f2", "value": column(book["f"]), "message": equal},
                  {"part": "n2", "value": about_tip,
                   "message": "n_2 is the moment about the origin of frame 1 (joint 2): the "
                              "lever arm of F_2 is p*_2 + s_2 = (l2/2, 0, 0), from the joint "
                              "to the centre of mass (Eq. (3.3-57)), not s_2 from the tip"},
                  {"part": "n2", "value": (n + sympy.Matrix([0, 0, m2 * l2**2 * (qdd1 + qdd2)
                                                             / 6])).applyfunc(compact),
                   "message": "that is the slip of the tau_2 printed at the end of Sec. 3.3.7, "
                              "m2 l2^2/2 where the recursion gives m2 l2^2/3 (a rod about its "
                              "end: m l2^2/12 + m l2^2/4); the book's own 2R0 n_2, just "
                              "before it, has 1/3"},
                  {"part": "n2", "value": N2.applyfunc(compact),
                   "message": "that is N_2 alone, the rate of change of the angular momentum "
                              "about the centre of mass; add the moment of F_2 about joint 2, "
                              "(p*_2 + s_2) x F_2"},
                  {"part": "n2", "value": column(book["n"]), "message": equal}]))
    keys.append(schilling_key())
    return keys


#: The given of N.4, drawn per student: the angle below the horizontal x0 at which the cable
#: pulls the tool (a load hung straight down, 90 degrees, and 45 degrees, where the angle taken
#: from the vertical gives the same force, are not on the grid)
CABLE = {"phi": {"low": 50, "high": 80, "step": 5, "unit": "degrees",
                 "text": "the angle of the cable below the horizontal x0; the load pulls the "
                         "tool with the force F along it"}}


def _assert_cable(f1, n1, tau1, phi) -> None:
    """``f1``, ``n1``, ``tau1`` equal dynlab's numbers (Schilling's base-frame recursion on the
    numeric ``pendulum``, the tool's force on the cable ``-f^tool`` as its ``tip_force``) at a
    state, at both ends of phi's grid."""
    mass, length, force, state = 1.3, 0.7, 4.5, (0.8, -1.1, 0.6)
    numbers = {"m1": mass, "a1": length, "g": 9.8062, "F": force, "q1": state[0],
               "qd1": state[1], "qdd1": state[2]}
    for degrees in (CABLE["phi"]["low"], CABLE["phi"]["high"]):
        angle = math.radians(degrees)
        arm = pendulum(m1=mass, a1=length).replace(
            tip_force=(-force * math.cos(angle), force * math.sin(angle), 0.0))
        tau, trace = inverse_dynamics(arm, [state[0]], [state[1]], [state[2]], variant="base",
                                      trace=True)
        at = {**{sympy.Symbol(k, positive=True): v for k, v in numbers.items()
                 if k in ("m1", "a1", "g", "F")},
              **{sympy.Symbol(k, real=True): v for k, v in numbers.items()
                 if k in ("q1", "qd1", "qdd1")}, phi: degrees}
        for ours, theirs in ((f1, trace[1]["f"]), (n1, trace[1]["n"]), (tau1, tau[0])):
            value = np.array(sympy.Matrix([ours]).xreplace(at).evalf(), dtype=float).ravel()
            assert np.allclose(value, np.asarray(theirs, dtype=float).ravel(), rtol=1e-12,
                               atol=1e-12), (degrees, value, theirs)


def schilling_key():
    """Schilling, Algorithm 6-8-1 on the one-axis arm (Sec. 6-9) carrying a load: a cable from
    the tool pulls it with the force F, ``phi`` below the horizontal (each student's own phi), so
    f^tool = F (cos phi, -sin phi, 0) and f^2 = -f^tool (step 1)."""
    m1, a1, g, F = positive("m1", "a1", "g", "F")
    (qa,), (qda,), (qdda,) = joint_symbols(1)
    phi = parameter_symbol("phi", CABLE["phi"])
    # derived with the cable's angle as an angle symbol of its own (so that the terms come out
    # in book form), then written in phi's degrees
    angle, radians = sympy.Symbol("psi", real=True), sympy.pi * phi / 180

    def run(tip):
        arm = pendulum(symbolic=True).replace(tip_force=tip)
        tau, trace = inverse_dynamics(arm, [qa], [qda], [qdda], variant="base", trace=True)
        record = trace[1]
        return tuple(value.xreplace({angle: radians}) for value in (
            column(record["f"]), column(record["n"]), compact(sympy.sympify(tau[0]))))

    def pulled(direction):
        """dynlab's tip_force is the tool's force ON its environment, Schilling's f^{n+1} =
        -f^tool: for a load pulling the tool with F along ``direction``, -F direction."""
        return tuple(-F * c for c in direction)

    cable = (sympy.cos(angle), -sympy.sin(angle), 0)
    f1, n1, tau1 = run(pulled(cable))
    # by hand: the load's moment about the joint is a1 u1 x F (-cos phi, sin phi, 0), along z
    assert is_zero((tau1 - (m1 * a1**2 / 3 * qdda + m1 * g * a1 * sympy.cos(qa) / 2
                            + F * a1 * sympy.sin(qa + radians))).xreplace({radians: angle}))
    _assert_cable(f1, n1, tau1, phi)
    wrong = run(tuple(-c for c in pulled(cable)))               # f^{n+1} = +f^tool
    free = run((0, 0, 0))                                       # the load forgotten
    hanging = run(pulled((0, -1, 0)))                           # straight down, phi = 90 deg
    swapped = run(pulled((sympy.sin(angle), -sympy.cos(angle), 0)))   # phi from the vertical
    symbols = {"m1": "positive", "a1": "positive", "g": "positive", "F": "positive",
               "q1": "real", "qd1": "real", "qdd1": "real"}
    messages = [
        "the backward pass starts from f^2 = -f^tool (Algorithm 6-8-1, step 1): the cable pulls "
        "the tool with f^tool = F (cos phi, -sin phi, 0), so the arm pulls the cable the "
        "opposite way",
        "the load is missing: the backward pass starts from f^2 = -f^tool, not 0",
        "that is a load hanging straight down (phi = 90 degrees); your cable pulls phi below "
        "the horizontal, with your phi = given[\"phi\"] in degrees: f^tool = "
        "F (cos phi, -sin phi, 0)",
        "phi is measured from the HORIZONTAL x0, not from the vertical: f^tool = "
        "F (cos phi, -sin phi, 0)"]
    mistakes = [{"part": name, "value": model[index], "message": message}
                for model, message in zip((wrong, free, hanging, swapped), messages)
                for index, name in enumerate(("f1", "n1", "tau1"))]
    return make_key(
        "N.4", notebook=NOTEBOOK, title="Schilling, Algorithm 6-8-1 (Sec. 6-9): the one-axis "
        "arm carrying a load", points=3, symbols=symbols, angles=("q1",),
        split=("qd1", "qdd1"), parameters=CABLE,
        parts=[{"name": "f1", "value": f1},
               {"name": "n1", "value": n1},
               {"name": "tau1", "value": tau1}],
        mistakes=mistakes)


#: the state of the two-link dashboard the questions read (its opening state: Schilling's home
#: position q = (pi/3, -pi/3), qd = (1, 0.5), qdd = (1, -1)), and the parameters they set
DASHBOARD_STATE = ([math.pi / 3, -math.pi / 3], [1.0, 0.5], [1.0, -1.0])


def dashboard_parts(arm, q_, qd_, qdd_):
    """The parts of tau the dashboard shows (Fu, Gonzalez & Lee, Eq. (3.2-26)), by dynlab's G-D
    terms at the state."""
    eom = equations_of_motion(arm, q_, qd_, method="dalembert")
    return {"inertial": np.asarray(eom.D, dtype=float) @ np.asarray(qdd_, dtype=float),
            "coriolis": np.asarray(eom.h, dtype=float).ravel(),
            "gravity": np.asarray(eom.c, dtype=float).ravel()}


#: The givens of the dashboard readings, drawn per student (:mod:`dynlab.grading.variants`)
LOADS = {"m2": {"low": 1.5, "high": 3.0, "step": 0.5, "unit": "kg", "text": "the mass of link 2"},
         "Mp": {"low": 0.1, "high": 0.5, "step": 0.1, "unit": "kg",
                "text": "the payload at the tip of link 2"}}


SPEEDS = {"qd1": {"low": 1.5, "high": 3.0, "step": 0.5, "unit": "rad/s",
                  "text": "the speed of joint 1"}}


def dashboard_keys():
    """Two readings of chapter 02's dashboard of the two-link arm (Fu, Gonzalez & Lee,
    Sec. 3.2.6): the gravity part of tau_1 with the student's mass of link 2 and payload, and the
    Coriolis/centrifugal part of tau_2 at the student's speed of joint 1."""
    keys = []
    q_, qd_, qdd_ = DASHBOARD_STATE
    arm = planar_2r("fu")

    def loaded(m2, Mp):
        return dashboard_parts(with_payload(with_mass(arm, 2, m2), Mp), q_, qd_, qdd_)

    g, l = 9.8062, 1.0
    c1 = fitted(lambda m2, Mp: loaded(m2, Mp)["gravity"][0], LOADS, {"m2": 1, "Mp": 1})
    # by hand, Eq. (3.2-34): c1 = g l [(m1/2 + m2 + Mp) C1 + (m2/2 + Mp) C12], m1 = 2 kg
    m2_, Mp_ = sympy.symbols("m2 Mp")
    by_hand = g * l * ((1.0 + m2_ + Mp_) * math.cos(q_[0]) + (m2_ / 2 + Mp_) * math.cos(q_[0]
                                                                                     + q_[1]))
    assert abs(float((c1 - by_hand).subs({m2_: 2.5, Mp_: 0.3}))) < 1e-9
    keys.append(numeric_key(
        "D.1", notebook=NOTEBOOK, title="Reading the dashboard: the gravity part of tau_1",
        points=1, tolerance=5e-3, parameters=LOADS,
        parts=[{"name": "c1", "value": [c1]}],
        mistakes=[{"part": "c1", "value": [fitted(lambda m2, Mp: sum(loaded(m2, Mp).values())[0],
                                                  LOADS, {"m2": 1, "Mp": 1})],
                   "message": "that is the total tau_1 (the dark bar); the gravity part is the "
                              "green bar, c(q)"},
                  {"part": "c1", "value": [fitted(lambda m2, Mp: loaded(m2, Mp)["gravity"][1],
                                                  LOADS, {"m2": 1, "Mp": 1})],
                   "message": "that is joint 2's gravity torque; read joint 1's"},
                  {"part": "c1", "value": [fitted(
                      lambda m2, Mp: dashboard_parts(with_mass(arm, 2, m2), q_, qd_, qdd_)[
                          "gravity"][0], LOADS, {"m2": 1, "Mp": 0})],
                   "message": "the payload at the tip is missing (the payload slider)"},
                  {"part": "c1", "value": [dashboard_parts(arm, q_, qd_, qdd_)["gravity"][0]],
                   "message": "that is the gravity torque with the dashboard's own masses: set "
                              "m2 and the payload to your values first"}]))

    def fast(qd1):
        return dashboard_parts(arm, q_, [qd1, qd_[1]], qdd_)

    h2 = fitted(lambda qd1: fast(qd1)["coriolis"][1], SPEEDS, {"qd1": 2})
    # by hand, the worked example of Sec. 3.2.6 (h_ikm of Eq. (3.2-33) for n = 2):
    # h2 = m2 l^2 S2 qd1^2 / 2
    assert abs(float(h2.subs("qd1", 2.0)) - 1.0 * math.sin(q_[1]) * 4.0 / 2) < 1e-9
    slow = dashboard_parts(arm, q_, qd_, qdd_)
    keys.append(numeric_key(
        "D.2", notebook=NOTEBOOK, title="Reading the dashboard: the Coriolis/centrifugal part "
        "of tau_2", points=1, tolerance=5e-3, parameters=SPEEDS,
        parts=[{"name": "h2", "value": [h2]}],
        mistakes=[{"part": "h2", "value": [fitted(lambda qd1: fast(qd1)["coriolis"][0], SPEEDS,
                                                  {"qd1": 2})],
                   "message": "that is joint 1's Coriolis/centrifugal torque; read joint 2's"},
                  {"part": "h2", "value": [slow["coriolis"][1]],
                   "message": "that is the reading at the opening state, qd1 = 1 rad/s; set "
                              "qd1 to your value first"},
                  {"part": "h2", "value": [fitted(lambda qd1: sum(fast(qd1).values())[1],
                                                  SPEEDS, {"qd1": 2})],
                   "message": "that is the total tau_2; the Coriolis/centrifugal part is the "
                              "orange bar, h(q, qd)"}]))
    return keys


HANGING = -math.pi / 2          # the pendulum's lowest position (gravity along -y0)


#: The given of the large swing, drawn per student: how far from its lowest position it starts
SWINGS = {"amplitude": {"low": 30, "high": 70, "step": 5, "unit": "degrees",
                        "text": "released from rest this far from the lowest position"}}


def swing_period(amplitude_degrees, arm=None):
    """The period of the pendulum released from rest ``amplitude_degrees`` from its lowest
    position, measured on a simulated swing
    (:meth:`dynlab.dynamics.simulation.Trajectory.period`)."""
    arm = pendulum() if arm is None else arm
    start = HANGING + math.radians(amplitude_degrees)
    swing = simulate(arm, [start], [0.0], t_span=8.0, dt=1e-3)
    return swing.period(level=HANGING)


def simulation_keys():
    """The pendulum's period at 45 degrees, and the energy Euler's method adds."""
    keys = []
    arm = pendulum()
    a, g = float(arm.links[0].a), 9.8062
    period = swing_period(45.0)
    small = 2 * math.pi * math.sqrt(2 * a / (3 * g))       # T0 of the rod (chapter 07)
    from scipy.special import ellipk
    assert abs(period / (small * 2 / math.pi * ellipk(math.sin(math.radians(22.5))**2)) - 1) \
        < 1e-6
    amplitude = sympy.Symbol("amplitude")

    def exact_period(degrees):
        """Chapter 07's exact period of the rod released ``degrees`` from its lowest position:
        T = T0 (2/pi) K(sin^2(theta0/2)) (K the complete elliptic integral of the first kind)."""
        return small * 2 / sympy.pi * sympy.elliptic_k(sympy.sin(degrees * sympy.pi / 360)**2)

    for degrees in (30, 70):                 # the formula is the simulated swing's period
        assert abs(swing_period(float(degrees)) / float(exact_period(degrees)) - 1) < 1e-5
    keys.append(numeric_key(
        "S.1", notebook=NOTEBOOK, title="Simulation: the period of the pendulum's large swing",
        points=2, tolerance=2e-3, parameters=SWINGS,
        parts=[{"name": "T", "value": [exact_period(amplitude)]}],
        mistakes=[{"part": "T", "value": [small],
                   "message": "that is the small-angle period 2 pi sqrt(2a/(3g)); a large swing "
                              "is slower: measure it on the simulated swing"},
                  {"part": "T", "value": [2 * math.pi * math.sqrt(a / g)],
                   "message": "that is the period of a point mass on a string of length a; the "
                              "pendulum is a uniform rod, D = m a^2/3 (its small-angle period "
                              "is 2 pi sqrt(2a/(3g)))"},
                  {"part": "T", "value": [exact_period(amplitude) / 2],
                   "message": "that is half a period: measure between successive passes through "
                              "the lowest position IN THE SAME DIRECTION"},
                  {"part": "T", "value": [exact_period(amplitude + 90)],
                   "message": "the amplitude is measured from the LOWEST position, q1 = -pi/2; "
                              "q1 = amplitude starts the swing 90 degrees further from it"}]))
    keys.append(euler_key())
    return keys


#: The given of Euler's energy gain, drawn per student: the mass of the rod (1 kg in pendulum()).
#: The gain is proportional to it, so no two masses of the grid are 2 or 3 times one another: a
#: classmate's number is then never one the feedback names as a factor off
RODS = {"m1": {"low": 1.5, "high": 2.9, "step": 0.1, "unit": "kg", "text": "the mass of the rod"}}


def euler_gain(m1=1.0, dt=0.01, integrator="euler", reading="gain"):
    """E(2 s) - E(0) of ``pendulum(m1=m1)`` released from rest at q1 = 0 (horizontal), simulated
    by dynlab (Lynch & Park's Euler iteration, Sec. 8.5, with ``integrator="euler"``); with
    ``reading="drift"``, the trajectory's ``energy_drift()`` instead."""
    options = {} if integrator is None else {"integrator": integrator, "dt": dt}
    run = simulate(pendulum(m1=m1), [0.0], [0.0], t_span=2.0, **options)
    return run.energy_drift() if reading == "drift" else float(run.total[-1] - run.total[0])


def euler_key():
    """The energy Euler's method adds to the pendulum of the student's mass.  The motion does not
    depend on the mass (q1'' = -3 g C1 / (2 a1), Schilling, Eq. (6-9-22)) and E = K + P is
    proportional to it, so the gain is linear in m1: :func:`fitted` of degree 1, asserted at the
    far end of the grid."""
    gain = fitted(lambda m1: euler_gain(m1), RODS, {"m1": 1})
    assert gain.coeff(sympy.Symbol("m1")) > 0.5 and \
        abs(euler_gain(1.0) - float(gain.subs("m1", 1.0))) < 1e-9   # +1.05 J for 1 kg
    # The exact motion keeps E = K + P: d(K + P)/dt = qd^T tau (the passivity property, Lynch
    # & Park, Prop. 8.1), and tau = 0 with no friction.  So its change is 0 exactly, on every
    # machine; an accurate integration shows only round-off, which the processor's vectorised
    # loops move (a key that sealed it differed between machines)
    exact = sympy.Integer(0)
    for m1 in (RODS["m1"]["low"], RODS["m1"]["high"]):
        assert abs(euler_gain(m1, integrator=None)) < 1e-6 * m1
    key = numeric_key(
        "S.2", notebook=NOTEBOOK, title="Simulation: the energy Euler's method adds to the "
        "pendulum", points=2, tolerance=1e-4, parameters=RODS,
        parts=[{"name": "dE", "value": [gain]}],
        mistakes=[{"part": "dE", "value": [exact],
                   "message": "that is the exact motion's energy change (none: no friction, no "
                              "torque); integrate with integrator=\"euler\", dt=0.01"},
                  {"part": "dE", "value": [fitted(lambda m1: euler_gain(m1, dt=0.001), RODS,
                                                  {"m1": 1})],
                   "message": "that is Euler with a step of 1 ms; the question takes h = 0.01 s"},
                  {"part": "dE", "value": [-gain],
                   "message": "E(2 s) - E(0): Euler's method ADDS energy (the wrong sign)"},
                  {"part": "dE", "value": [fitted(lambda m1: euler_gain(m1, reading="drift"),
                                                  RODS, {"m1": 0})],
                   "message": "that is energy_drift(), the largest change RELATIVE to the "
                              "energy scale; the question asks for E(2 s) - E(0) in joules"},
                  {"part": "dE", "value": [euler_gain(1.0)],
                   "message": "that is the gain of pendulum()'s own rod, 1 kg; give the rod "
                              "your mass first"}])
    # every typical mistake is told from the answer at every mass of the grid
    unsealed = reference(key)
    for m1 in np.arange(RODS["m1"]["low"], RODS["m1"]["high"] + 0.05, RODS["m1"]["step"]):
        right = float(unsealed["dE"][0].subs("m1", m1))
        for index in range(len(key["mistakes"])):
            wrong = float(sympy.sympify(unsealed[("mistake", index)][0]).subs("m1", m1))
            assert abs(wrong - right) > 100 * key["tolerance"] * abs(right)
    return key


def keys():
    return dalembert_keys() + newton_euler_keys() + dashboard_keys() + simulation_keys()
