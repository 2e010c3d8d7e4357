#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make litmus: run the litmus tests of tools/testing/selinux-avc-litmus with
# herd7 under the kernel's own memory model (tools/memory-model of the
# pristine tree) and compare each test's Observation (Never, Sometimes,
# Always) with the suite's "expected" file.  Prints one ok/not ok line per
# test and "N passed, N failed", writes results/litmus.txt, fails on any
# difference.  Not part of make check: herd7 is not a Debian package.
#
# HERD7=PATH   the herd7 binary (default: herd7 in PATH)
# LITMUS_TIMEOUT=SECONDS  per test (default 300; each takes seconds)
. "$(dirname "$0")/lib.sh"

HERD7=${HERD7:-herd7}
LITMUS_TIMEOUT=${LITMUS_TIMEOUT:-300}
SUITE=$TOP/tools/testing/selinux-avc-litmus
EXPECTED=$SUITE/expected
LKMM=$PRISTINE/tools/memory-model
RESULTS=${RESULTS:-$RESULTS_TOP}

no_herd7() {
	cat >&2 <<EOF
error: $1
make litmus needs herd7, from herdtools7 (not a Debian package).  Release
7.57 builds from source with Debian 12's OCaml packages (menhirLib is in
libmenhir-ocaml-dev, not in menhir):
  apt-get install -y ocaml-nox ocaml-dune menhir libmenhir-ocaml-dev libzarith-ocaml-dev
  git clone --branch 7.57 --depth 1 https://github.com/herd/herdtools7
  cd herdtools7
  sh ./version-gen.sh \$HOME/.local       # where herd7 will look for its library
  dune build -j 1 --profile release herd/herd.exe
  install -D _build/default/herd/herd.exe \$HOME/.local/bin/herd7
  mkdir -p \$HOME/.local/share/herdtools7
  cp -r herd/libdir \$HOME/.local/share/herdtools7/herd
(or, without the last two lines, run with HERDLIB=\$PWD/herd/libdir)
then: make litmus HERD7=\$HOME/.local/bin/herd7
EOF
	exit 1
}

herd=$(command -v "$HERD7" 2>/dev/null) || no_herd7 "herd7 not found (HERD7=$HERD7)"
[ -x "$herd" ] || no_herd7 "$herd is not executable"
version=$("$herd" -version 2>&1 | head -1) || no_herd7 "$herd -version failed: $version"

[ -f "$LKMM/linux-kernel.cfg" ] ||
	die "no kernel memory model in ${LKMM#"$TOP"/}: run 'make source' (make litmus does)"
[ -f "$EXPECTED" ] || die "no ${EXPECTED#"$TOP"/}"

# The expected file: "name.litmus Never|Sometimes|Always" lines, # comments.
declare -A want
names=()
while read -r f res extra; do
	case $f in ''|'#'*) continue ;; esac
	[ -z "$extra" ] || die "${EXPECTED#"$TOP"/}: more than two fields for $f"
	case $res in Never|Sometimes|Always) ;; *)
		die "${EXPECTED#"$TOP"/}: $f: expected Never, Sometimes or Always, not '$res'" ;;
	esac
	[ -f "$SUITE/$f" ] || die "${EXPECTED#"$TOP"/} lists $f, which is not in ${SUITE#"$TOP"/}"
	[ -z "${want[$f]:-}" ] || die "${EXPECTED#"$TOP"/} lists $f twice"
	want[$f]=$res
	names+=("$f")
done < "$EXPECTED"
for p in "$SUITE"/*.litmus; do
	[ -n "${want[${p##*/}]:-}" ] || die "${p#"$TOP"/} is not in ${EXPECTED#"$TOP"/}"
done
[ ${#names[@]} -gt 0 ] || die "${EXPECTED#"$TOP"/} lists no test"

mkdir -p "$RESULTS"
out=$RESULTS/litmus.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
msg "herd7 $version ($herd), model ${LKMM#"$TOP"/}/linux-kernel.cfg"
pass=0 failn=0 n=0
{
	echo "# make litmus: herd7 $version, Linux $(kernel_version "$PRISTINE" || echo '?') memory model"
	for f in "${names[@]}"; do
		n=$((n + 1))
		t0=$SECONDS
		# herd7 finds linux-kernel.{cat,bell,def} and lock.cat next to the cfg.
		if (cd "$LKMM" && timeout "$LITMUS_TIMEOUT" "$herd" -conf linux-kernel.cfg \
			"$SUITE/$f") > "$tmp" 2>&1; then
			got=$(awk '$1 == "Observation" { print $3; exit }' "$tmp")
		else
			got="error"
		fi
		[ -n "$got" ] || got="no-observation"
		if [ "$got" = "${want[$f]}" ]; then
			pass=$((pass + 1))
			echo "ok $n - $f: $got ($((SECONDS - t0))s)"
		else
			failn=$((failn + 1))
			echo "not ok $n - $f: $got, expected ${want[$f]}"
			sed 's/^/    # /' "$tmp" | tail -15
			! grep -q 'Cannot find file' "$tmp" ||
				echo "    # herd7 cannot find its library: install it (make litmus HERD7=/nonexistent says how) or set HERDLIB=<herdtools7>/herd/libdir"
		fi
	done
	echo "$pass passed, $failn failed"
} | tee "$out"
msg "wrote ${out#"$TOP"/}"
grep -q '^[0-9]* passed, 0 failed$' "$out"
