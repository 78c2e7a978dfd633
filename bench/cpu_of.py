#!/usr/bin/env python3
"""Run a command, pass its output through, then print the CPU seconds
(user + system) it and its children used as `client_cpu_s=N`."""
import resource
import subprocess
import sys

p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
sys.stdout.write(p.stdout)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"client_cpu_s={ru.ru_utime + ru.ru_stime:.3f}")
sys.exit(p.returncode)
