#!/usr/bin/env bash
# Instructions per operation of each benchmark run given (such as
# 'GitHub4/impl=weblink'), counted by callgrind: the count of a run of
# $LONG iterations minus that of $SHORT iterations, divided by the
# difference, so that start-up and the first (b.N=1) round cancel out.
# Counts do not depend on the machine's load, unlike times.
#
#	./callgrind.sh 'GitHub4/impl=weblink' 'GitHub4/impl=tomnomnom'
set -euo pipefail
cd "$(dirname "$0")"
SHORT=${SHORT:-100}
LONG=${LONG:-2100}
bin=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" . >/dev/null
count() {
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$bin" -test.run='^$' -test.bench="$1" -test.benchtime="$2x" 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for b in "$@"; do
	name=${b%%/*}
	sub=${b#*/}
	pattern="^Benchmark$name\$/^$sub\$"
	short=$(count "$pattern" "$SHORT")
	long=$(count "$pattern" "$LONG")
	echo "$b $(( (long - short) / (LONG - SHORT) ))"
done
