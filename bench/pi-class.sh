#!/usr/bin/env bash
# Run a command on one core slowed to about a Raspberry Pi 4's pace, as root.
#
#   bench/pi-class.sh [SLOWDOWN] COMMAND...     (SLOWDOWN default 5)
#
# There is no clock-speed control in a container, so the CPU scheduler's
# quota does it: the command may run 1 ms of every SLOWDOWN ms on one core
# (cgroup v2 cpu.max, or v1 cpu.cfs_quota_us; 1 ms is the kernel's smallest
# quota). A Pi 4's Cortex-A72 at 1.5 GHz runs CPython about 4 to 6 times
# slower than this machine's core, so 5 is the middle of that range. Work
# longer than SLOWDOWN ms is slowed evenly; a shorter step is timed either at
# full speed or with a wait of up to SLOWDOWN-1 ms, so quote medians of many.
set -euo pipefail
slowdown=5
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then slowdown=$1; shift; fi
[ "$#" -gt 0 ] || { echo "usage: $0 [SLOWDOWN] COMMAND..." >&2; exit 2; }
period=$((1000 * slowdown))
group=incan-pi-class-$$
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    dir=/sys/fs/cgroup/$group
    mkdir "$dir"
    echo "1000 $period" >"$dir/cpu.max"
else
    dir=/sys/fs/cgroup/cpu/$group
    mkdir "$dir"
    echo "$period" >"$dir/cpu.cfs_period_us"
    echo 1000 >"$dir/cpu.cfs_quota_us"
fi
trap 'rmdir "$dir" 2>/dev/null || true' EXIT
echo "pi-class: 1 ms of every $slowdown ms of one core" >&2
# The child joins the group, then becomes the command; this shell stays outside to clean up.
# shellcheck disable=SC2016 # $$, $0 and $@ are the child's own
taskset -c 0 bash -c 'echo $$ >"$0/cgroup.procs" 2>/dev/null || echo $$ >"$0/tasks"; exec "$@"' "$dir" "$@"
