#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check [LANES="a b ..."]: install what is missing, build the test kernel (cached),
# apmu.ko, the tests and the VM root, then run the lanes of scripts/lanes.txt (all, or
# the ones named and what they need): VM lanes $APMU_JOBS at a time (default: the number
# of cores, at most 2 — a QEMU with -icount keeps one core busy), host lanes and the other
# kernels' builds beside them, niced. Ends with 'N passed, N failed, N skipped' over every
# section the lanes run must show (scripts/tap-summary.py). Non-zero exit on any failure.
set -euo pipefail
# (the whole script is one function, read before it runs: editing this file while a make
# check runs does not change the running one)
main() {
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)
out=$APMU_TOP/build
ldir=$out/lanes
table=$APMU_TOP/scripts/lanes.txt

# ---------------------------------------------------------------------------------------
# The table (scripts/lanes.txt)
declare -A sets=() kind=() needs=() cmd=() sects=() nice=() state=() rc=() pid_of=()
order=()	# builds and lanes, in table order
last=""
while read -r word rest; do
	case "$word" in
	''|'#'*) ;;
	set)
		read -r name list <<<"$rest"
		sets[$name]="${sets[$name]:-} $list" ;;
	build)
		read -r name ni c <<<"$rest"
		[ -z "${kind[$name]+x}" ] || apmu_die "lanes.txt: $name named twice"
		kind[$name]=build needs[$name]=- cmd[$name]=$c sects[$name]="" nice[$name]=$ni
		order+=("$name") last="" ;;
	lane)
		read -r name k n c <<<"$rest"
		[ -z "${kind[$name]+x}" ] || apmu_die "lanes.txt: $name named twice"
		case "$k" in vm|host) ;; *) apmu_die "lanes.txt: lane $name: kind $k" ;; esac
		kind[$name]=$k needs[$name]=$n cmd[$name]=$c sects[$name]=""
		order+=("$name") last=$name ;;
	sections)
		[ -n "$last" ] || apmu_die "lanes.txt: 'sections $rest' follows no lane"
		sects[$last]="${sects[$last]} $rest" ;;
	*) apmu_die "lanes.txt: unknown line '$word $rest'" ;;
	esac
done <"$table"

# expand "@set" and "prefix@set" in a lane's sections
sections_of() { # sections_of LANE: one name per line
	local s p
	for s in ${sects[$1]}; do
		case "$s" in
		*@*)
			p=${s%%@*}
			[ -n "${sets[${s#*@}]+x}" ] || apmu_die "lanes.txt: no set ${s#*@}"
			for n in ${sets[${s#*@}]}; do
				case "$n" in
				@*) sections_of_set "$p" "${n#@}" ;;
				*) echo "$p$n" ;;
				esac
			done ;;
		*) echo "$s" ;;
		esac
	done
}
sections_of_set() { # a set inside a set ("@vm" in "distro"), with the outer prefix
	local n
	for n in ${sets[$2]}; do echo "$1$n"; done
}

