"""Closed forms from SymPy: symbolic ``D``, ``h``, ``c``, ``tau`` or forward dynamics made into
generated code (:func:`closed_form`, :func:`from_sympy`), the parameter-only coefficients
becoming constants ``r1, r2, ...`` as the thesis appendix's ``crunch()`` does (:func:`crunch`),
then ``sympy.cse`` and the optimizer of :mod:`dynlab.engine.optimizer`.
"""

from __future__ import annotations

from collections.abc import Sequence

from dynlab.dynamics.inverse import equations_of_motion
from dynlab.engine.code_names import default_name
from dynlab.engine.generated import WHAT, Generated, unknown_output
from dynlab.engine.optimizer import Optimizer
from dynlab.model.ldl import ldl_solve
from dynlab.model.robot import joint_symbols

EXPAND_LIMIT = 4000


def crunch(expressions, state, prefix: str = "r", expand: bool | None = None) -> tuple:
    """The thesis appendix's ``crunch()``: every parameter-only coefficient becomes a constant
    ``r1, r2, ...``; ``(expressions, [(r_k, coefficient)])``.  With ``expand`` (default up to
    :data:`EXPAND_LIMIT` operations) into monomials of the state factors, equal coefficients (up to
    a rational factor) sharing a constant; without, sum by sum, keeping the nesting.

    >>> import sympy
    >>> m, l, q, qdd = sympy.symbols("m l q qdd")
    >>> crunch([m * l**2 * qdd / 3 + m * l * sympy.cos(q) / 2], {q, qdd})
    ([qdd*r2/3 + r1*cos(q)/2], [(r1, l*m), (r2, l**2*m)])
    >>> crunch([m * (l * sympy.cos(q) + 2 * l * sympy.cos(q)) * (qdd + l)], {q, qdd},
    ...        expand=False)
    ([3*r2*(qdd + r1)*cos(q)], [(r1, l), (r2, l*m)])
    """
    import sympy
    flat = [sympy.sympify(e) for e in expressions]
    if expand is None:
        expand = _small(flat, EXPAND_LIMIT)
    crunching = _Crunch(set(state), prefix)
    result = []
    for expression in flat:
        if expand:
            result.append(crunching.expanded(expression))
        elif crunching.moving(expression):
            result.append(crunching.rebuild(expression))
        else:
            result.append(crunching.constant(expression))
    return result, crunching.names


