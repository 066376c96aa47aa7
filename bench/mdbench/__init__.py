"""bench/mdbench/ — the benchmark runner's modules (bench/runner.py is its entry point):
common (paths, keys, the machine), configs (the configurations), measure (the JMH forks),
report (tables, JSON, chart), policy (--policy-row, --select), qemu (--count), filemode
(--file), docsreport (--report)."""