# The lanes asked for (LANES, default all) and, transitively, what they need
want=()
declare -A wanted=()
add_wanted() {
	local n
	[ -n "${kind[$1]+x}" ] || apmu_die "make check: no lane or build '$1' in scripts/lanes.txt (lanes: $(for l in "${order[@]}"; do [ "${kind[$l]}" = build ] || printf '%s ' "$l"; done))"
	[ -z "${wanted[$1]+x}" ] || return 0
	wanted[$1]=1
	[ "${needs[$1]}" = - ] || for n in ${needs[$1]//,/ }; do add_wanted "$n"; done
}
if [ -n "${LANES:-}" ]; then
	for l in $LANES; do add_wanted "$l"; done
else
	for l in "${order[@]}"; do add_wanted "$l"; done
fi
for l in "${order[@]}"; do
	[ -z "${wanted[$l]+x}" ] || want+=("$l")
done

bash "$APMU_TOP/scripts/deps.sh"
kdir=$(apmu_kdir)	# the test kernel's (build arm64)
rm -rf "$ldir"
mkdir -p "$ldir"

# ---------------------------------------------------------------------------------------
# The commands a lane's line may use. Each prints the lane's log on stdout.

# arm64_base (a build): the test kernel, apmu.ko and the other modules, the kselftests,
# the arm64 VM root
arm64_base() {
	"$APMU_TOP/scripts/build.sh" && "$APMU_TOP/scripts/arm64-root.sh"
}

# vm VM-RUN-OPTIONS... SCRIPT: one boot, the console is the log
vm() {
	local r=0 console=$ldir/$lane.console
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$console" "$@" || r=$?
	cat "$console" 2>/dev/null || true	# absent if vm-run died early
	rm -f "$console"
	return $r
}

# vm_reference VM-RUN-OPTIONS... SCRIPT: as vm, for a boot that runs no apmu code, only a
# reference apmu is compared with (the in-tree driver's perf test, vm-run --no-apmu): its
# log is kept in the cache under the boot's key (vm-run --key: the kernel image, the root,
# QEMU, the scripts, the options) and printed again, not rerun, while the key holds. Only
# a log whose boot ended with status 0 and whose sections all pass is kept; the lane that
# compares with it drops it when the comparison fails (perftest_compare), so that the next
# run takes a fresh sample of the reference's flaky tests.
vm_reference() {
	local key r=0 ref dir=$APMU_CACHE/reference req=()
	key=$(APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --key "$@")
	ref=$dir/$lane-$key.log
	if [ -f "$ref" ]; then
		apmu_log "$lane: the reference boot's log of $(date -r "$ref" '+%F %H:%M') ($ref)"
		echo "# $lane: the reference boot's log of $(date -r "$ref" '+%F %H:%M'), reused ($ref)"
		cat "$ref"
		return 0
	fi
	mkdir -p "$dir"
	vm "$@" >"$dir/.$lane.$$" || r=$?
	cat "$dir/.$lane.$$"
	mapfile -t req < <(sections_of "$lane")
	if [ $r = 0 ] && python3 "$APMU_TOP/scripts/tap-summary.py" "$dir/.$lane.$$" "${req[@]}" \
		>/dev/null 2>&1; then
		find "$dir" -name "$lane-*.log" -mtime +30 -delete
		mv -f "$dir/.$lane.$$" "$ref"
	else
		rm -f "$dir/.$lane.$$"
	fi
	return $r
}

# vm_retry: as vm, but a console silent for --stall seconds (vm-run's status 126, the
# vCPUs' registers appended) boots once more; the stalled log is kept next to the lane's
# (NAME-stalled.log) and fails the lane if it holds a kernel splat
vm_retry() {
	local r=0 stalled=$ldir/$lane-stalled.log
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$stalled" "$@" || r=$?
	if [ $r != 126 ]; then
		cat "$stalled"
		rm -f "$stalled"
		return $r
	fi
	apmu_log "$lane: the VM stalled (in $(tr -d '\r' <"$stalled" |
		sed -n 's/^APMU-SECTION-BEGIN //p' | tail -n 1)); log and vCPU registers in" \
		"$stalled; booting it once more"
	r=0
	vm "$@" || r=$?
	[ $r != 126 ] || apmu_log "$lane: the VM stalled twice"
	if ! apmu_stall_splats "$stalled" >&2; then
		apmu_log "$lane: the stalled VM printed a kernel splat before it went silent"
		r=1
	fi
	return $r
}

# out FILE COMMAND...: a lane script that writes its own log FILE (relative to the tree)
out() {
	local f=$APMU_TOP/$1 r=0
	shift
	rm -f "$f"
	APMU_BUILT=1 bash "$APMU_TOP/$1" "${@:2}" >&2 || r=$?
	cat "$f" 2>/dev/null || true	# absent if it died early: its sections are then missing
	return $r
}

