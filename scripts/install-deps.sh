#!/bin/sh
# Install the Debian 12 packages that building and testing ksunset needs.
# Idempotent: installs only what is missing, and is quick when nothing is.
set -eu

# dwarves: pahole, which newer kernels' headers (6.12 on) run to add BTF to
# every module they build; debian-archive-keyring: scripts/fetch-debian.sh;
# libdw-dev: source lines from a module's DWARF;
# debhelper, dpkg-dev, lintian: the Debian packages (debian/, t-deb.sh);
# dkms: t-dkms.sh (no recommends: no headers or builds for the running kernel);
# bash-completion: its directory (make install) and loader (t-completion.sh);
# python3-yaml: t-distro-matrix.sh parses the example CI files.
PKGS="gcc g++ make gcc-12-plugin-dev libelf-dev libdw-dev check pkg-config \
liblzma-dev libzstd-dev zlib1g-dev xz-utils zstd gzip binutils \
linux-headers-amd64 bc kmod flex bison python3 groff-base ccache \
python3-jsonschema dwarves debian-archive-keyring \
debhelper dpkg-dev lintian dkms bash-completion python3-yaml"
# t-sarif.sh installs the SARIF SDK's validator from the npm registry
# itself: npm, unless Node.js brought it.
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
# `install-deps.sh fuzz` (make fuzz): also clang and its libFuzzer runtime.
if [ "${1:-}" = fuzz ]; then
	PKGS="$PKGS clang-14 libclang-rt-14-dev"
fi
# `install-deps.sh bench` (make bench): also valgrind, to count instructions,
# and GNU time, for the wall and CPU seconds of mining (bench/fix.sh).
if [ "${1:-}" = bench ]; then
	PKGS="$PKGS valgrind time"
fi
# `install-deps.sh world` (make check-world): also the kernel's own sources,
# whose driver folders tests/kbuild/carets.sh builds as external modules.
if [ "${1:-}" = world ]; then
	PKGS="$PKGS linux-source-6.1"
fi

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
