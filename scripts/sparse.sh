#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse over every object of the module (C=2: check all, not only rebuilt files).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$(apmu_kdir)
# sparse does not run the cleanup functions of <linux/cleanup.h>: a function that takes
# a spinlock with guard()/scoped_guard() looks to it as if it never released the lock
# ("context imbalance"). Those reports are dropped for functions whose body uses a guard;
# any other context imbalance still fails.
guarded() {
	awk -v f="$2" '!body && $0 ~ "^[a-z].*[ *]" f "\\(" && $0 !~ /;$/ { body = 1 }
		body && /guard\(/ { g = 1 } body && /^}/ { exit } END { exit !g }' "$1"
}
out=
while IFS= read -r line; do
	if [[ $line =~ ^([^:]+):[0-9]+:[0-9]+:\ warning:\ context\ imbalance\ in\ \'([a-z_0-9]+)\' ]] &&
	   guarded "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"; then
		continue
	fi
	out+="$line"$'\n'
done < <(make -s -C "$kdir" M="$APMU_TOP" C=2 CHECK=sparse modules 2>&1 >/dev/null |
	grep -E 'warning|error' || true)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
exit 0