# static: checkpatch, sparse, and the kernel options the tests need (read where kernel CI
# reads them: the kselftests' `config`, the KUnit suites' `.kunitconfig`; each must be in
# the test kernel's fragment, which keys the cached kernel, and in the kernel built from it)
static() {
	local f lacks
	ktap_begin static
	if bash "$APMU_TOP/scripts/checkpatch.sh" >"$ldir/checkpatch.log" 2>&1; then
		ktap_pass "checkpatch --strict and kernel-doc clean"
	else
		ktap_fail "checkpatch --strict and kernel-doc clean"
		sed 's/^/# /' "$ldir/checkpatch.log" | head -n 40
	fi
	if bash "$APMU_TOP/scripts/sparse.sh" >"$ldir/sparse.log" 2>&1; then
		ktap_pass "sparse clean"
	else
		ktap_fail "sparse clean"
		sed 's/^/# /' "$ldir/sparse.log" | head -n 40
	fi
	# apmu-stat's arithmetic, CPU lists, errata and agreement with cpuinfo_avg_freq's
	if make -s -C "$APMU_TOP/tools/apmu-stat" test O="$APMU_TOP/build/tools" \
		>"$ldir/apmu-stat-test.log" 2>&1; then
		ktap_pass "apmu-stat host unit tests ($(grep -c '^ok' "$ldir/apmu-stat-test.log") passed)"
	else
		ktap_fail "apmu-stat host unit tests"
		grep -v '^ok' "$ldir/apmu-stat-test.log" | sed 's/^/# /' | head -n 40
	fi
	for f in selftests/apmu/config drivers/perf/apmu/tests/.kunitconfig; do
		lacks=$(grep -h '^CONFIG_' "$APMU_TOP/$f" | while read -r opt; do
			grep -qxF "$opt" "$APMU_TOP/scripts/kconfig/apmu-test.config" &&
				grep -qxF "$opt" "$kdir/.config" || echo "$opt"
		done)
		if [ -z "$lacks" ] && grep -q '^CONFIG_' "$APMU_TOP/$f"; then
			ktap_pass "the test kernel has every option of $f"
		else
			ktap_fail "the test kernel has every option of $f"
			echo "${lacks:-no CONFIG_ line in $f}" | sed 's/^/# missing: /'
		fi
	done
	ktap_end
}

# ktap_parse LANE [PREFIX]: LANE's KUnit KTAP once more, through the kernel's own parser
# (kunit.py parse): the section PREFIXkunit:apmu_kunit as the VM printed it, less the
# kernel's console messages; section PREFIXkunit:ktap
ktap_parse() {
	local ktap=$ldir/$1.ktap src p=${2:-}
	src=$(readlink -f "$kdir/source")
	tr -d '\r' <"$ldir/$1.log" |
		sed -n "/^APMU-SECTION-BEGIN ${p}kunit:apmu_kunit\$/,/^APMU-SECTION-END ${p}kunit:apmu_kunit /p" |
		sed '1d; $d' >"$ktap"
	ktap_begin "${p}kunit:ktap"
	# (no __pycache__ written into the shared kernel source)
	if PYTHONDONTWRITEBYTECODE=1 python3 "$src/tools/testing/kunit/kunit.py" parse "$ktap" \
		>"$ldir/$1.kunit-parse" 2>&1 &&
		grep -q 'Testing complete\. Ran [1-9][0-9]* tests: passed: [1-9]' "$ldir/$1.kunit-parse" &&
		! grep -q '\[ERROR\]' "$ldir/$1.kunit-parse"; then
		ktap_pass "kunit.py parse: apmu_kunit's KTAP is well formed and passes"
		grep 'Testing complete' "$ldir/$1.kunit-parse" | sed 's/^/# /'
	else
		ktap_fail "kunit.py parse: apmu_kunit's KTAP is well formed and passes"
		sed 's/^/# /' "$ldir/$1.kunit-parse" | grep -v PASSED | tail -n 30
	fi
	ktap_end
}

# compare_logs SCRIPT SECTION APMU_LANE INTREE_LANE: SCRIPT (scripts/*-compare.py, "PASS
# ..."/"FAIL ..." lines) on the two lanes' logs, as section SECTION. A cached reference
# log (vm_reference) that apmu did not match is dropped: the next run samples the in-tree
# driver afresh
compare_logs() {
	local line r=0 ref out=$ldir/$lane.$1.out
	ktap_begin "$2"
	python3 "$APMU_TOP/scripts/$1" "$ldir/$3.log" "$ldir/$4.log" >"$out" 2>&1 || r=$?
	while IFS= read -r line; do
		case "$line" in
		PASS\ *) ktap_pass "${line#PASS }" ;;
		FAIL\ *) ktap_fail "${line#FAIL }" ;;
		*) echo "# $line" | sed 's/^# # /# /' ;;
		esac
	done <"$out"
	# a crash of the script fails the section, whatever it printed before
	[ $r = 0 ] || ktap_fail "$1 exited with status $r"
	if { [ $r != 0 ] || grep -q '^FAIL ' "$out"; } &&
	   ref=$(sed -n "s/^# $4: the reference boot's log of .*, reused (\(.*\))\$/\1/p" "$ldir/$4.log") &&
	   [ -n "$ref" ]; then
		rm -f "$ref"
		echo "# the in-tree driver's log came from the cache: dropped, the next run samples it again"
	fi
	ktap_end
}