class _Crunch:
    """One run of :func:`crunch`: which subexpressions depend on the state (memoized), the
    constants named so far (``names``: ``[(r_k, coefficient)]``), the expressions rebuilt."""

    def __init__(self, state: set, prefix: str):
        self.state = state
        self.prefix = prefix
        self.names: list = []
        self._constants: dict = {}        # primitive coefficient -> r_k
        self._moves: dict = {}
        self._rebuilt: dict = {}

    def moving(self, expr) -> bool:
        """Whether ``expr`` depends on the state (memoized: ``free_symbols`` is not)."""
        found = self._moves.get(expr)
        if found is None:
            found = expr in self.state if expr.is_Symbol else \
                any(self.moving(a) for a in expr.args)
            self._moves[expr] = found
        return found

    def constant(self, coefficient):
        """``content * r_k`` for a parameter-only coefficient (a new ``r_k`` for a coefficient
        not met before up to a rational factor)."""
        import sympy
        coefficient = sympy.expand(coefficient)
        if coefficient == 0 or not coefficient.free_symbols:
            return coefficient
        content, primitive = coefficient.as_content_primitive()
        if primitive.could_extract_minus_sign():
            content, primitive = -content, -primitive
        if primitive not in self._constants:
            symbol = sympy.Symbol(f"{self.prefix}{len(self._constants) + 1}", real=True)
            self._constants[primitive] = symbol
            self.names.append((symbol, primitive))
        return content * self._constants[primitive]

    def assemble(self, monomials: dict):
        """``sum r_k (sum c_j monomial_j)`` of ``{monomial: parameter coefficient}``, collected
        by constants (numeric coefficients stay with their monomials)."""
        import sympy
        groups: dict = {}
        for monomial, coefficient in monomials.items():
            coefficient = sympy.expand(coefficient)
            if coefficient == 0:
                continue
            if not coefficient.free_symbols:
                groups[sympy.Integer(1)] = groups.get(sympy.Integer(1), 0) + \
                    coefficient * monomial
                continue
            value = self.constant(coefficient)
            content, symbol = value.as_coeff_Mul()
            groups[symbol] = groups.get(symbol, 0) + content * monomial
        return sympy.Add(*[symbol * part for symbol, part in groups.items()])

    def expanded(self, expression):
        """``expression`` expanded into monomials of the state-dependent factors, their
        parameter coefficients crunched."""
        import sympy
        monomials: dict = {}
        for term in sympy.Add.make_args(sympy.expand(expression)):
            varying, fixed = [], []
            for factor in sympy.Mul.make_args(term):
                (varying if self.moving(factor) else fixed).append(factor)
            monomial = sympy.Mul(*varying)
            monomials[monomial] = monomials.get(monomial, 0) + sympy.Mul(*fixed)
        return self.assemble(monomials)

    def collect(self, expr, factor, monomials: dict) -> None:
        """Add ``factor * expr`` to ``monomials`` ({state part: parameter coefficient}),
        distributing parameter factors one level into a sum they multiply."""
        import sympy
        if not self.moving(expr):
            monomials[sympy.Integer(1)] = monomials.get(sympy.Integer(1), 0) + factor * expr
            return
        if expr.is_Add:
            for arg in expr.args:
                self.collect(arg, factor, monomials)
            return
        if expr.is_Mul:
            varying, fixed = [], []
            for arg in expr.args:
                (varying if self.moving(arg) else fixed).append(arg)
            factor = factor * sympy.Mul(*fixed)
            if len(varying) == 1 and varying[0].is_Add:
                self.collect(varying[0], factor, monomials)
                return
            monomial = sympy.Mul(*[self.rebuild(arg) for arg in varying])
        else:
            monomial = self.rebuild(expr)
        monomials[monomial] = monomials.get(monomial, 0) + factor

    def rebuild(self, expr):
        """``expr`` (state-dependent) with its parameter coefficients crunched, structure kept."""
        import sympy
        found = self._rebuilt.get(expr)
        if found is not None:
            return found
        if expr.is_Symbol:
            result = expr
        elif expr.is_Add or expr.is_Mul:
            monomials: dict = {}
            self.collect(expr, sympy.Integer(1), monomials)
            result = self.assemble(monomials)
        elif expr.is_Pow:
            result = sympy.Pow(self.rebuild(expr.args[0]), expr.args[1])
        else:
            result = expr.func(*[self.rebuild(arg) if self.moving(arg) else arg
                                 for arg in expr.args])
        self._rebuilt[expr] = result
        return result


def _small(expressions, limit: int) -> bool:
    """Whether the expressions have at most ``limit`` nodes in all (stops counting early)."""
    import sympy
    count = 0
    for expression in expressions:
        for _ in sympy.preorder_traversal(expression):
            count += 1
            if count > limit:
                return False
    return True


def _walker(optimizer: Optimizer, symbols: dict):
    """A function SymPy expression -> the optimizer's value of it (``symbols``: symbol -> its
    value on ``optimizer``), sharing repeated subtrees."""
    import sympy
    memo: dict = {}
    calls = {sympy.sin: "sin", sympy.cos: "cos", sympy.exp: "exp", sympy.Abs: "abs",
             sympy.sign: "sign"}

    def power(base, exponent: int):
        result, square = None, base
        while exponent:
            if exponent & 1:
                result = square if result is None else optimizer.mul(result, square)
            exponent >>= 1
            if exponent:
                square = optimizer.mul(square, square)
        return result

    def walk(expr):
        found = memo.get(expr)
        if found is not None:
            return found
        if expr.is_Number:
            value = optimizer.const(float(expr))
        elif expr.is_Symbol:
            if expr not in symbols:
                raise ValueError(f"unexpected symbol {expr} in a closed form (not an input, "
                                 f"not a parameter)")
            value = symbols[expr]
        elif expr.is_Add:
            value = optimizer.const(0.0)
            for arg in expr.args:
                value = optimizer.add(value, walk(arg))
        elif expr.is_Mul:
            number, factors = 1.0, []
            for arg in expr.args:
                if arg.is_Number:
                    number *= float(arg)
                else:
                    factors.append(walk(arg))
            value = optimizer.const(number)
            for factor in factors:
                value = optimizer.mul(value, factor)
        elif expr.is_Pow:
            base, exponent = expr.args
            if exponent.is_Integer:
                k = int(exponent)
                value = power(walk(base), abs(k))
                if k < 0:
                    value = optimizer.div(optimizer.const(1.0), value)
            elif exponent == sympy.Rational(1, 2):
                value = optimizer.call("sqrt", walk(base))
            else:
                raise ValueError(f"cannot generate code for the power {expr}")
        elif expr.func in calls:
            value = optimizer.call(calls[expr.func], walk(expr.args[0]))
        else:
            raise ValueError(f"cannot generate code for {expr.func.__name__} in {expr}")
        memo[expr] = value
        return value

    return walk


