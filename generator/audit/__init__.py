"""`incidents audit`: a read-only checker of Kubernetes objects whose every finding cites the
library's incidents.

    manifests (files, folders, standard input) or the live cluster (get and list only)
       -> resources  Kubernetes objects with where each came from      (manifests.py, live.py)
       -> cluster    one index over them, pod templates found once      (cluster.py)
       -> rules      one function per check, yielding hits              (rules/)
       -> findings   hits joined with the reviewed check data           (engine.py, catalogue.py)
       -> report     text, JSON or SARIF 2.1.0                          (report.py)

What a check says (titles, explanations, fixes, severities, the incidents it is drawn from) is
reviewed data in `checks/<id>/check.yml`, validated by `incidents check`; what it looks for is
code in `rules/`, registered under the same id. Nothing here writes to a cluster or a file it reads.
"""
