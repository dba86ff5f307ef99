# SPDX-License-Identifier: GPL-2.0
# TAP sections, numbered for the caller: the one way apmu's scripts print results, on the
# host (sourced by scripts/lib.sh, bash) and in the VMs (installed as /apmu/ktap.sh and
# sourced by vmlib.sh, busybox sh), after the kernel's
# tools/testing/selftests/kselftest/ktap_helpers.sh. A section is
#
#	APMU-SECTION-BEGIN name
#	TAP version 13
#	ok 1 ...                    (numbered here, never by hand)
#	1..N                        (the plan last, which TAP 13 allows: no count to keep)
#	APMU-SECTION-END name rc=R
#
# and scripts/tap-summary.py counts it. Plain POSIX sh, state in globals prefixed _ktap_;
# one section at a time.

_ktap_name="" _ktap_n=0 _ktap_failed=0

# ktap_section NAME: a section whose results another producer may print (the kselftest
# runner, a KUnit module), with no TAP header of its own; results printed here are still
# numbered, and ktap_section_end plans them
ktap_section() {
	_ktap_name=$1 _ktap_n=0 _ktap_failed=0
	echo "APMU-SECTION-BEGIN $1"
}

# ktap_begin NAME: a section of results numbered by the functions below
ktap_begin() {
	ktap_section "$1"
	echo "TAP version 13"
}

# ktap_section_end [RC] / ktap_end [RC]: the plan of the results numbered here (if any),
# then the end marker with RC (default 0: the results carry the verdict; a non-zero RC
# fails the section whatever they say)
ktap_section_end() {
	[ "$_ktap_n" = 0 ] || echo "1..$_ktap_n"
	echo "APMU-SECTION-END $_ktap_name rc=${1:-0}"
	_ktap_name="" _ktap_n=0
}
ktap_end() { ktap_section_end "$@"; }

# ktap_reset: number from 1 again, without a section (results printed to a file that a
# section includes later with ktap_include)
ktap_reset() { _ktap_n=0 _ktap_failed=0; }

# ktap_include FILE: results numbered elsewhere (after ktap_reset), renumbered to follow
# this section's own, with the lines between them
ktap_include() {
	awk -v n="$_ktap_n" '/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) } { print }' "$1"
	# (grep -c exits 1 when it counts 0: not a failure for set -e callers)
	_ktap_n=$((_ktap_n + $(grep -cE '^(not )?ok [0-9]+' "$1" || true)))
	_ktap_failed=$((_ktap_failed + $(grep -cE '^not ok [0-9]+' "$1" || true)))
}

# ktap_pass DESC / ktap_fail DESC / ktap_skip DESC REASON: one result
ktap_pass() {
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1"
}
ktap_fail() {
	_ktap_n=$((_ktap_n + 1)) _ktap_failed=$((_ktap_failed + 1))
	echo "not ok $_ktap_n $1"
}
ktap_skip() {
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1 # SKIP $2"
}

# ktap_test DESC COMMAND...: run COMMAND (a function of the caller is fine); its output
# becomes diagnostics ("# " lines) when it fails. Status 0 (set -e callers): COMMAND's
# status is left in _ktap_rc. ktap_testv: its output is printed when it passes too.
ktap_test() {
	_ktap_v=0
	_ktap_run "$@"
}
ktap_testv() {
	_ktap_v=1
	_ktap_run "$@"
}
_ktap_run() {
	_ktap_d=$1
	shift
	_ktap_rc=0
	"$@" >"${TMPDIR:-/tmp}/ktap.out.$$" 2>&1 || _ktap_rc=$?
	if [ $_ktap_rc = 0 ]; then
		ktap_pass "$_ktap_d"
	else
		ktap_fail "$_ktap_d"
	fi
	[ $_ktap_rc != 0 ] || [ $_ktap_v = 1 ] && sed 's/^/# /' "${TMPDIR:-/tmp}/ktap.out.$$"
	rm -f "${TMPDIR:-/tmp}/ktap.out.$$"
	return 0
}

# ktap_diag TEXT...: a diagnostic line
ktap_diag() { echo "# $*"; }