# perftest_compare APMU_LANE INTREE_LANE PREFIX: `perf test` on apmu beside the in-tree
# driver (scripts/perftest-compare.py); section PREFIXperftest:compare
perftest_compare() {
	compare_logs perftest-compare.py "${3}perftest:compare" "$1" "$2"
}

# named_compare APMU_LANE INTREE_LANE PREFIX: a named core's events and metrics on apmu
# beside the in-tree driver (scripts/named-compare.py, section PREFIXnamed:compare), then
# their perf tests (perftest_compare, section PREFIXperftest:compare)
named_compare() {
	compare_logs named-compare.py "${3}named:compare" "$1" "$2"
	perftest_compare "$@"
}

# ---------------------------------------------------------------------------------------
# section_clock: the wall time of every section, for planning the time budget (the VMs'
# own clocks run on instructions): every 3 s, each APMU-SECTION line that has appeared in
# a log since is written with the time it was seen to $ldir/section-clock.txt; at the
# end, section_times writes each section's seconds, longest first, to
# $ldir/section-times.txt (within 3 s; a reused reference log shows 0)
clock_pass() { # one look at the logs that grew, past the lines counted in the caller's seen[]
	local f sz n new
	# (the logs this run writes, not an earlier run's; one find a pass: the clock must
	# not take the VMs' time)
	while read -r sz f; do
		[ "$sz" != "${size[$f]:-}" ] || continue
		size[$f]=$sz
		# complete lines only: a section line may be half written
		if [ -z "$(tail -c 1 "$f")" ]; then
			new=$(grep -a -o -E 'APMU-SECTION-(BEGIN|END) [^ ]+' "$f" | tr -d '\r' || true)
		else
			new=$(head -n -1 "$f" | grep -a -o -E 'APMU-SECTION-(BEGIN|END) [^ ]+' |
				tr -d '\r' || true)
		fi
		n=$(printf '%s' "$new" | grep -c . || true)
		[ "$n" -gt "${seen[$f]:-0}" ] || continue
		printf '%s\n' "$new" | tail -n +$((${seen[$f]:-0} + 1)) |
			sed "s|^|$(date +%s) ${f##*/} |" >>"$ldir/section-clock.txt"
		seen[$f]=$n
	done < <(find "$ldir" "$out" -maxdepth 1 -newer "$ldir/.clock-start" \
		\( -name '*.log' -o -name '*.console' \) -printf '%s %p\n' 2>/dev/null)
}
section_clock() {
	declare -A seen=() size=()
	while :; do
		clock_pass
		sleep 3
	done
}
section_times() {
	awk '{ k = $4; sub(/\r$/, "", k) } $3 == "APMU-SECTION-BEGIN" && !(k in b) { b[k] = $1 }
		$3 == "APMU-SECTION-END" && !(k in e) { e[k] = $1 }
		END { for (k in e) if (k in b) printf "%5d %s\n", e[k] - b[k], k }' \
		"$ldir/section-clock.txt" 2>/dev/null | sort -rn >"$ldir/section-times.txt" || true
}

# ---------------------------------------------------------------------------------------
# The scheduler: start what is ready, in table order; wait for any job to end.
jobs_max=${APMU_JOBS:-$(nproc)}
[ "$jobs_max" -le 2 ] || jobs_max=2
[ "$jobs_max" -ge 1 ] || jobs_max=1
running_vm=0
# a make check stopped (or failing) stops its lanes and builds too
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
for l in "${want[@]}"; do state[$l]=wait; done
: >"$ldir/section-clock.txt"
touch -d '-1 second' "$ldir/.clock-start"	# (older than this run's first log)
section_clock &
clock_pid=$!

