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
