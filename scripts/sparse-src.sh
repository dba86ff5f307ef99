#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/sparse-src.sh KSRC: print the path of a sparse that can check the kernel source
# KSRC (the test its Kbuild runs, scripts/checker-valid.sh): the host's when it can,
# else one built from Debian unstable's source package, cached in $APMU_CACHE/sparse-<ver>.
# Status 1, with the reason on stderr, when there is none.
#
# Linux 7.2's headers use __typeof_unqual__, which Debian 12's sparse 0.6.4 does not know
# (its Kbuild then skips the checker with only a make warning). Debian unstable's sparse
# (0.6.5~rc1 on 2026-12-03) does, but its binary needs glibc 2.38, Debian 12 has 2.36: the
# upstream tarball of its source package (Debian's patches not applied) is fetched through
# a private apt configuration (a deb-src line of its own, download only, the host's sources
# untouched) and built here (plain C, no dependencies: about 20 s of a core). Whatever
# version sid has then is the one built. Remove this when the host's sparse passes
# checker-valid.sh for every kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ksrc=${1:?usage: scripts/sparse-src.sh KSRC}
# (a kernel without the test, 6.12 and older, takes any sparse)
valid() {
	[ ! -f "$ksrc/scripts/checker-valid.sh" ] ||
		[ "$(sh "$ksrc/scripts/checker-valid.sh" "$1" -m64 2>/dev/null)" = 1 ]
}
if command -v sparse >/dev/null && valid sparse; then
	command -v sparse
	exit 0
fi

mkdir -p "$APMU_CACHE"
exec 9>"$APMU_CACHE/.sparse.lock"
flock 9
for s in "$APMU_CACHE"/sparse-*/sparse; do
	case "$s" in *.tmp/sparse) continue ;; esac	# a build that did not finish
	[ -x "$s" ] && valid "$s" && { echo "$s"; exit 0; }
done

# as apmu_apt (scripts/lib.sh), with a deb-src line and a directory of its own
apmu_apt_mirror
src_dir=$APMU_CACHE/apt-sid-src
mkdir -p "$src_dir"/{state/lists/partial,cache/archives/partial,parts,src}
printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s sid main\n' \
	"$apt_mirror" >"$src_dir/sources.list"
chown -R _apt "$src_dir" 2>/dev/null || true
opts=(-q -o Dir::Etc::SourceList="$src_dir/sources.list" -o Dir::Etc::SourceParts="$src_dir/parts"
	-o Dir::State="$src_dir/state" -o Dir::Cache="$src_dir/cache"
	-o Dir::State::status=/var/lib/dpkg/status -o Acquire::Languages=none)
apmu_log "sparse: fetching Debian unstable's sparse source ($src_dir)"
apt-get "${opts[@]}" update >"$src_dir/update.log" 2>&1 ||
	{ tail -n 3 "$src_dir/update.log" >&2; apmu_die "sparse: apt-get update (deb-src sid) failed"; }
rm -rf "$src_dir/src" && mkdir "$src_dir/src" && chown _apt "$src_dir/src" 2>/dev/null || true
(cd "$src_dir/src" && apt-get "${opts[@]}" source --download-only sparse) >"$src_dir/source.log" 2>&1 ||
	{ tail -n 3 "$src_dir/source.log" >&2; apmu_die "sparse: apt-get source sparse failed"; }
orig=$(compgen -G "$src_dir/src/sparse_*.orig.tar.*" | head -n 1) ||
	apmu_die "sparse: no upstream tarball in sid's source package ($src_dir/src)"
ver=$(basename "$orig" | sed 's/^sparse_\(.*\)\.orig\.tar\..*$/\1/')
out=$APMU_CACHE/sparse-$ver
rm -rf "$out" "$out.tmp"
mkdir -p "$out.tmp"
tar -xf "$orig" -C "$out.tmp" --strip-components=1
apmu_log "sparse: building sparse $ver in $out"
make -s -C "$out.tmp" -j"$(nproc)" sparse >"$out.tmp/build.log" 2>&1 ||
	{ tail -n 10 "$out.tmp/build.log" >&2; apmu_die "sparse: building $ver failed"; }
mv "$out.tmp" "$out"
valid "$out/sparse" || apmu_die "sparse: $ver built, and still cannot check $ksrc"
echo "$out/sparse"