start() { # start NAME
	local l=$1 c
	state[$l]=run
	read -ra c <<<"${cmd[$l]}"
	if [ "${kind[$l]}" = build ]; then
		apmu_log "build $l: ${cmd[$l]} (log: $ldir/build-$l.err)"
		( cd "$APMU_TOP"; renice -n "${nice[$l]}" $BASHPID >/dev/null; "${c[@]}" ) \
			>/dev/null 2>"$ldir/build-$l.err" &
	else
		apmu_log "lane $l: ${cmd[$l]} (log: $ldir/$l.log)"
		if [ "${kind[$l]}" = vm ]; then
			running_vm=$((running_vm + 1))
			( cd "$APMU_TOP"; lane=$l; "${c[@]}" ) >"$ldir/$l.log" 2>"$ldir/$l.err" &
		else
			( cd "$APMU_TOP"; lane=$l; renice -n 10 $BASHPID >/dev/null; "${c[@]}" ) \
				>"$ldir/$l.log" 2>"$ldir/$l.err" &
		fi
	fi
	pid_of[$!]=$l
	date +%s >"$ldir/$l.t0"
}

ready() { # ready NAME: status 0 when every need succeeded, 2 when one failed
	local n
	[ "${needs[$1]}" = - ] && return 0
	for n in ${needs[$1]//,/ }; do
		case "${state[$n]}" in
		done) [ "${rc[$n]}" = 0 ] || return 2 ;;
		*) return 1 ;;
		esac
	done
}

# soon NAME: the lane waits only for builds at full priority (the arm64 one): it keeps
# a VM slot for itself, so that a short lane later in the table does not take it first
soon() {
	local n
	for n in ${needs[$1]//,/ }; do
		[ "${state[$n]}" = done ] && continue
		[ "${kind[$n]}" = build ] && [ "${nice[$n]}" = 0 ] || return 1
	done
}

while :; do
	pending=0 reserved=0
	for l in "${want[@]}"; do
		[ "${state[$l]}" = wait ] || continue
		pending=1
		r=0
		ready "$l" || r=$?
		if [ $r = 1 ] && [ "${kind[$l]}" = vm ] && soon "$l"; then
			reserved=$((reserved + 1))
			continue
		fi
		if [ $r = 2 ]; then
			apmu_log "lane $l: not run, a lane or build it needs failed (${needs[$l]})"
			state[$l]=done rc[$l]=1
			: >"$ldir/$l.log"
			continue
		fi
		[ $r = 0 ] || continue
		[ "${kind[$l]}" != vm ] || [ $((running_vm + reserved)) -lt "$jobs_max" ] || continue
		start "$l"
	done
	[ ${#pid_of[@]} -gt 0 ] || { [ $pending = 0 ] && break; apmu_die "make check: lanes wait for each other: $(for l in "${want[@]}"; do [ "${state[$l]}" = wait ] && printf '%s ' "$l"; done)"; }
	r=0
	wait -n -p done_pid "${!pid_of[@]}" || r=$?
	l=${pid_of[$done_pid]}
	unset "pid_of[$done_pid]"
	state[$l]=done rc[$l]=$r
	[ "${kind[$l]}" != vm ] || running_vm=$((running_vm - 1))
	apmu_log "${kind[$l]} $l: done in $(( $(date +%s) - $(cat "$ldir/$l.t0") )) s, status $r"
done

kill $clock_pid 2>/dev/null || true
# a last look (a log written when its lane ended): what is seen again keeps its first time
declare -A seen=() size=()
clock_pass || true
section_times

# ---------------------------------------------------------------------------------------
# The count: every lane's log in table order, every section its lines name
required=()
: >"$out/all.log"
for l in "${want[@]}"; do
	[ "${kind[$l]}" != build ] || continue
	cat "$ldir/$l.log" >>"$out/all.log"
	mapfile -t -O ${#required[@]} required < <(sections_of "$l")
done
sum=0
python3 "$APMU_TOP/scripts/tap-summary.py" "$out/all.log" "${required[@]}" || sum=$?
failed=()
for l in "${want[@]}"; do
	e=$ldir/$l.err
	[ "${kind[$l]}" != build ] || e=$ldir/build-$l.err
	[ "${rc[$l]}" = 0 ] || failed+=("$l (status ${rc[$l]}: $e)")
done
apmu_log "check took $(( $(date +%s) - t0 ))s"
if [ $sum -ne 0 ] || [ ${#failed[@]} -gt 0 ]; then
	[ ${#failed[@]} = 0 ] || printf 'did not finish cleanly: %s\n' "${failed[@]}" >&2
	echo "FAILED: logs kept in $ldir" >&2
	exit 1
fi
}
main "$@"
exit
