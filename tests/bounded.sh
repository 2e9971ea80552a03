#!/bin/sh
# bounded.sh SECONDS SCRIPT: run a bash test script with a time bound of its
# own, below ctest's TIMEOUT.  ctest ends a test past its TIMEOUT with
# SIGKILL, which no trap sees: the loop devices and mounts a hung device
# test had made stayed attached after it.  timeout(1), in its own process
# group, sends TERM to the whole group: the command that hangs ends, the
# script's TERM trap exits and its EXIT trap undoes exactly what it made
# (fixtures/loop.sh).  KILL follows only if that takes 30 s.  Exit 124 says
# the bound was reached.
set -eu
[ $# -eq 2 ] || { echo "usage: bounded.sh SECONDS SCRIPT" >&2; exit 2; }
exec timeout --signal=TERM --kill-after=30 "$1" bash "$2"
