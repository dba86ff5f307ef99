# SPDX-License-Identifier: GPL-2.0
# Helpers for scripts run inside the test VM; vm-run installs this as /apmu/vmlib.sh.

section() { echo "APMU-SECTION-BEGIN $1"; }
section_end() { echo "APMU-SECTION-END $1 rc=$2"; }

# tap N DESCRIPTION COMMAND...: one TAP result line; the command's output becomes
# diagnostics when it fails. COMMAND may be a shell function of the caller.
tap() {
	_tap_n=$1 _tap_d=$2
	shift 2
	if "$@" >/tmp/tap.out 2>&1; then
		echo "ok $_tap_n $_tap_d"
	else
		echo "not ok $_tap_n $_tap_d"
		sed 's/^/# /' /tmp/tap.out
	fi
}

# ksft PROGRAM [ARGS...]: run one apmu kselftest program the way kernel CI does, through
# the kernel's installed runner: run_kselftest.sh -t apmu:PROGRAM, which applies the
# `settings` timeout and prints the program's TAP nested under its own ("# " lines). ARGS
# (kselftest_harness selections such as -F apmu32) reach the program through the runner's
# KSELFTEST_<PROGRAM>_ARGS. run_kselftest.sh exits 0 whatever the results: the status
# returned here is 1 when the runner reported the program "not ok".
ksft() {
	_ksft_p=$1
	shift
	(cd /apmu/kselftest_install &&
		env "KSELFTEST_$(echo "$_ksft_p" | tr a-z A-Z)_ARGS=$*" \
			./run_kselftest.sh -t "apmu:$_ksft_p") | tee /tmp/ksft.out
	grep -q '^ok ' /tmp/ksft.out && ! grep -q '^not ok ' /tmp/ksft.out
}
