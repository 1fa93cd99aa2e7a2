#!/bin/sh
# apt-get update, robust to a mirror caught mid-sync: an index that fails
# ("File has unexpected size ... Mirror sync in progress?") is tried again
# up to three times with a pause. If one still fails, apt keeps the lists
# it has for it, and this says so and goes on: the install or download
# that follows either finds what it needs in them or fails by name (and
# install-deps.sh then proves every toolchain with a one-liner).
#   tools/apt-update.sh [WHO]    WHO names the caller in messages
who=${1:-apt-update}
tries=1
while ! apt-get update -qq; do
	if [ "$tries" -ge 4 ]; then
		echo "$who: apt-get update failed $tries times; going on with the package lists apt already has" >&2
		exit 0
	fi
	echo "$who: apt-get update failed; trying again in $((tries * 10)) s" >&2
	sleep $((tries * 10))
	tries=$((tries + 1))
done
exit 0
