#!/bin/bash
# report.sh RUNS.TXT MEDIUM LIMITS SECS: the arms' table and the RESULT line
cat "$1"
