"""The teaching floor: what the chapters show. Dashboards (:mod:`~dynlab.teaching.dashboards`),
animations, side-by-side and cost tables, the sources' printed equations
(:mod:`~dynlab.teaching.textbook`) and their errata, the bibliography."""