def from_sympy(expressions, inputs: dict, *, layout=None, name: str = "closed_form",
               title: str = "closed form", parameters: Sequence | None = None,
               crunched: Sequence | None = None, share: bool = True) -> Generated:
    """Generated code from SymPy expressions of ``inputs`` (``{stem: [symbols]}``); other symbols
    are parameters, whose coefficients are crunched (:func:`crunch`, or ``crunched`` given) into
    ``Generated.constants``; the rest goes through ``sympy.cse`` and :class:`Optimizer`.

    >>> import sympy
    >>> q, qd = sympy.symbols("q1 qd1")
    >>> code = from_sympy([sympy.cos(q) * qd**2 + 2.0 * qd**2], {"q": [q], "qd": [qd]})
    >>> code.counts, code([0.0], [2.0])
    ({'mul': 3, 'add': 1, 'div': 0, 'call': 1}, array([12.]))
    """
    import sympy
    flat = []
    for expression in expressions:
        if isinstance(expression, sympy.MatrixBase):
            flat.extend(expression)
        else:
            flat.append(sympy.sympify(expression))
    layout = layout or [("out", (len(flat),))]
    state = [s for symbols in inputs.values() for s in symbols]
    free = set().union(*(e.free_symbols for e in flat)) if flat else set()
    if crunched is not None:
        names = list(crunched)
        free = set().union(*(c.free_symbols for _, c in names)) if names else set()
    extra = sorted(free - set(state), key=str) if parameters is None else list(parameters)
    constants_program = None
    if crunched is None:
        names = []
    groups = [(stem, len(symbols)) for stem, symbols in inputs.items()]
    if extra:
        if crunched is None:
            flat, names = crunch(flat, set(state))
        groups.append(("r", len(names)))
        c_optimizer = Optimizer([("p", len(extra))])
        c_symbols = {s: c_optimizer.input(f"p{k}") for k, s in enumerate(extra)}
        replaced, reduced = sympy.cse([coefficient for _, coefficient in names])
        walk = _walker(c_optimizer, c_symbols)
        for symbol, expr in replaced:
            c_symbols[symbol] = walk(expr)
        constant_values = [walk(e) for e in reduced]
    optimizer = Optimizer(groups)
    symbols = {}
    for stem, group in inputs.items():
        for k, s in enumerate(group):
            symbols[s] = optimizer.input(f"{stem}{k}")
    for k, (symbol, _) in enumerate(names):
        symbols[symbol] = optimizer.input(f"r{k}")
    replaced, reduced = sympy.cse(flat)
    before = sympy.count_ops(reduced) + sum(sympy.count_ops(e) for _, e in replaced)
    walk = _walker(optimizer, symbols)
    for symbol, expr in replaced:
        symbols[symbol] = walk(expr)
    results = [walk(e) for e in reduced]
    if extra:
        program, absorbed = optimizer.program(results, share=share, absorb="r")
        index = {f"r{k}": k for k in range(len(names))}
        for new_name, old_name, factor in absorbed:     # c r_k, one more constant each
            index[new_name] = len(constant_values)
            constant_values.append(c_optimizer.scale(constant_values[index[old_name]],
                                                     factor))
            names.append((sympy.Symbol(f"r{len(names) + 1}", real=True),
                          factor * names[index[old_name]][1]))
        constants_program = c_optimizer.program(constant_values, share=share)
    else:
        program = optimizer.program(results, share=share)
    return Generated(program, layout, name=name, title=title,
                     counts_before={"sympy_count_ops": int(before)},
                     constants=constants_program,
                     constant_names=[str(s) for s, _ in names],
                     parameters=[str(p) for p in extra],
                     nonnegative=[str(p) for p in extra if p.is_nonnegative])


