"""Run by IPython before a graded kernel's first cell (``PYTHONSTARTUP``): installs the refusals of
:mod:`dynlab.grading.own_work`, or ends the kernel (fail closed).
"""

try:
    import dynlab.grading.own_work as _own_work
    _own_work.install_from_environment()
except BaseException as _error:                       # noqa: BLE001 - fail closed
    import os as _os
    import sys as _sys
    _sys.stderr.write(f"dynlab: the graded run's refusals failed to install ({_error!r})\n")
    _os._exit(70)
del _own_work
