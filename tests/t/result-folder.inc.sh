# Shared by t0015-result-folder.sh and t0052-full-disk.sh (sourced after lib.sh): the
# jobs they run and what a whole result folder is.
printf 'experiment: e1\njobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >a.yaml
printf 'experiment: e2\njobs:\n  - {name: b, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >b.yaml
printf 'experiment: e3\njobs:\n  - {name: c, workload: read, backend: null, file_size: 1MiB, block_size: 64KiB}\n' >c.yaml
# A job whose one trial leaves a mark: no mark, no trial ran.
printf 'experiment: m\njobs:\n  - {name: m, workload: command, command: "touch %s/ran"}\n' "$PWD" >mark.yaml

# No temporary file (.NAME.iotrial~XXXXXX), probe or lock file left in folder $1.
no_leftovers() {
	ls -A "$1" >left.txt
	not grep -E '^\.' left.txt
}

# Folder $1 holds one run's complete results, results.json and trials.csv from the same run.
whole_run() {
	jq -e .complete "$1/results.json" >/dev/null
	expect_eq "$(cut -d, -f1 "$1/trials.csv" | sed -n 2p)" "$(jq -r .experiment "$1/results.json")" "$1: trials.csv and results.json"
	test -s "$1/summary.txt"
	no_leftovers "$1"
}