def closed_form(robot, what: str = "inverse_dynamics", *, method: str = "lagrange_euler",
                variant: str | None = None, simplify: bool | None = None, eom=None,
                share: bool = True) -> Generated:
    """Generated code from the symbolic equations of motion of ``robot`` (numeric or symbolic
    parameters): ``D``, ``h``, ``c`` derived by ``method``, then ``tau = D qdd + h + c + b`` (Fu,
    Gonzalez & Lee, Eq. (3.2-26), Schilling, Eq. (6-3-3)), the terms themselves, or the forward
    dynamics ``qdd``.

    >>> from dynlab.model.robots import planar_2r
    >>> code = closed_form(planar_2r("macsyma", symbolic=True))
    >>> code.parameters
    ('I1', 'I2', 'M1', 'M2', 'Mp', 'g', 'l1', 'l2')
    >>> code.counts                        # beyond the constants, as the thesis appendix, B.7
    {'mul': 16, 'add': 12, 'div': 0, 'call': 4}
    >>> code.constants.counts()            # the constants r1, ... (the thesis appendix: 24, 16)
    {'mul': 27, 'add': 12, 'div': 0, 'call': 0}
    """
    import sympy
    if not isinstance(what, str) or what not in WHAT:
        raise unknown_output(what)
    n = robot.n
    q, qd, qdd = joint_symbols(n)
    if eom is None:
        eom = equations_of_motion(robot, method=method, variant=variant, simplify=simplify)
    D, h, c = eom.D, eom.h, eom.c
    extra = eom.friction + eom.tip
    tau_symbols = sympy.symbols(f"tau1:{n + 1}", real=True)
    inputs = {stem: symbols for stem, symbols in
              zip(WHAT[what], {"inverse_dynamics": (q, qd, qdd), "inertia_matrix": (q,),
                               "velocity_terms": (q, qd), "gravity_terms": (q,),
                               "bias": (q, qd), "terms": (q, qd),
                               "forward_dynamics": (q, qd, tau_symbols)}[what])}
    if what == "inverse_dynamics":
        expressions, layout = [D * sympy.Matrix(qdd) + h + c + extra], [("tau", (n,))]
    elif what == "inertia_matrix":
        expressions, layout = [D], [("D", (n, n))]
    elif what == "velocity_terms":
        expressions, layout = [h], [("h", (n,))]
    elif what == "gravity_terms":
        expressions, layout = [c], [("c", (n,))]
    elif what == "bias":
        expressions, layout = [h + c + extra], [("bias", (n,))]
    elif what == "terms":
        expressions, layout = [D, h, c], [("D", (n, n)), ("h", (n,)), ("c", (n,))]
    else:
        bias = list(h + c + extra)
        entries = [D[i, j] for i in range(n) for j in range(i, n)]
        crunched = None
        if robot.is_symbolic:  # constants first (the thesis appendix, B.7), then the solve
            reduced, crunched = crunch(entries + bias, set(q) | set(qd))
            entries, bias = reduced[:len(entries)], reduced[len(entries):]
        upper = iter(entries)
        rows = [[None] * n for _ in range(n)]
        for i in range(n):
            for j in range(i, n):
                rows[i][j] = rows[j][i] = next(upper)
        rhs = [t - b for t, b in zip(tau_symbols, bias)]
        expressions, layout = [sympy.Matrix(ldl_solve(rows, rhs)[0])], [("qdd", (n,))]
        variant_name = eom.method if variant is None else f"{eom.method} ({variant})"
        return from_sympy(expressions, inputs, layout=layout, crunched=crunched,
                          name=default_name(robot.name, what, "_closed_form"),
                          title=f"{robot.name}: {what.replace('_', ' ')}, closed form by "
                                f"{variant_name}", share=share)
    variant_name = eom.method if variant is None else f"{eom.method} ({variant})"
    return from_sympy(expressions, inputs, layout=layout,
                      name=default_name(robot.name, what, "_closed_form"),
                      title=f"{robot.name}: {what.replace('_', ' ')}, closed form by "
                            f"{variant_name}", share=share)
