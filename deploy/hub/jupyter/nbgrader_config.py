"""nbgrader for everyone on the hub (students and instructors): one course, one exchange.

The hub passes DYNLAB_EXCHANGE and DYNLAB_COURSE to every server (deploy/hub/jupyterhub_config.py);
an instructor running nbgrader in a terminal of the same machine sets JUPYTER_CONFIG_PATH to
this folder, or copies this file to /etc/jupyter/.  The exchange folder is made once by root:
    mkdir -p /srv/nbgrader/exchange && chmod 1777 /srv/nbgrader/exchange
(everyone may write, nobody may remove another's files: nbgrader's documented set-up).
"""

import os

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = os.environ.get("DYNLAB_COURSE") or "dynlab"
c.Exchange.root = os.environ.get("DYNLAB_EXCHANGE") or "/srv/nbgrader/exchange"
# the stubs students see are those of exercises/ (see solutions/README.md)
c.ClearSolutions.code_stub = {"python": ""}
