#!/usr/bin/env python3
"""Run a command, pass its output through, then print the CPU seconds
(user + system) it and its children used as `client_cpu_s=N`, and the two
parts as `client_user_s=N` and `client_sys_s=N` (system time is the
kernel's work for the process: its sockets, wake-ups, scheduling)."""
import resource
import subprocess
import sys

p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
sys.stdout.write(p.stdout)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"client_cpu_s={ru.ru_utime + ru.ru_stime:.3f}")
print(f"client_user_s={ru.ru_utime:.3f}")
print(f"client_sys_s={ru.ru_stime:.3f}")
sys.exit(p.returncode)
