#!/bin/sh
# scripts/check-commits.sh BASE: build every commit since BASE (BASE..HEAD,
# oldest first) on its own, in a scratch worktree, and run its unit tests.
# Every commit of the history builds: this is how to show it before a push.
# Exit 0 when all do; else 1, naming the first commit that does not.
set -u
if [ $# -ne 1 ]; then
	echo "usage: scripts/check-commits.sh BASE" >&2
	exit 2
fi
base=$1
git rev-parse --verify -q "$base^{commit}" >/dev/null || {
	echo "check-commits: error: '$base' is not a commit" >&2
	exit 2
}
commits=$(git rev-list --reverse "$base..HEAD") || exit 2
[ -n "$commits" ] || { echo "check-commits: no commit since $base"; exit 0; }
wt=$(mktemp -d) || exit 2
trap 'git worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt"' EXIT
git worktree add -q --detach "$wt" "$base" || exit 2
jobs=$(nproc 2>/dev/null || echo 2)
n=0
for c in $commits; do
	n=$((n + 1))
	title=$(git log -1 --format='%h %s' "$c" | cut -c1-72)
	(cd "$wt" && git checkout -q --detach "$c" && git clean -qfdx &&
		make -j"$jobs" >"$wt.log" 2>&1 && make -j"$jobs" check-unit >>"$wt.log" 2>&1) || {
		echo "FAIL $title"
		tail -n 20 "$wt.log" | sed 's/^/  | /'
		rm -f "$wt.log"
		exit 1
	}
	echo "ok   $title"
done
rm -f "$wt.log"
echo "check-commits: all $n commits since $base build and pass their unit tests"
