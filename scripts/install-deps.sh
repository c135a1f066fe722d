#!/bin/sh
# The one place that installs what iotrial needs to build, test and benchmark, from
# Debian's packages. Does nothing when everything is present. Usage:
#   scripts/install-deps.sh [GROUP]...   build + test dependencies, and each GROUP's:
#     bench    fio and GNU time (bench/vs-fio.sh), perf (bench/io-trace.sh, bench/vs-fio.sh)
#     fuzz     clang and its libFuzzer runtime, for make fuzz (and CC=clang builds)
#     mpi      Open MPI, for make MPI=1 and tests/t/t0011-mpi.sh
#     lint     clang-format, clang-tidy and cppcheck, for make format-check and make lint
set -e

# chromium: tests/t/t0020-html-report.sh renders report.html headless (and
# scripts/report-screenshots.sh takes the README's pictures with it).
# lowdown: the man pages (scripts/gen-man.sh, make install); python3-jsonschema and
# python3-yaml: tests/t/t0033-cli.sh validates job files against docs/jobfile.schema.json.
pkgs="gcc make pkg-config libyaml-dev libjansson-dev libcmocka-dev nettle-dev zlib1g-dev liburing-dev libaio-dev jq strace chromium lowdown python3-jsonschema python3-yaml"
for group in "$@"; do
	case $group in
	bench) pkgs="$pkgs fio linux-perf time" ;;
	fuzz) pkgs="$pkgs clang libclang-rt-14-dev" ;;
	mpi) pkgs="$pkgs openmpi-bin libopenmpi-dev" ;;
	lint) pkgs="$pkgs clang-format clang-tidy cppcheck" ;;
	*)
		echo "install-deps: unknown group '$group' (bench, fuzz, mpi, lint)" >&2
		exit 2
		;;
	esac
done

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root to install:$missing" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
