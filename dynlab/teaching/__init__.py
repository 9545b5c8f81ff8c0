"""The teaching floor: what the chapters show. Dashboards and their properties, animations,
side-by-side and cost tables, the sources' printed equations (:mod:`~dynlab.teaching.textbook`)
and their errata, the bibliography."""
