"""VitaBench domain environments built on the lifebench tool core.

One module per domain — ``delivery`` (20 tools), ``instore`` (24), ``ota`` (38) — over the
shared tables and tools of ``common``; ``registry`` says where each domain's environment,
oracle planner and state grader live, imported only when a domain is used (this package
imports nothing on its own). Each environment is a fresh, isolated object built from one task
(e.g. ``DeliveryEnvironment(task, language)``); docs/compat.md lists every deliberate
difference from the official harness.
"""
